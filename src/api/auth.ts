import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { pathPattern } from './method-not-allowed.js';
import { bearerAuth, registry } from './openapi.js';
import { sendProblem } from './problem.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The reads that need the token: every GET route whose registration in the OpenAPI
 * document carries the bearer security requirement (those that return worker ids and
 * their records: personal data). The document is the one list, so what it says and what
 * the server does cannot drift apart.
 */
function securedReads(): RegExp[] {
  const out: RegExp[] = [];
  for (const d of registry.definitions) {
    if (d.type !== 'route' || d.route.method !== 'get') continue;
    if ((d.route.security ?? []).some((s) => bearerAuth.name in s)) out.push(pathPattern(d.route.path));
  }
  return out;
}

/**
 * Requests that change state, and reads of worker data, must carry
 * `Authorization: Bearer <QRELAY_API_TOKEN>`; other reads are open. `readToken`
 * (QRELAY_API_READ_TOKEN), when set, is taken for the reads and refused for the rest.
 */
export function requireToken(token: string, readToken?: string): RequestHandler {
  let reads: RegExp[] | undefined;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) {
      const path = `${req.baseUrl}${req.path}`;
      if (req.method === 'OPTIONS' || !(reads ??= securedReads()).some((p) => p.test(path))) return next();
    }
    const header = req.get('authorization') ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (!m) {
      res.set('WWW-Authenticate', 'Bearer realm="qrelay"');
      const why = SAFE_METHODS.has(req.method) ? 'this route returns worker data' : 'this route changes state';
      return sendProblem(res, 401, 'Unauthorized', `${why}: send Authorization: Bearer <QRELAY_API_TOKEN>`);
    }
    const given = m[1]!.trim();
    if (sameSecret(given, token)) return next();
    if (readToken !== undefined && sameSecret(given, readToken)) {
      if (SAFE_METHODS.has(req.method)) return next();
      return sendProblem(res, 403, 'Forbidden', 'the read-only token (QRELAY_API_READ_TOKEN) cannot change state: send QRELAY_API_TOKEN');
    }
    return sendProblem(res, 403, 'Forbidden', 'the bearer token is not the configured QRELAY_API_TOKEN');
  };
}
