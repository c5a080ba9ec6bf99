import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { isDomainError, sameToken, type Marketplace } from '@qrelay/marketplace';
import type { Simulation } from './simulation.js';
import type { SimWorker } from './draw.js';
import { checkPopulation } from './population.js';
import { SimulationError } from './simulation.js';

/** What the routes read of the marketplace they are mounted on and its simulation. */
export interface SimulationHost {
  readonly simulation: Simulation;
  readonly adminToken: string;
  readonly marketplace: Marketplace;
}

/**
 * The simulation's operator routes, under /admin/simulation, behind the same bearer
 * token as /admin (documented in src/simulation/README.md):
 *
 *   GET   /admin/simulation               progress
 *   PUT   /admin/simulation/population    load a population profile (creates the worker accounts)
 *   GET   /admin/simulation/population    the profile and the drawn workers (kind, accuracy, ...)
 *   PUT   /admin/simulation/oracle        replace the oracle: { "<data-sim-key>": { "truth": "yes"|"no", "model"?: "yes"|"no" } }
 *   PATCH /admin/simulation/oracle        add to it (same body)
 *   POST  /admin/simulation/start         start, or resume after pause
 *   POST  /admin/simulation/pause         stop the workers and the marketplace's time
 *   POST  /admin/simulation/stop          end the run (held assignments are returned)
 */

const judgment = z.enum(['yes', 'no']);
export const oracleSchema = z.record(
  z.string().min(1).max(256),
  z.object({ truth: judgment, model: judgment.optional(), check: z.boolean().optional() }).strict(),
);

function problem(res: Response, status: number, title: string, detail: string, extra: Record<string, unknown> = {}): void {
  res
    .status(status)
    .type('application/problem+json')
    .send(JSON.stringify({ type: 'about:blank', title, status, detail, ...extra }));
}

export function workerView(w: SimWorker) {
  return {
    workerId: w.workerId,
    displayName: w.displayName,
    kind: w.kind,
    accuracy: w.accuracy,
    ...(w.kind === 'llm' ? { llmAgreement: w.llmAgreement } : {}),
    careful: w.careful,
    medianItemSeconds: Math.round(w.medianItemSeconds * 10) / 10,
    qualificationSkill: w.qualificationSkill,
    profile: w.profile,
  };
}

export function simulationRouter(running: SimulationHost): Router {
  const router = express.Router();
  const sim = () => running.simulation;
  router.use((req, res, next) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    if (!m) {
      res.set('WWW-Authenticate', 'Bearer realm="qrelay-marketplace-admin"');
      return problem(res, 401, 'Unauthorized', 'send Authorization: Bearer <admin token> (qrelay marketplace admin-token prints it)');
    }
    if (!sameToken(m[1]!, running.adminToken))
      return problem(res, 403, 'Forbidden', 'this is not the admin token of this marketplace key pair');
    next();
  });
  // an oracle for a large batch is big: 100,000 keys are about 5 MB
  router.use(express.json({ limit: '32mb' }));

  router.get('/', (_req, res) => void res.json(sim().progress()));
  router.put('/population', async (req, res) => {
    const checked = checkPopulation(req.body);
    if (!checked.ok) {
      return problem(res, 400, 'Bad Request', 'the population profile does not match its schema (src/simulation/population.ts)', {
        errors: checked.issues.map((i) => ({ path: i.path ? `body.${i.path}` : 'body', message: i.message })),
      });
    }
    const workers = await sim().loadPopulation(checked.profile);
    res.json({ seed: checked.profile.seed, workers: workers.map(workerView) });
  });
  router.get('/population', (_req, res) => {
    const { profile, workers } = sim().population();
    res.json({ ...(profile ? { profile } : {}), workers: workers.map(workerView) });
  });
  const oracle = (merge: boolean) => (req: Request, res: Response) => {
    const parsed = oracleSchema.safeParse(req.body);
    if (!parsed.success) {
      return problem(
        res,
        400,
        'Bad Request',
        'the oracle must be an object { "<data-sim-key>": { "truth": "yes" | "no", "model"?: "yes" | "no" } }',
        {
          errors: parsed.error.issues.slice(0, 20).map((i) => ({ path: ['body', ...i.path.map(String)].join('.'), message: i.message })),
        },
      );
    }
    res.json({ size: sim().setOracle(parsed.data, merge) });
  };
  router.put('/oracle', oracle(false));
  router.patch('/oracle', oracle(true));
  router.get('/oracle', (_req, res) => void res.json({ size: sim().oracleSize }));
  router.post('/start', (_req, res) => {
    sim().start();
    res.json(sim().progress());
  });
  router.post('/pause', async (_req, res) => {
    await sim().pause();
    res.json(sim().progress());
  });
  router.post('/stop', async (_req, res) => {
    await sim().stop();
    res.json(sim().progress());
  });
  router.use((req, res) =>
    problem(res, 404, 'Not Found', `no route for ${req.method} /admin/simulation${req.path === '/' ? '' : req.path}`),
  );

  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof SimulationError) return problem(res, err.status, 'Conflict', err.message);
    if (isDomainError(err)) return problem(res, 409, err.code, err.message);
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return problem(res, status, 'Bad Request', (err as Error).message);
    running.marketplace.logger.error({ err }, 'simulation admin request failed');
    problem(res, 500, 'Internal Server Error', 'an unexpected error occurred; the marketplace log has the details');
  });
  return router;
}
