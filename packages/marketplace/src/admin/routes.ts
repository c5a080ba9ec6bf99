import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z, ZodError } from 'zod';
import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import { centsOf, usd } from '../domain/money.js';
import type { ChaosControl } from '../protocol/chaos-control.js';
import type { BackgroundLoops } from '../services/loops.js';
import { checkRetakePolicy, MAX_RETAKES, retakePolicyOf } from '../domain/retakes.js';
import { deposit } from '../services/payments.js';
import { requireQualificationType } from '../services/qualifications.js';
import type { WorkerApi } from '../workers.js';
import { exportRecordsFrom } from '../records/export.js';
import { importRequesterRecords } from '../records/import.js';
import { parseRecords } from '../records/schema.js';
import { sameToken } from './token.js';

/**
 * The operator's interface (not part of the MTurk API): worker accounts, deposits,
 * throttling and fault injection, the clock. JSON in and out, errors as
 * application/problem+json, every route behind `Authorization: Bearer <admin token>`.
 */

const share = z.number().min(0).max(1);
const locale = z.object({
  Country: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166 country code such as US'),
  Subdivision: z.string().min(1).max(3).optional(),
});
const profile = z
  .object({
    locale: locale.optional(),
    adult: z.boolean().optional(),
    masters: z.boolean().optional(),
    baseline: z
      .object({ submitted: z.number().int().min(0).optional(), approved: z.number().int().min(0).optional() })
      .strict()
      .optional(),
    approvedHits: z.number().int().min(0).optional(),
    approvalRate: z.number().int('a whole percent').min(0).max(100).optional(),
  })
  .strict();
const password = z.string().min(8, 'at least 8 characters').max(200);

export const adminSchemas = {
  newWorker: z
    .object({
      displayName: z.string().trim().min(1).max(64),
      password: password.optional(),
      workerId: z
        .string()
        .regex(/^A[A-Z0-9]{1,63}$/, 'an MTurk worker id: A followed by capital letters and digits')
        .optional(),
      profile: profile.optional(),
    })
    .strict(),
  profile,
  /** PATCH /workers/:worker: the profile's fields, and a new password. */
  workerUpdate: profile.extend({ password: password.optional() }).strict(),
  deposit: z
    .object({
      amount: z.string().refine((v) => (centsOf(v) ?? 0) > 0, 'a positive USD amount with at most 2 decimals, such as "250.00"'),
      reference: z.string().trim().min(1).max(64).optional(),
    })
    .strict(),
  chaos: z
    .object({
      throttleRate: z.number().min(0).optional(),
      throttleBurst: z.number().min(0).optional(),
      throttleShare: share.optional(),
      faultShare: share.optional(),
      slowShare: share.optional(),
      slowMs: z.number().int().min(0).max(120_000).optional(),
    })
    .strict(),
  retakePolicy: z
    .object({
      retakes: z.number().int().min(0).max(MAX_RETAKES),
      delaySeconds: z
        .number()
        .int()
        .min(0)
        .max(365 * 86_400),
    })
    .strict(),
  clock: z.object({ speed: z.number().positive().max(1_000_000).optional(), advanceSeconds: z.number().min(0).optional() }).strict(),
};

const NOT_FOUND = new Set(['WorkerDoesNotExist', 'QualificationTypeDoesNotExist']);

function problem(res: Response, status: number, title: string, detail: string, extra: Record<string, unknown> = {}): void {
  res
    .status(status)
    .type('application/problem+json')
    .send(JSON.stringify({ type: 'about:blank', title, status, detail, ...extra }));
}

export interface AdminDeps {
  marketplace: Marketplace;
  workers: WorkerApi;
  chaos: ChaosControl;
  loops: BackgroundLoops;
  token: string;
}

