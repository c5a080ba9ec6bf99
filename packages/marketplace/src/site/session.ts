import { randomBytes } from 'node:crypto';
import type { SiteKeys } from './keys.js';

/**
 * Worker sessions in a signed cookie (no server-side store: the marketplace restarts
 * without logging anyone out). Every visitor gets one, logged in or not, so the login
 * form has a CSRF token too; logging in or out starts a new session id. Times are real
 * time, not the marketplace clock (which may run a day per minute).
 */

export const SESSION_COOKIE = 'qrelay_worker_session';
export const SESSION_TTL_MS = 12 * 3600_000;

export interface Session {
  sid: string;
  workerId?: string;
  expiresMs: number;
}

export function newSession(nowMs: number, workerId?: string): Session {
  return { sid: randomBytes(18).toString('base64url'), ...(workerId !== undefined ? { workerId } : {}), expiresMs: nowMs + SESSION_TTL_MS };
}

export function encodeSession(keys: SiteKeys, s: Session): string {
  const payload = Buffer.from(JSON.stringify({ s: s.sid, w: s.workerId, e: s.expiresMs })).toString('base64url');
  return `${payload}.${keys.mac('session', payload)}`;
}

export function decodeSession(keys: SiteKeys, value: string | undefined, nowMs: number): Session | undefined {
  if (!value) return undefined;
  const dot = value.indexOf('.');
  if (dot <= 0) return undefined;
  const payload = value.slice(0, dot);
  if (!keys.check(value.slice(dot + 1), 'session', payload)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const { s, w, e } = (raw ?? {}) as { s?: unknown; w?: unknown; e?: unknown };
  if (typeof s !== 'string' || typeof e !== 'number' || e <= nowMs) return undefined;
  return { sid: s, ...(typeof w === 'string' ? { workerId: w } : {}), expiresMs: e };
}

/** The CSRF token of a session: every form of the site carries it, every POST checks it. */
export const csrfToken = (keys: SiteKeys, s: Session): string => keys.mac('csrf', s.sid);

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of (header ?? '').split(';')) {
    const part = raw.trim();
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!out.has(name)) out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}
