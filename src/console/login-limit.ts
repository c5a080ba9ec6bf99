/**
 * How often a client may get the console's login wrong (pure: the caller passes the
 * time). Failures are counted per client address: after `freeFailures` wrong tokens the
 * address must wait, and every further failure doubles the wait (up to `maxLockMs`).
 * While it waits, every attempt from it is refused, the right token included, so guessing
 * is slowed whatever the guesses are. Only the failing address waits: a stranger guessing
 * from elsewhere cannot lock the owner out, and a success clears the address's record.
 */

export interface LoginLimitOptions {
  freeFailures: number;
  firstLockMs: number;
  maxLockMs: number;
  /** Records kept at most (the oldest are dropped first), so a flood of addresses cannot fill memory. */
  maxClients: number;
}

export const DEFAULT_LOGIN_LIMIT: LoginLimitOptions = { freeFailures: 5, firstLockMs: 30_000, maxLockMs: 15 * 60_000, maxClients: 10_000 };

interface Record {
  failures: number;
  lockedUntilMs: number;
  lastMs: number;
}

export class LoginLimiter {
  private readonly clients = new Map<string, Record>();

  constructor(private readonly opts: LoginLimitOptions = DEFAULT_LOGIN_LIMIT) {}

  /** Milliseconds the client must still wait before it may try (0: it may try now). */
  waitMs(client: string, nowMs: number): number {
    const r = this.clients.get(client);
    return r ? Math.max(0, r.lockedUntilMs - nowMs) : 0;
  }

  failed(client: string, nowMs: number): void {
    const r = this.clients.get(client) ?? { failures: 0, lockedUntilMs: 0, lastMs: nowMs };
    // a client quiet for longer than the longest wait starts afresh
    if (nowMs - r.lastMs > this.opts.maxLockMs) r.failures = 0;
    r.failures++;
    r.lastMs = nowMs;
    const over = r.failures - this.opts.freeFailures;
    if (over > 0) r.lockedUntilMs = nowMs + Math.min(this.opts.maxLockMs, this.opts.firstLockMs * 2 ** (over - 1));
    this.clients.delete(client);
    this.clients.set(client, r);
    while (this.clients.size > this.opts.maxClients) this.clients.delete(this.clients.keys().next().value as string);
  }

  succeeded(client: string): void {
    this.clients.delete(client);
  }
}
