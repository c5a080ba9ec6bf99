import type { Marketplace } from '../core.js';
import { DEFAULT_PAGE_SIZE, decodePageToken, encodePageToken, pageAfter, scopeOf } from '../domain/pagination.js';
import { DomainError } from '../domain/errors.js';

/** An operation: validated input (model shapes, timestamps as Dates) in, output (model shapes) out. */
export type Operation = (mp: Marketplace, input: Record<string, unknown>) => Promise<object>;

/** Narrows validated input to the SDK's request type (the model validator has checked it). */
export function as<T>(input: Record<string, unknown>): T {
  return input as T;
}

export interface Paged<T> {
  items: T[];
  NextToken?: string;
  NumResults: number;
}

/** Keyset pagination of a sorted list, with tokens bound to `op` and the request's filters. */
export function paginate<T>(
  op: string,
  filters: Record<string, unknown>,
  sorted: readonly T[],
  keyOf: (item: T) => string,
  input: { NextToken?: string; MaxResults?: number },
): Paged<T> {
  const scope = scopeOf(filters);
  const after = input.NextToken !== undefined ? decodePageToken(input.NextToken, op, scope) : undefined;
  const page = pageAfter(sorted, keyOf, after, input.MaxResults ?? DEFAULT_PAGE_SIZE);
  return {
    items: page.items,
    ...(page.nextAfter !== undefined ? { NextToken: encodePageToken(op, scope, page.nextAfter) } : {}),
    NumResults: page.items.length,
  };
}

export function invalid(path: string, message: string): DomainError {
  return new DomainError('ValidationException', `${path}: ${message}`);
}

/** MTurk's rule for feedback and reasons: at most 1024 characters, no ASCII control characters but tab and newlines. */
export function checkFeedback(value: string | undefined, path: string): void {
  if (value === undefined) return;
  if (value.length > 1024) throw invalid(path, `must be at most 1024 characters (got ${value.length})`);
  // eslint-disable-next-line no-control-regex -- the control characters are what is being refused
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(value))
    throw invalid(path, 'must not contain ASCII control characters (0-8, 11, 12, 14-31)');
}
