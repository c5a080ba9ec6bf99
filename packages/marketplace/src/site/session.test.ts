import { describe, expect, it } from 'vitest';
import { checkWorkToken, previewToken, readPreviewToken, readWorkToken, withParams, workToken } from './capabilities.js';
import { SiteKeys } from './keys.js';
import { csrfToken, decodeSession, encodeSession, newSession, parseCookies, SESSION_TTL_MS } from './session.js';

const keys = new SiteKeys('AKID', 'secret');
const other = new SiteKeys('AKID', 'another secret');

describe('worker sessions', () => {
  it('round-trip through a signed cookie value, and nothing else decodes', () => {
    const s = newSession(1000, 'AWORKER1');
    expect(s.expiresMs).toBe(1000 + SESSION_TTL_MS);
    const value = encodeSession(keys, s);
    expect(decodeSession(keys, value, 2000)).toEqual(s);
    expect(decodeSession(other, value, 2000)).toBeUndefined();
    expect(decodeSession(keys, value, s.expiresMs)).toBeUndefined();
    const [payload, mac] = value.split('.');
    const forged = Buffer.from(JSON.stringify({ s: s.sid, w: 'AOTHER', e: s.expiresMs })).toString('base64url');
    expect(decodeSession(keys, `${forged}.${mac}`, 2000)).toBeUndefined();
    expect(decodeSession(keys, `${payload}`, 2000)).toBeUndefined();
    expect(decodeSession(keys, undefined, 2000)).toBeUndefined();
    expect(
      decodeSession(
        keys,
        `${Buffer.from('not json').toString('base64url')}.${keys.mac('session', Buffer.from('not json').toString('base64url'))}`,
        2000,
      ),
    ).toBeUndefined();
  });

  it('give each session its own CSRF token, which is not the session MAC', () => {
    const a = newSession(0);
    const b = newSession(0);
    expect(csrfToken(keys, a)).not.toBe(csrfToken(keys, b));
    expect(csrfToken(keys, a)).toBe(csrfToken(keys, a));
    expect(encodeSession(keys, a)).not.toContain(csrfToken(keys, a));
  });

  it('read cookies, first one of a name winning', () => {
    expect([...parseCookies('a=1; b=x=y;a=2; junk; =v')]).toEqual([
      ['a', '1'],
      ['b', 'x=y'],
    ]);
    expect(parseCookies(undefined).size).toBe(0);
  });
});

describe('frame capabilities', () => {
  it('open one assignment for its own worker only', () => {
    const token = workToken(keys, 'HIT000001', 'AALICE');
    const read = readWorkToken(token)!;
    expect(read.assignmentId).toBe('HIT000001');
    expect(checkWorkToken(keys, read.mac, 'HIT000001', 'AALICE')).toBe(true);
    expect(checkWorkToken(keys, read.mac, 'HIT000001', 'ABOB')).toBe(false);
    expect(checkWorkToken(keys, read.mac, 'HIT000002', 'AALICE')).toBe(false);
    expect(checkWorkToken(other, read.mac, 'HIT000001', 'AALICE')).toBe(false);
    // a MAC made for previews never opens work
    expect(checkWorkToken(keys, keys.mac('preview', 'HIT000001', 'AALICE'), 'HIT000001', 'AALICE')).toBe(false);
    for (const bad of ['HIT000001', 'hit.abc', `HIT000001.${'a'.repeat(31)}`, `../x.${'a'.repeat(32)}`])
      expect(readWorkToken(bad)).toBeUndefined();
  });

  it('preview one HIT as one worker', () => {
    const token = previewToken(keys, 'HITA', 'AALICE');
    expect(readPreviewToken(keys, 'HITA', token)).toBe('AALICE');
    expect(readPreviewToken(keys, 'HITB', token)).toBeUndefined();
    expect(readPreviewToken(keys, 'HITA', token.replace('AALICE', 'ABOB'))).toBeUndefined();
  });

  it('append MTurk parameters to an address, keeping its own', () => {
    expect(withParams('https://lab.example/task?study=7#top', { assignmentId: 'A1', hitId: 'H1' })).toBe(
      'https://lab.example/task?study=7&assignmentId=A1&hitId=H1#top',
    );
    expect(withParams('https://lab.example/task?assignmentId=old', { assignmentId: 'A&B' })).toBe(
      'https://lab.example/task?assignmentId=A%26B',
    );
  });
});
