import type { Express, Router } from 'express';
import type { SiteContext } from '../site/http.js';
import { prolificApiRouter } from './api.js';
import type { ProlificService } from './service.js';
import { prolificCompletionRouter, prolificPagesRouter } from './site.js';

/**
 * The marketplace's Prolific side: the researcher API at /prolific/api/v1/, the
 * participant's pages under /worker/prolific/ and the completion redirect
 * /prolific/submissions/complete. `mountSite` mounts the worker site with the pages given.
 */
export function mountProlific(
  app: Express,
  service: ProlificService,
  token: string,
  mountSite: (pages: (site: SiteContext) => Router) => SiteContext,
): void {
  app.use('/prolific/api/v1', prolificApiRouter(service, token));
  const site = mountSite((s) => prolificPagesRouter(s, service));
  app.use(prolificCompletionRouter(site, service));
}

export { ProlificService } from './service.js';
export { participantIdOf } from './domain.js';
