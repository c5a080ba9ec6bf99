import { Router } from 'express';
import { requireToken } from '../auth.js';
import type { AppContext } from '../context.js';
import { batchesRouter } from './batches.js';
import { consoleActionsRouter } from './console-actions.js';
import { jobsRouter } from './jobs.js';
import { llmRouter } from './llm.js';
import { notificationsRouter } from './notifications.js';
import { reportsRouter } from './reports.js';

/** Every /api/v1 resource router is listed here. */
export function apiV1Router(ctx: AppContext): Router {
  const router = Router();
  // platforms cannot send the bearer token: this route checks a key in its path instead
  router.use(notificationsRouter(ctx));
  // mutations and reads of worker data (documented with bearer security in /openapi.json)
  router.use(requireToken(ctx.apiToken, ctx.config.env.QRELAY_API_READ_TOKEN));
  router.use(jobsRouter(ctx));
  router.use(batchesRouter(ctx));
  router.use(reportsRouter(ctx));
  router.use(llmRouter(ctx));
  router.use(consoleActionsRouter(ctx));
  return router;
}
