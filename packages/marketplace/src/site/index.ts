import type { Express, Request, Response, Router } from 'express';
import { framesRouter } from './frames.js';
import { pageErrors, sendPage, SiteContext } from './http.js';
import { pagesRouter } from './pages.js';
import type { SiteHost } from './http.js';
import { siteViews } from './views.js';

/**
 * The worker website: the pages under /worker (pages.ts) and the HIT frames with their
 * submission endpoint (frames.ts). `running` is read only while serving requests.
 * `morePages` adds pages under /worker, after the site's own (its sessions already read).
 */
export function mountWorkerSite(app: Express, running: SiteHost, morePages?: (site: SiteContext) => Router): SiteContext {
  const site = new SiteContext(running, siteViews());
  app.use(framesRouter(site));
  app.use('/worker', pagesRouter(site), ...(morePages ? [morePages(site)] : []), (req: Request, res: Response) => {
    sendPage(
      res,
      site,
      'error',
      'Not found',
      { heading: 'Not found', message: `There is no page at ${req.originalUrl.split('?')[0]}.` },
      { status: 404 },
    );
  });
  app.use('/worker', pageErrors(site));
  return site;
}

export { workFrameUrl, previewFrameUrl } from './links.js';
export { SiteKeys } from './keys.js';
