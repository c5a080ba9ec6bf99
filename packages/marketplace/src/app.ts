import express, { type Express } from 'express';
import type { Marketplace } from './core.js';
import { adminRouter, type AdminDeps } from './admin/routes.js';
import { requesterApiRouter } from './protocol/router.js';
import type { ChaosControl } from './protocol/chaos-control.js';
import type { OwnHosts } from './protocol/own-hosts.js';

/**
 * The marketplace's HTTP face: the MTurk Requester API on `POST /`, the operator's
 * `/admin/*`, `/healthz`, and whatever `mount` adds (the worker website, the simulation's
 * /admin/simulation routes).
 */
export function createMarketplaceApp(
  deps: AdminDeps & { chaos: ChaosControl; ownHosts?: OwnHosts },
  mount?: (app: Express) => void,
): Express {
  const mp: Marketplace = deps.marketplace;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  // no ETag: Express hashed every answer to make one (each API answer, each HIT page, the
  // 46 KB question inside most), and neither the SDK nor a HIT page revalidates with one
  app.set('etag', false);
  app.get('/healthz', async (_req, res) => {
    try {
      await mp.models.settings.db.db?.admin().ping();
      res.json({ status: 'ok', service: 'qrelay-marketplace', database: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable', service: 'qrelay-marketplace', database: 'unreachable' });
    }
  });
  // mounted routes come first: /admin/simulation has its own body limit, ahead of /admin's
  mount?.(app);
  app.use('/admin', adminRouter(deps));
  app.use(requesterApiRouter(mp, deps.chaos, deps.ownHosts));
  app.use((req, res) => {
    res
      .status(404)
      .type('application/problem+json')
      .send(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: `no route for ${req.method} ${req.path}` }));
  });
  return app;
}
