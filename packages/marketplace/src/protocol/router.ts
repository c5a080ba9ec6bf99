import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import { TARGET_PREFIX, model } from '../model/model.js';
import { serializeOutput } from '../model/serialize.js';
import { parseInput } from '../model/validate.js';
import { operations } from '../ops/index.js';
import type { ChaosControl } from './chaos-control.js';
import { errorBody, fromDomainError, requestError, serviceFault, throttled, WireError } from './errors.js';
import type { OwnHosts } from './own-hosts.js';
import { verifySignature } from './sigv4.js';
import { questionEncodings, wireJson, type QuestionEncodings } from './wire-json.js';

/**
 * The MTurk Requester API on `POST /`: JSON 1.1, `X-Amz-Target:
 * MTurkRequesterServiceV20170117.<Operation>`, SigV4-signed with the marketplace's key
 * pair. A request that fails authentication, is throttled or hits an injected fault
 * changes nothing. Every response carries `x-amzn-RequestId`.
 */

const CONTENT_TYPE = 'application/x-amz-json-1.1';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function send(res: Response, status: number, body: unknown, kept: QuestionEncodings): void {
  res.status(status).type(CONTENT_TYPE).send(wireJson(body, kept));
}

function sendError(res: Response, err: WireError, kept: QuestionEncodings): void {
  send(res, err.status, errorBody(err, Date.now()), kept);
}

// the signature covers the path as the client sent it, whatever prefix this router is mounted under
const pathOf = (url: string) => url.split('?')[0] || '/';
const queryOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');

export function requesterApiRouter(mp: Marketplace, chaos: ChaosControl, ownHosts?: OwnHosts): Router {
  const router = express.Router();
  // this marketplace's HITs' Questions, encoded (wire-json.ts)
  const kept = questionEncodings();
  router.post('/', express.raw({ type: () => true, limit: '2mb' }), async (req: Request, res: Response) => {
    const started = Date.now();
    const requestId = randomUUID();
    res.set('x-amzn-RequestId', requestId);
    const target = req.get('x-amz-target') ?? '';
    const operation = target.startsWith(`${TARGET_PREFIX}.`) ? target.slice(TARGET_PREFIX.length + 1) : '';
    let status = 200;
    try {
      if (!operation || !model.operations[operation]) {
        throw new WireError(
          400,
          'UnknownOperationException',
          target ? `Unknown operation ${target}` : `Missing X-Amz-Target header (expected ${TARGET_PREFIX}.<Operation>)`,
        );
      }
      const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const auth = verifySignature(
        { method: req.method, path: pathOf(req.originalUrl), query: queryOf(req.originalUrl), headers: req.headers, body },
        { accessKeyId: mp.settings.accessKeyId, secretAccessKey: mp.settings.secretAccessKey },
        {
          nowMs: Date.now(),
          maxSkewMs: mp.settings.maxClockSkewMs,
          region: mp.settings.region,
          ...(ownHosts ? { ownHost: (host: string | undefined) => ownHosts.accepts(host) } : {}),
        },
      );
      if (!auth.ok) throw new WireError(400, auth.type, auth.message);
      const decision = chaos.decide();
      if (decision.kind === 'throttle') throw throttled();
      if (decision.kind === 'fault')
        throw serviceFault('An internal error occurred (fault injected by the marketplace operator); retry the request.');
      if (decision.kind === 'slow') await sleep(decision.ms);
      let json: unknown;
      try {
        json = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
      } catch {
        throw new WireError(400, 'SerializationException', 'The request body is not valid JSON.');
      }
      const parsed = parseInput(operation, json);
      if (!parsed.ok) {
        const shown = parsed.issues.slice(0, 10).map((i) => `${i.path}: ${i.message}`);
        const more = parsed.issues.length > 10 ? `; and ${parsed.issues.length - 10} more` : '';
        throw requestError('ValidationException', `${shown.join('; ')}${more}`);
      }
      const output = await operations[operation]!(mp, parsed.value);
      send(res, 200, serializeOutput(operation, output), kept);
    } catch (err) {
      const wire =
        err instanceof WireError
          ? err
          : err instanceof DomainError
            ? fromDomainError(err)
            : serviceFault('An internal error occurred; the marketplace log has the details.');
      if (!(err instanceof WireError) && !(err instanceof DomainError))
        mp.logger.error({ err, operation, requestId }, 'marketplace operation failed');
      status = wire.status;
      sendError(res, wire, kept);
    } finally {
      mp.logger.debug({ operation, status, requestId, ms: Date.now() - started }, 'marketplace request');
    }
  });
  return router;
}
