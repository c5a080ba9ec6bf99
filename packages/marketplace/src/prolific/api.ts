import { timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { FILTER_CATALOGUE, serviceFee } from './domain.js';
import { badRequest, ProlificError } from './errors.js';
import {
  bonusSchema,
  bulkApproveSchema,
  bulkMessageSchema,
  createGroupSchema,
  createStudySchema,
  groupMessageSchema,
  messageSchema,
  parseBody,
  participantIdsSchema,
  studyTransitionSchema,
  submissionTransitionSchema,
  updateGroupSchema,
  updateStudySchema,
} from './schemas.js';
import type { ProlificService } from './service.js';

/**
 * Prolific's researcher API (v1) under `/prolific/api/v1/`: `Authorization: Token <token>`,
 * JSON bodies, paths with or without their trailing slash, errors as
 * `{"error": {status, error_code, title, detail}}`.
 */

const costSchema = z.object({ reward: z.number().int().min(0), total_available_places: z.number().int().min(1) });
const cloneSchema = z.object({ block_previous_participants: z.boolean().optional() });
const returnSchema = z.object({ request_return_reasons: z.array(z.string().min(1)).min(1) });

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const query = (req: Request, name: string): string | undefined => {
  const v = req.query[name];
  return typeof v === 'string' ? v : undefined;
};

export function prolificApiRouter(service: ProlificService, token: string): Router {
  const r = express.Router();
  r.use((req, _res, next) => {
    const header = req.get('authorization');
    if (!header) return next(new ProlificError(401, 'Authentication credentials were not provided.'));
    const m = /^Token\s+(\S+)\s*$/i.exec(header);
    if (!m || !sameSecret(m[1]!, token)) return next(new ProlificError(401, 'Invalid token.'));
    next();
  });
  r.use(express.json({ limit: '2mb', type: () => true }));

  // ---- account
  r.get('/users/me', async (_req, res) => void res.json(await service.me()));
  r.get('/workspaces', (_req, res) => void res.json({ results: [service.workspace()] }));
  r.get('/workspaces/:ws', (req, res) => {
    service.checkWorkspace(req.params.ws);
    res.json(service.workspace());
  });
  r.get('/workspaces/:ws/balance', async (req, res) => {
    service.checkWorkspace(req.params.ws);
    res.json(await service.balance());
  });
  r.get('/workspaces/:ws/projects', (req, res) => {
    service.checkWorkspace(req.params.ws);
    res.json({ results: [service.project()] });
  });
  r.get('/projects/:project', (req, res) => {
    if (req.params.project !== service.projectId) throw new ProlificError(404, 'Project not found.');
    res.json(service.project());
  });
  r.get('/filters', (_req, res) => void res.json({ results: FILTER_CATALOGUE }));
  r.post('/study-cost-calculator', (req, res) => {
    const b = parseBody(costSchema, req.body);
    const rewards = b.reward * b.total_available_places;
    res.json({ total_cost: rewards + serviceFee(rewards) });
  });

  // ---- studies
  r.get('/studies', async (req, res) => void res.json(await service.listStudies(query(req, 'state') ?? query(req, 'status'))));
  r.get('/projects/:project/studies', async (req, res) => {
    if (req.params.project !== service.projectId) throw new ProlificError(404, 'Project not found.');
    res.json(await service.listStudies(query(req, 'state')));
  });
  r.post('/studies', async (req, res) => void res.status(201).json(await service.createStudy(parseBody(createStudySchema, req.body))));
  r.get('/studies/:id', async (req, res) => void res.json(await service.getStudy(req.params.id)));
  // PUT (in Prolific's path list) is taken as PATCH: only the fields sent change
  for (const method of ['patch', 'put'] as const)
    r[method](
      '/studies/:id',
      async (req, res) => void res.json(await service.updateStudy(req.params.id, parseBody(updateStudySchema, req.body))),
    );
  r.delete('/studies/:id', async (req, res) => {
    await service.deleteStudy(req.params.id);
    res.status(200).end();
  });
  r.post('/studies/:id/transition', async (req, res) => {
    const { action } = parseBody(studyTransitionSchema, req.body);
    res.json(await service.transitionStudy(req.params.id, action));
  });
  r.post('/studies/:id/clone', async (req, res) => {
    const b = parseBody(cloneSchema, req.body);
    res.json(await service.cloneStudy(req.params.id, b.block_previous_participants ?? true));
  });
  r.get(
    '/studies/:id/cost',
    async (req, res) => void res.json(await service.studyCost(req.params.id, query(req, 'is_projected') === 'true')),
  );
  r.get('/studies/:id/submissions', async (req, res) => void res.json(await service.listSubmissions(req.params.id)));

  // ---- submissions
  r.get('/submissions', async (req, res) => {
    const study = query(req, 'study') ?? query(req, 'study_id');
    const status = query(req, 'status');
    res.json(await service.listAllSubmissions({ ...(study ? { study } : {}), ...(status ? { status } : {}) }));
  });
  r.post('/submissions/bulk-approve', async (req, res) => void res.json(await service.bulkApprove(parseBody(bulkApproveSchema, req.body))));
  r.post('/submissions/bonus-payments', async (req, res) => {
    const b = parseBody(bonusSchema, req.body);
    res.status(201).json(await service.createBonuses(b.study_id, b.csv_bonuses));
  });
  r.get('/submissions/:id', async (req, res) => void res.json(await service.getSubmission(req.params.id)));
  r.post('/submissions/:id/transition', async (req, res) => {
    res.json(await service.transitionSubmission(req.params.id, parseBody(submissionTransitionSchema, req.body)));
  });
  r.post('/submissions/:id/request-return', async (req, res) => {
    const b = parseBody(returnSchema, req.body);
    res.json(await service.requestReturn(req.params.id, b.request_return_reasons));
  });
  r.post('/bulk-bonus-payments/:id/pay', async (req, res) => {
    const key = req.get('idempotency-key');
    res.status(202).json(await service.payBonuses(req.params.id, key));
  });

  // ---- participant groups
  r.get('/participant-groups', async (req, res) => {
    const filter = req.query.filter;
    const fromFilter =
      typeof filter === 'object' && filter !== null && !Array.isArray(filter)
        ? (filter as Record<string, unknown>).workspace_id
        : undefined;
    const ws =
      query(req, 'workspace_id') ?? (typeof fromFilter === 'string' ? fromFilter : undefined) ?? query(req, 'filter[workspace_id]');
    const active = query(req, 'active');
    res.json(await service.listGroups({ ...(ws !== undefined ? { workspace_id: ws } : {}), ...(active !== undefined ? { active } : {}) }));
  });
  r.post(
    '/participant-groups',
    async (req, res) => void res.status(201).json(await service.createGroup(parseBody(createGroupSchema, req.body))),
  );
  r.get('/participant-groups/:id', async (req, res) => void res.json(await service.getGroup(req.params.id)));
  r.patch(
    '/participant-groups/:id',
    async (req, res) => void res.json(await service.updateGroup(req.params.id, parseBody(updateGroupSchema, req.body))),
  );
  r.delete('/participant-groups/:id', async (req, res) => {
    await service.deleteGroup(req.params.id);
    res.status(204).end();
  });
  r.get('/participant-groups/:id/participants', async (req, res) => void res.json(await service.members(req.params.id)));
  r.post('/participant-groups/:id/participants', async (req, res) => {
    res.json(await service.addMembers(req.params.id, parseBody(participantIdsSchema, req.body).participant_ids));
  });
  r.delete('/participant-groups/:id/participants', async (req, res) => {
    res.json(await service.removeMembers(req.params.id, parseBody(participantIdsSchema, req.body).participant_ids));
  });

  // ---- messages
  r.post('/messages', async (req, res) => {
    const b = parseBody(messageSchema, req.body);
    await service.sendMessages([b.recipient_id], b.study_id, b.body);
    res.status(204).end();
  });
  r.post('/messages/bulk', async (req, res) => {
    const b = parseBody(bulkMessageSchema, req.body);
    await service.sendMessages(b.ids, b.study_id, b.body);
    res.status(204).end();
  });
  r.post('/messages/participant-group', async (req, res) => {
    const b = parseBody(groupMessageSchema, req.body);
    await service.messageGroup(b.participant_group_id, b.body, b.study_id);
    res.status(204).end();
  });
  r.get('/messages', async (req, res) => {
    const userId = query(req, 'user_id');
    const after = query(req, 'created_after');
    res.json(
      await service.listMessages({
        ...(userId !== undefined ? { user_id: userId } : {}),
        ...(after !== undefined ? { created_after: after } : {}),
      }),
    );
  });

  r.use((req, _res, next) => next(new ProlificError(404, `Not found: ${req.method} /api/v1${req.path}`)));
  r.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    let e: ProlificError;
    if (err instanceof ProlificError) e = err;
    else if (typeof (err as { status?: unknown }).status === 'number' && (err as { status: number }).status < 500) {
      const status = (err as { status: number }).status;
      e = status === 400 ? badRequest(`JSON parse error - ${(err as Error).message}`) : new ProlificError(status, (err as Error).message);
    } else {
      service.mp.logger.error({ err }, 'Prolific API request failed');
      e = new ProlificError(500, 'A server error occurred.');
    }
    res.status(e.status).json(e.body());
  });
  return r;
}
