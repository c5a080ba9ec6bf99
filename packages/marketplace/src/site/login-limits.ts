/**
 * Login attempt limits of the worker site (pure): at most `limit` failed attempts per
 * account name and per client address in a sliding window (default 10 a minute); past
 * that, attempts are refused before the password is even checked (scrypt is costly, and
 * guessing must not be), with the seconds until the oldest counted failure leaves the
 * window. A successful login clears its account's failures, never its address's (one
 * address may try many accounts). Real time: the marketplace clock may run a day a minute.
 * Memory stays bounded: each key keeps at most `limit` times, and at most `maxKeys` keys
 * (the least recently failed go first).
 */

export interface LoginLimitSettings {
  limit: number;
  windowMs: number;
  maxKeys: number;
}

export const LOGIN_LIMITS: LoginLimitSettings = { limit: 10, windowMs: 60_000, maxKeys: 50_000 };

export type LoginCheck = { ok: true } | { ok: false; retryAfterSeconds: number; by: 'account' | 'address' };

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly settings: LoginLimitSettings = LOGIN_LIMITS) {}

  static accountKey(name: string): string {
    return `account:${name.trim().toLowerCase()}`;
  }

  static addressKey(address: string): string {
    return `address:${address}`;
  }

  private recent(key: string, nowMs: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((t) => nowMs - t < this.settings.windowMs);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }

  /** May this attempt go ahead? */
  check(account: string, address: string, nowMs: number): LoginCheck {
    for (const [by, key] of [
      ['account', LoginLimiter.accountKey(account)],
      ['address', LoginLimiter.addressKey(address)],
    ] as const) {
      const times = this.recent(key, nowMs);
      if (times.length >= this.settings.limit) {
        const oldest = times[times.length - this.settings.limit]!;
        return { ok: false, by, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.settings.windowMs - nowMs) / 1000)) };
      }
    }
    return { ok: true };
  }

  failed(account: string, address: string, nowMs: number): void {
    for (const key of [LoginLimiter.accountKey(account), LoginLimiter.addressKey(address)]) {
      const times = [...this.recent(key, nowMs), nowMs].slice(-this.settings.limit);
      this.failures.delete(key); // re-inserted last: the Map's order is the order of the last failure
      this.failures.set(key, times);
    }
    while (this.failures.size > this.settings.maxKeys) this.failures.delete(this.failures.keys().next().value!);
  }

  succeeded(account: string): void {
    this.failures.delete(LoginLimiter.accountKey(account));
  }
}
