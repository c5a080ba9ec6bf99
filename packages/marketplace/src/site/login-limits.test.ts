import { describe, expect, it } from 'vitest';
import { LoginLimiter } from './login-limits.js';

const settings = { limit: 3, windowMs: 60_000, maxKeys: 100 };

describe('login limits', () => {
  it('refuses an account after `limit` failures in the window, until the oldest leaves it', () => {
    const l = new LoginLimiter(settings);
    for (let i = 0; i < 3; i++) {
      expect(l.check('Ada', '10.0.0.1', i * 1000)).toEqual({ ok: true });
      l.failed('Ada', `10.0.0.${i + 1}`, i * 1000);
    }
    expect(l.check('ada ', '10.0.0.9', 3000)).toEqual({ ok: false, by: 'account', retryAfterSeconds: 57 });
    expect(l.check('Bob', '10.0.0.9', 3000)).toEqual({ ok: true });
    expect(l.check('Ada', '10.0.0.9', 60_000)).toEqual({ ok: true });
  });

  it('refuses an address trying many accounts, and a success clears only the account', () => {
    const l = new LoginLimiter(settings);
    for (const name of ['a', 'b', 'c']) l.failed(name, '10.0.0.1', 0);
    expect(l.check('d', '10.0.0.1', 500)).toEqual({ ok: false, by: 'address', retryAfterSeconds: 60 });
    expect(l.check('d', '10.0.0.2', 500)).toEqual({ ok: true });
    l.failed('e', '10.0.0.2', 0);
    l.failed('e', '10.0.0.3', 0);
    l.succeeded('e');
    l.failed('e', '10.0.0.4', 0);
    expect(l.check('e', '10.0.0.5', 0)).toEqual({ ok: true });
    expect(l.check('x', '10.0.0.1', 0)).toMatchObject({ ok: false, by: 'address' });
  });

  it('keeps at most maxKeys keys', () => {
    const l = new LoginLimiter({ ...settings, maxKeys: 4 });
    for (let i = 0; i < 10; i++) l.failed(`w${i}`, `10.0.0.${i}`, 0);
    expect((l as unknown as { failures: Map<string, number[]> }).failures.size).toBe(4);
  });
});
