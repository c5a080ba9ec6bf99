import { createHash } from 'node:crypto';
import { DomainError } from './errors.js';

/**
 * Opaque pagination tokens: keyset pagination ("items after this key"), so pages stay
 * stable when items are inserted. A token is bound to its operation and to the request's
 * other parameters; using it elsewhere is a client error.
 */

export const DEFAULT_PAGE_SIZE = 10;

export function scopeOf(params: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k] ?? null]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 12);
}

export function encodePageToken(op: string, scope: string, after: string): string {
  return Buffer.from(JSON.stringify([op, scope, after])).toString('base64url');
}

export function decodePageToken(token: string, op: string, scope: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed.some((p) => typeof p !== 'string')) {
    throw new DomainError(
      'ValidationException',
      'NextToken: not a pagination token from this service; pass the NextToken of the previous page as it was returned',
    );
  }
  const [tokenOp, tokenScope, after] = parsed as [string, string, string];
  if (tokenOp !== op || tokenScope !== scope) {
    throw new DomainError(
      'ValidationException',
      `NextToken: this token belongs to another ${tokenOp === op ? 'request (its other parameters differ)' : `operation (${tokenOp})`}`,
    );
  }
  return after;
}

export interface Page<T> {
  items: T[];
  /** The key to continue after, when more items follow. */
  nextAfter?: string;
}

/** One page of `sorted` (ascending by `keyOf`) after `after`. */
export function pageAfter<T>(sorted: readonly T[], keyOf: (item: T) => string, after: string | undefined, size: number): Page<T> {
  let start = 0;
  if (after !== undefined) {
    // binary search for the first key > after
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keyOf(sorted[mid]!) <= after) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const items = sorted.slice(start, start + size);
  const more = start + size < sorted.length;
  return { items, ...(more && items.length > 0 ? { nextAfter: keyOf(items[items.length - 1]!) } : {}) };
}
