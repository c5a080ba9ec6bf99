import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { answerRequests } from './api/answers.js';
import type { AppContext } from './api/context.js';
import { createMetrics } from './api/metrics.js';
import { buildOpenApiDocument, problemResponse, registry } from './api/openapi.js';
import { methodNotAllowed } from './api/method-not-allowed.js';
import { errorHandler, notFound, sendProblem } from './api/problem.js';
import { apiV1Router } from './api/v1/index.js';
import { consoleRouter } from './console/routes.js';
import { tasksRouter } from './tasks/routes.js';
import { errorMessage } from './errors.js';
import { version } from './version.js';
import { z } from 'zod';

registry.registerPath({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness and database reachability',
  responses: {
    200: {
      description: 'healthy',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok'), database: z.literal('ok'), version: z.string() }) } },
    },
    503: problemResponse('the database does not answer'),
  },
});

export interface CreateAppOptions {
  /** Mounted before the 404 handler: components that bring their own routes. */
  mount?: (app: Express) => void;
}

export function createApp(ctx: AppContext, opts: CreateAppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  const metrics = createMetrics();

  app.use(
    pinoHttp({
      logger: ctx.logger,
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/metrics' },
      // a dashboard polling status and report asks hundreds of reads a second: a read that
      // succeeded is logged at debug; failures and anything that may change state at info
      customLogLevel: (req, res, err) =>
        !err && res.statusCode < 400 && (req.method === 'GET' || req.method === 'HEAD') ? 'debug' : 'info',
    }),
  );
  app.use(metrics.middleware);
  app.use(express.json({ limit: '2mb' }));
  // status and report: a change made by a request is seen by the reads after its answer;
  // a read with Cache-Control: no-cache waits for a rebuild under way (api/answers.ts)
  app.use(answerRequests(ctx));

  app.get('/healthz', async (_req, res) => {
    try {
      const db = ctx.connection.db;
      if (!db || ctx.connection.readyState !== 1) throw new Error('not connected');
      await db.admin().ping();
      res.json({ status: 'ok', database: 'ok', version });
    } catch (err) {
      sendProblem(res, 503, 'Service Unavailable', `database unreachable: ${errorMessage(err)}`);
    }
  });

  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  let openapi: ReturnType<typeof buildOpenApiDocument> | undefined;
  const openapiDocument = () => (openapi ??= buildOpenApiDocument(version));
  app.get('/openapi.json', (_req, res) => {
    res.json(openapiDocument());
  });

  // before the routers: an unsupported method is 405 even where a token would be asked for
  app.use(
    methodNotAllowed(() => openapiDocument().paths as Record<string, Record<string, unknown>>, {
      '/metrics': ['GET'],
      '/openapi.json': ['GET'],
    }),
  );
  app.use('/api/v1', apiV1Router(ctx));
  // the task pages participants reach from a platform linking to external pages (src/tasks/)
  app.use(tasksRouter(ctx));
  // the requester's console: GET / and /console/... (src/console/)
  app.use(consoleRouter(ctx));
  opts.mount?.(app);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
