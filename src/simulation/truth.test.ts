import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { parseTruth, truthKey } from './truth.js';

describe('reading a truth file', () => {
  it('reads TREC qrels: relevance above 0 is relevant', () => {
    const t = parseTruth('q1 0 d1 1\nq1 0 d2 0\n\nq2 Q0 d3 2\n', 'truth.qrels');
    expect([...t]).toEqual([
      [truthKey('q1', 'd1'), 'yes'],
      [truthKey('q1', 'd2'), 'no'],
      [truthKey('q2', 'd3'), 'yes'],
    ]);
  });

  it('reads JSONL with yes/no, 1/0 or true/false labels', () => {
    const t = parseTruth(
      '{"query_id":"q1","chunk_id":"c1","label":"yes"}\n{"query_id":"q1","chunk_id":"c2","label":0}\n{"query_id":"q2","chunk_id":"c1","label":true}\n',
      't.jsonl',
    );
    expect(t.get(truthKey('q1', 'c1'))).toBe('yes');
    expect(t.get(truthKey('q1', 'c2'))).toBe('no');
    expect(t.get(truthKey('q2', 'c1'))).toBe('yes');
  });

  it('names the file, line and field of a bad line', () => {
    expect(() => parseTruth('q1 0 d1\n', 'f')).toThrow(
      new UserError('f:1: a TREC qrels line has 4 fields (query_id iteration chunk_id relevance), this one has 3'),
    );
    expect(() => parseTruth('q1 0 d1 x\n', 'f')).toThrow(/^f:1: field relevance: expected a whole number/);
    expect(() => parseTruth('{"query_id":"q","chunk_id":"c","label":"yes"}\n{"chunk_id":"c","label":"no"}\n', 'f')).toThrow(
      /^f:2: field query_id/,
    );
    expect(() => parseTruth('{"query_id":"q","chunk_id":"c"}\n', 'f')).toThrow(/^f:1: field label is missing/);
    expect(() => parseTruth('{"query_id":"q","chunk_id":"c","label":"yes"}\nnot json\n', 'f')).toThrow(/^f:2: not a JSON object/);
    expect(() => parseTruth('q 0 c 1\nq 0 c 0\n', 'f')).toThrow(/^f:2: q c is labelled both yes and no/);
    expect(() => parseTruth('\n\n', 'f')).toThrow(/^f: the truth file is empty/);
  });
});
