import { describe, expect, it } from 'vitest';
import { bridgeConsensusRow, bridgeRow, canonicalEscalation } from '../../test/ingest/records.js';
import { lookalikeKind, RecordChecker, type IngestKind } from './checker.js';

const line = (value: unknown) => JSON.stringify(value);

function messages(kind: IngestKind, lines: unknown[]): string[] {
  const checker = new RecordChecker(kind);
  return lines.flatMap((value, i) => {
    const outcome = checker.check(i + 1, typeof value === 'string' ? value : line(value));
    return outcome.type === 'issues' ? outcome.issues.map((x) => `line ${x.line}: ${x.field ? `${x.field}: ` : ''}${x.reason}`) : [];
  });
}

describe('RecordChecker, escalations', () => {
  it('yields the canonical record', () => {
    const outcome = new RecordChecker('escalations').check(1, line(canonicalEscalation()));
    expect(outcome).toMatchObject({ type: 'record', record: { query_id: 'q1', chunk_id: 'd1', debate: [{ agent: 'A' }, {}, {}, {}] } });
  });

  it('names the field path and the value of a bad turn', () => {
    const bad = canonicalEscalation();
    (bad.debate as Record<string, unknown>[])[2]!.label = 'maybe';
    expect(messages('escalations', [bad])).toEqual([
      'line 1: debate[2].label: expected "yes" or "no", got "maybe" (also accepted: relevant/irrelevant, 1/0, true/false)',
    ]);
  });

  it('treats blank lines as nothing', () => {
    expect(new RecordChecker('escalations').check(1, '   ')).toEqual({ type: 'blank' });
  });

  it('lets the first object decide the format and refuses the other one later', () => {
    const out = messages('escalations', ['{not json', bridgeRow(), canonicalEscalation()]);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/^line 1: invalid JSON at column 2: /);
    expect(out[1]).toBe(
      "line 3: this line is in the canonical format, but line 2 set the file's format to the BRIDGE format (round_1, round_2, ...): put each format in a file of its own",
    );
  });

  it('reports aliased fields under the name the file used', () => {
    const row = bridgeRow({ q_id: -1.5 });
    expect(messages('escalations', [row])).toEqual(['line 1: q_id: expected a string, got -1.5']);
  });

  it('mentions the other names of a missing aliased field', () => {
    const { chunk_id: _c, ...rest } = canonicalEscalation();
    expect(messages('escalations', [rest])).toEqual(['line 1: chunk_id: required but missing (also accepted as doc_id or docid)']);
  });

  it('hints at the kind when the first line looks like another kind', () => {
    expect(messages('escalations', [{ query_id: 'q', chunk_id: 'd', label: 'yes' }])[0]).toBe(
      'line 1: this looks like a consensus label, but the file is being read as escalations: should it be imported as consensus?',
    );
  });

  it('skips consensus rows of a BRIDGE file', () => {
    const checker = new RecordChecker('escalations');
    expect(checker.check(1, line(bridgeConsensusRow('yes'))).type).toBe('skipped');
    expect(checker.check(2, line(bridgeRow({ doc_id: 'd10' }))).type).toBe('record');
    expect(checker.format).toBe('bridge');
  });
});

describe('RecordChecker, duplicates', () => {
  it('ignores an identical repeat and refuses a different one, naming the first line', () => {
    const checker = new RecordChecker('escalations');
    expect(checker.check(1, line(canonicalEscalation())).type).toBe('record');
    expect(checker.check(2, line(canonicalEscalation({ chunk_id: 'd2' }))).type).toBe('record');
    expect(checker.check(5, line(canonicalEscalation()))).toEqual({ type: 'duplicate', firstLine: 1 });
    expect(checker.check(7, line(canonicalEscalation({ hidden_label: 'yes' })))).toEqual({
      type: 'issues',
      issues: [
        {
          line: 7,
          field: '',
          reason: 'query_id "q1" with chunk_id "d1" already appeared on line 1 with different content: keep one of the two lines',
        },
      ],
    });
  });

  it('compares records as normalised, so spellings of one label are the same content', () => {
    const checker = new RecordChecker('consensus');
    expect(checker.check(1, line({ query_id: 'q', chunk_id: 'd', label: 'yes' })).type).toBe('record');
    expect(checker.check(2, line({ q_id: 'q', doc_id: ' d ', label: 1 }))).toEqual({ type: 'duplicate', firstLine: 1 });
  });
});

describe('RecordChecker, consensus labels', () => {
  it('reads canonical labels with any accepted spelling', () => {
    const checker = new RecordChecker('consensus');
    expect(checker.check(1, line({ query_id: 5, chunk_id: 'd1', label: 'Relevant', dataset: 'nq' }))).toEqual({
      type: 'record',
      record: { query_id: '5', chunk_id: 'd1', label: 'yes', dataset: 'nq' },
    });
  });

  it('reads consensus rows of a BRIDGE file and skips its escalations', () => {
    const checker = new RecordChecker('consensus');
    expect(checker.check(1, line(bridgeRow())).type).toBe('skipped');
    expect(checker.check(2, line(bridgeConsensusRow('no', { doc_id: 'd3' })))).toMatchObject({
      type: 'record',
      record: { chunk_id: 'd3', label: 'no' },
    });
  });

  it('reports a bad label', () => {
    expect(messages('consensus', [{ query_id: 'q', chunk_id: 'd', label: 2 }])).toEqual([
      'line 1: label: expected "yes" or "no", got 2 (also accepted: relevant/irrelevant, 1/0, true/false)',
    ]);
  });
});

describe('RecordChecker, gold items', () => {
  const gold = {
    query_id: 'g1',
    query: 'capital of peru',
    answers: 'Lima',
    chunk_id: 'c1',
    chunk: 'Lima is the capital of Peru.',
    label: 'yes',
  };

  it('reads a gold item (a lone answer string is a list of one)', () => {
    expect(new RecordChecker('gold').check(1, line(gold))).toEqual({
      type: 'record',
      record: { ...gold, answers: ['Lima'], dataset: 'default' },
    });
  });

  it('refuses BRIDGE rows and missing texts', () => {
    expect(messages('gold', [bridgeRow()])).toEqual([
      'line 1: a BRIDGE debate row (round_1, round_2, ...) is not a gold item: gold items are {query_id, query, answers, chunk_id, chunk, label}',
    ]);
    expect(messages('gold', [{ ...gold, chunk: '' }])).toEqual(['line 1: chunk: must not be empty']);
  });
});

describe('lookalikeKind', () => {
  it('judges a record by its fields', () => {
    expect(lookalikeKind({ debate: [] })).toBe('escalations');
    expect(lookalikeKind({ label: 'yes', question: 'q' })).toBe('gold');
    expect(lookalikeKind({ label: 'yes' })).toBe('consensus');
    expect(lookalikeKind({ query_id: 'q' })).toBeUndefined();
  });
});
