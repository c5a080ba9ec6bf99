import { describe, expect, it } from 'vitest';
import {
  checkCsrf,
  csrfToken,
  newSession,
  readCookie,
  SESSION_TTL_MS,
  sessionCookieValue,
  setCookieHeader,
  tokenMatches,
  verifySessionCookie,
} from './session.js';

const TOKEN = 'a-long-api-token-for-tests';
const NOW = 1_800_000_000_000;

describe('console session cookie', () => {
  const s = newSession(NOW, 'nonce-abcdefgh');
  const cookie = sessionCookieValue(TOKEN, s);

  it('verifies its own cookie and gives back the session', () => {
    expect(verifySessionCookie(TOKEN, cookie, NOW + 1000)).toEqual(s);
  });

  it('refuses a forged, altered, expired or foreign cookie', () => {
    expect(verifySessionCookie(TOKEN, undefined, NOW)).toBeNull();
    expect(verifySessionCookie(TOKEN, 'garbage', NOW)).toBeNull();
    const [issued, nonce, sig] = cookie.split('.');
    expect(verifySessionCookie(TOKEN, `${Number(issued) + 1}.${nonce}.${sig}`, NOW)).toBeNull();
    expect(verifySessionCookie(TOKEN, `${issued}.${nonce}x.${sig}`, NOW)).toBeNull();
    expect(verifySessionCookie(TOKEN, cookie, NOW + SESSION_TTL_MS + 1)).toBeNull();
    expect(verifySessionCookie('another-token', cookie, NOW)).toBeNull();
  });

  it('derives a CSRF token per session that only that session accepts', () => {
    const token = csrfToken(TOKEN, s);
    expect(checkCsrf(TOKEN, s, token)).toBe(true);
    expect(checkCsrf(TOKEN, newSession(NOW, 'other-nonce-123'), token)).toBe(false);
    expect(checkCsrf(TOKEN, s, undefined)).toBe(false);
    expect(checkCsrf(TOKEN, s, `${token}x`)).toBe(false);
  });

  it('compares the login token exactly (surrounding blanks ignored)', () => {
    expect(tokenMatches(TOKEN, ` ${TOKEN}\n`)).toBe(true);
    expect(tokenMatches(TOKEN, TOKEN.slice(1))).toBe(false);
    expect(tokenMatches(TOKEN, 42)).toBe(false);
  });

  it('reads a cookie among others and writes a strict, http-only one', () => {
    expect(readCookie('a=1; qrelay_console=xyz; b=2', 'qrelay_console')).toBe('xyz');
    expect(readCookie(undefined, 'qrelay_console')).toBeUndefined();
    const header = setCookieHeader('v', { secure: false, maxAgeSeconds: 60 });
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).not.toContain('Secure');
  });
});
