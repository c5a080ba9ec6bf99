import { createHmac } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { PIPELINE_JOBS, type ReconcileJobData } from '../../jobs/pipeline.js';
import { pipelineModels } from '../../db/models/index.js';
import { HttpProblem } from '../../errors.js';
import type { AppContext } from '../context.js';
import { problemResponse, registry } from '../openapi.js';
import { NotificationBody } from './pipeline-schemas.js';

/**
 * MTurk event notifications (the JSON an SQS message from MTurk carries:
 * `{EventDocId, Events: [{EventType, HITId, AssignmentId, ...}]}`), POSTed by a platform
 * configured to send them. A notification only makes us look sooner: it queues a
 * collection round for the HITs it names, which reads everything from the platform
 * itself, so nothing in the body is trusted. A platform cannot send our bearer token, so
 * the route's path carries a key derived from it instead:
 * `/api/v1/notifications/<notificationKey(QRELAY_API_TOKEN)>` is the Destination to configure.
 */

export function notificationKey(apiToken: string): string {
  return createHmac('sha256', apiToken).update('qrelay-notifications').digest('hex').slice(0, 40);
}

registry.registerPath({
  method: 'post',
  path: '/api/v1/notifications/{key}',
  summary: 'Receive MTurk event notifications (queues a collection round for the HITs named)',
  description: 'The key is derived from QRELAY_API_TOKEN (see README); no bearer token, since a platform cannot send one.',
  request: {
    params: z.object({ key: z.string().openapi({ param: { name: 'key', in: 'path' } }) }),
    body: { content: { 'application/json': { schema: NotificationBody } } },
  },
  responses: {
    202: {
      description: 'accepted',
      content: { 'application/json': { schema: z.object({ batches: z.array(z.string()), hits: z.number().int() }) } },
    },
    400: problemResponse('not an MTurk notification'),
    404: problemResponse('wrong key'),
    503: problemResponse('this process runs no job scheduler'),
  },
});

export function notificationsRouter(ctx: AppContext): Router {
  const router = Router();
  const key = notificationKey(ctx.apiToken);
  const models = () => pipelineModels(ctx.connection);
  router.post('/notifications/:key', async (req, res) => {
    // a wrong key looks like any unknown path
    if (req.params.key !== key) throw new HttpProblem(404, 'Not Found', `no route for POST ${req.path}`);
    const parsed = NotificationBody.safeParse(req.body);
    if (!parsed.success)
      throw new HttpProblem(400, 'Bad Request', 'expected an MTurk notification: {"Events": [{"EventType": ..., "HITId": ...}]}');
    if (!ctx.agenda) throw new HttpProblem(503, 'Service Unavailable', 'this process runs no job scheduler');
    const hitIds = [...new Set(parsed.data.Events.flatMap((e) => (e.HITId ? [e.HITId] : [])))];
    const byBatch = new Map<string, string[]>();
    for (const hitId of hitIds) {
      const known = await models().hitIds.findById(hitId).lean();
      if (known) byBatch.set(known.batch, [...(byBatch.get(known.batch) ?? []), hitId]);
    }
    for (const [batch, ids] of byBatch) await ctx.agenda.now<ReconcileJobData>(PIPELINE_JOBS.reconcile, { batch, hitIds: ids });
    res.status(202).json({ batches: [...byBatch.keys()], hits: hitIds.length });
  });
  return router;
}