export function adminRouter(deps: AdminDeps): Router {
  const { marketplace: mp, workers, chaos, loops } = deps;
  const router = express.Router();
  router.use((req, res, next) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    if (!m) {
      res.set('WWW-Authenticate', 'Bearer realm="qrelay-marketplace-admin"');
      return problem(res, 401, 'Unauthorized', 'send Authorization: Bearer <admin token> (qrelay marketplace admin-token prints it)');
    }
    if (!sameToken(m[1]!, deps.token)) return problem(res, 403, 'Forbidden', 'this is not the admin token of this marketplace key pair');
    next();
  });
  // a requester's records (records/): large bodies here only
  router.use('/records', express.json({ limit: '64mb' }));
  router.use(express.json({ limit: '100kb' }));

  const status = () => ({
    now: mp.clock.now().toISOString(),
    clockSpeed: mp.clock.speed,
    availableBalance: usd(mp.ledger.balanceCents()),
    hits: mp.hits.size,
    // messages in the outbox, and HITs whose events the next background tick hands to it
    pendingNotifications: mp.outbox.pendingCount + mp.hits.withPendingEvents().length,
    chaos: chaos.current,
  });

  router.get('/status', (_req, res) => void res.json(status()));
  router.get('/workers', async (_req, res) => void res.json({ workers: await workers.listWorkers() }));
  router.post('/workers', async (req, res) => {
    const body = adminSchemas.newWorker.parse(req.body);
    res.status(201).json(await workers.createWorker(body));
  });
  // a worker by id or display name (any case)
  router.patch('/workers/:worker', async (req, res) => {
    const { password: newPassword, ...profileInput } = adminSchemas.workerUpdate.parse(req.body);
    const given = String(req.params.worker);
    const worker = await workers.findWorker(given);
    if (!worker) throw new DomainError('WorkerDoesNotExist', `There is no worker with the id or name "${given.slice(0, 64)}".`);
    const updated = await workers.updateProfile(worker.workerId, profileInput); // checked before anything is written
    if (newPassword !== undefined) await workers.setPassword(worker.workerId, newPassword);
    res.json({ ...updated, hasPassword: updated.hasPassword || newPassword !== undefined });
  });
  // a qualification test's retake policy (domain/retakes.ts): GET shows it (the default when none was set), PUT sets it
  const retakes = (typeId: string) => {
    const type = requireQualificationType(mp, typeId);
    if (!type.hasTest)
      throw new DomainError(
        'ValidationException',
        `QualificationType ${typeId} has no test: its requests follow RetryDelayInSeconds alone`,
      );
    return type;
  };
  router.get('/qualification-types/:typeId/retake-policy', (req, res) => {
    const type = retakes(String(req.params.typeId));
    res.json({ qualificationTypeId: type.id, retakePolicy: retakePolicyOf(type), default: type.retakePolicy === undefined });
  });
  router.put('/qualification-types/:typeId/retake-policy', async (req, res) => {
    const policy = checkRetakePolicy(adminSchemas.retakePolicy.parse(req.body));
    const type = retakes(String(req.params.typeId));
    await mp.types.saveQualificationType({ ...type, retakePolicy: policy });
    res.json({ qualificationTypeId: type.id, retakePolicy: policy, default: false });
  });
  router.post('/deposits', async (req, res) => {
    const body = adminSchemas.deposit.parse(req.body);
    const result = await deposit(mp, centsOf(body.amount)!, body.reference);
    res.status(result.duplicate ? 200 : 201).json({ availableBalance: usd(result.balanceCents), duplicate: result.duplicate });
  });
  router.get('/ledger/audit', async (_req, res) => {
    const a = await mp.ledger.audit();
    res.json({ ...a, consistent: a.storedBalanceCents === a.workingBalanceCents });
  });
  router.get('/records', async (_req, res) => {
    // the records are read from the database: changes written in the background first
    await mp.flush();
    res.json(await exportRecordsFrom(mp.models));
  });
  router.post('/records', async (req, res) => void res.json(await importRequesterRecords(mp, parseRecords(req.body))));
  router.get('/chaos', (_req, res) => void res.json(chaos.current));
  router.put('/chaos', (req, res) => void res.json(chaos.set(adminSchemas.chaos.parse(req.body))));
  router.get('/clock', (_req, res) => void res.json({ now: mp.clock.now().toISOString(), speed: mp.clock.speed }));
  router.put('/clock', async (req, res) => {
    const body = adminSchemas.clock.parse(req.body);
    if (body.speed !== undefined) mp.clock.setSpeed(body.speed);
    if (body.advanceSeconds !== undefined) mp.clock.advance(body.advanceSeconds * 1000);
    res.json({ now: mp.clock.now().toISOString(), speed: mp.clock.speed });
  });
  router.post('/tick', async (_req, res) => void res.json(await loops.tick()));

  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof ZodError) {
      return problem(res, 400, 'Bad Request', 'the request body does not match its schema', {
        errors: err.issues.map((i) => ({ path: ['body', ...i.path.map(String)].join('.'), message: i.message })),
      });
    }
    if (err instanceof DomainError) return problem(res, NOT_FOUND.has(err.code) ? 404 : 409, err.code, err.message);
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return problem(res, status, 'Bad Request', (err as Error).message);
    mp.logger.error({ err }, 'marketplace admin request failed');
    problem(res, 500, 'Internal Server Error', 'an unexpected error occurred; the marketplace log has the details');
  });
  return router;
}
