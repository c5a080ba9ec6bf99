import { describe, expect, it } from 'vitest';
import { thrownError } from './testing.js';
import { decodePageToken, encodePageToken, pageAfter, scopeOf } from './pagination.js';

const code = thrownError;

describe('pagination', () => {
  const items = ['a', 'b', 'c', 'd', 'e'];
  it('pages by key and continues after the last key', () => {
    const p1 = pageAfter(items, (x) => x, undefined, 2);
    expect(p1).toEqual({ items: ['a', 'b'], nextAfter: 'b' });
    const p2 = pageAfter(items, (x) => x, p1.nextAfter, 2);
    expect(p2).toEqual({ items: ['c', 'd'], nextAfter: 'd' });
    expect(pageAfter(items, (x) => x, 'd', 2)).toEqual({ items: ['e'] });
    expect(pageAfter(items, (x) => x, 'e', 2)).toEqual({ items: [] });
  });
  it('is stable under inserts: new items after the cursor appear, earlier ones do not repeat', () => {
    const p1 = pageAfter(items, (x) => x, undefined, 2);
    const grown = ['a', 'aa', 'b', 'c', 'd', 'e', 'f'];
    expect(pageAfter(grown, (x) => x, p1.nextAfter, 10).items).toEqual(['c', 'd', 'e', 'f']);
  });
  it('binds tokens to their operation and parameters', () => {
    const scope = scopeOf({ HITId: 'H1' });
    const token = encodePageToken('ListAssignmentsForHIT', scope, 'K');
    expect(token.length).toBeLessThanOrEqual(255);
    expect(decodePageToken(token, 'ListAssignmentsForHIT', scope)).toBe('K');
    expect(code(() => decodePageToken(token, 'ListHITs', scope))).toMatch(
      /ValidationException: NextToken: this token belongs to another operation/,
    );
    expect(code(() => decodePageToken(token, 'ListAssignmentsForHIT', scopeOf({ HITId: 'H2' })))).toMatch(/other parameters differ/);
    expect(code(() => decodePageToken('garbage!', 'ListHITs', scope))).toMatch(/not a pagination token/);
    expect(scopeOf({ a: 1, b: undefined })).toBe(scopeOf({ b: undefined, a: 1 }));
  });
});
