import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The console's login (pure apart from the random nonce): a person proves once that they
 * hold the API token; the server then sets a signed session cookie, `<issued ms>.<nonce>.<HMAC>`
 * under a key derived from the API token, so it cannot be forged, and changing the token
 * ends every session. The server also records each session (session-store.ts), so that
 * logging out ends it for every copy of the cookie. Every form
 * carries a CSRF token derived from the session's nonce (a page of another site cannot
 * read it), and the cookie is SameSite=Strict and HttpOnly besides.
 */

export const SESSION_COOKIE = 'qrelay_console';
/** A session lasts a working day. */
export const SESSION_TTL_MS = 12 * 3600 * 1000;

const b64url = (buf: Buffer) => buf.toString('base64url');

function keyOf(apiToken: string): Buffer {
  return createHmac('sha256', apiToken).update('qrelay-console-session-v1').digest();
}

function mac(key: Buffer, text: string): string {
  return b64url(createHmac('sha256', key).update(text).digest());
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface Session {
  issuedMs: number;
  nonce: string;
}

export function newSession(nowMs: number, nonce: string = b64url(randomBytes(18))): Session {
  return { issuedMs: nowMs, nonce };
}

export function sessionCookieValue(apiToken: string, s: Session): string {
  const body = `${s.issuedMs}.${s.nonce}`;
  return `${body}.${mac(keyOf(apiToken), `session|${body}`)}`;
}

/** The session a cookie value proves, or null (forged, malformed, expired, or from another token). */
export function verifySessionCookie(apiToken: string, value: string | undefined, nowMs: number): Session | null {
  if (!value) return null;
  const m = /^(\d{1,15})\.([A-Za-z0-9_-]{8,64})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return null;
  const [, issued, nonce, sig] = m as unknown as [string, string, string, string];
  if (!same(sig, mac(keyOf(apiToken), `session|${issued}.${nonce}`))) return null;
  const issuedMs = Number(issued);
  if (nowMs - issuedMs > SESSION_TTL_MS || issuedMs - nowMs > 60_000) return null;
  return { issuedMs, nonce };
}

export function csrfToken(apiToken: string, s: Session): string {
  return mac(keyOf(apiToken), `csrf|${s.nonce}`);
}

export function checkCsrf(apiToken: string, s: Session, token: unknown): boolean {
  return typeof token === 'string' && same(token, csrfToken(apiToken, s));
}

/** Whether a login attempt carries the API token (compared in constant time). */
export function tokenMatches(apiToken: string, given: unknown): boolean {
  return typeof given === 'string' && same(given.trim(), apiToken);
}

/** The value of one cookie from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

export function setCookieHeader(value: string, opts: { secure: boolean; maxAgeSeconds: number }): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${opts.maxAgeSeconds}${opts.secure ? '; Secure' : ''}`;
}
