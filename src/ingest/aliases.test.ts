import { describe, expect, it } from 'vitest';
import { aliasesOf, resolveAliases } from './aliases.js';

describe('resolveAliases', () => {
  it('moves an alias to the canonical name and remembers the spelling', () => {
    const { value, renamed, issues } = resolveAliases({ q_id: 3, doc_id: 'd1', question: 'Q', text: 'T' }, [
      'query_id',
      'chunk_id',
      'query',
      'chunk',
    ]);
    expect(value).toEqual({ query_id: 3, chunk_id: 'd1', query: 'Q', chunk: 'T' });
    expect(Object.fromEntries(renamed)).toEqual({ query_id: 'q_id', chunk_id: 'doc_id', query: 'question', chunk: 'text' });
    expect(issues).toEqual([]);
  });

  it('leaves a canonical record untouched (same object)', () => {
    const record = { query_id: 'q', chunk_id: 'd' };
    expect(resolveAliases(record, ['query_id', 'chunk_id']).value).toBe(record);
  });

  it('accepts two names of one field holding the same value', () => {
    const { value, issues } = resolveAliases({ query_id: 'q1', q_id: 'q1' }, ['query_id']);
    expect(value).toEqual({ query_id: 'q1' });
    expect(issues).toEqual([]);
  });

  it('refuses two names of one field holding different values', () => {
    const { issues } = resolveAliases({ doc_id: 'd1', chunk_id: 'd2' }, ['chunk_id']);
    expect(issues).toEqual([{ path: ['doc_id'], reason: 'conflicts with chunk_id ("d1" vs "d2"): give the chunk_id once' }]);
  });

  it('only looks at the fields it is asked about', () => {
    expect(resolveAliases({ text: 'x' }, ['query']).value).toEqual({ text: 'x' });
  });

  it('lists the other names of a field', () => {
    expect(aliasesOf('query_id')).toEqual(['q_id', 'qid']);
    expect(aliasesOf('debate')).toEqual([]);
    expect(aliasesOf('toString')).toEqual([]);
  });
});
