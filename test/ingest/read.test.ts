import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectKind, formatIssue, IngestError, readLines, readRecords, validateFile, validationMessage } from '../../src/ingest/index.js';
import type { IngestKind, RecordOf } from '../../src/ingest/index.js';
import { UserError } from '../../src/errors.js';
import { bridgeConsensusRow, bridgeRow, canonicalEscalation, jsonl } from './records.js';

const dir = mkdtempSync(join(tmpdir(), 'qrelay-ingest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function file(content: string | Buffer): string {
  const path = join(dir, `f${++fileCount}.jsonl`);
  writeFileSync(path, content);
  return path;
}

async function collect<K extends IngestKind>(path: string, kind: K, opts = {}) {
  const out: { line: number; record: RecordOf<K> }[] = [];
  for await (const item of readRecords(path, kind, opts)) out.push(item);
  return out;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

describe('streaming records', () => {
  it('yields each record with its line, skipping blank lines, byte order marks and CRLF endings', async () => {
    const path = file(
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(`${JSON.stringify(canonicalEscalation())}\r\n\r\n   \n`),
        // a second BOM, as left by concatenating two files
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(`${JSON.stringify(canonicalEscalation({ chunk_id: 'd2' }))}\r\n`),
      ]),
    );
    const records = await collect(path, 'escalations');
    expect(records.map((r) => [r.line, r.record.chunk_id])).toEqual([
      [1, 'd1'],
      [4, 'd2'],
    ]);
    expect(records[0]!.record.debate).toHaveLength(4);
  });

  it('reads a last line without a newline', async () => {
    const path = file(`${JSON.stringify({ query_id: 'q', chunk_id: 'd', label: 'no' })}`);
    expect(await collect(path, 'consensus')).toEqual([
      { line: 1, record: { query_id: 'q', chunk_id: 'd', label: 'no', dataset: 'default' } },
    ]);
  });

  it('leaves out identical duplicates and returns the counts', async () => {
    const a = { query_id: 'q', chunk_id: 'd1', label: 'yes' };
    const path = file(jsonl([a, { ...a, chunk_id: 'd2' }, a]));
    const iterator = readRecords(path, 'consensus');
    const lines: number[] = [];
    let next = await iterator.next();
    while (!next.done) {
      lines.push(next.value.line);
      next = await iterator.next();
    }
    expect(lines).toEqual([1, 2]);
    expect(next.value).toEqual({
      file: path,
      kind: 'consensus',
      format: 'canonical',
      lines: 3,
      records: 2,
      duplicates: 1,
      skipped: 0,
      ignoredFields: [],
    });
  });

  it('throws at the first bad line, naming file, line, field and reason', async () => {
    const bad = canonicalEscalation({ chunk_id: 'd2' });
    (bad.debate as Record<string, unknown>[])[2]!.label = 'maybe';
    const path = file(jsonl([canonicalEscalation(), '', bad, '{oops']));
    const seen: number[] = [];
    const err = await failure(
      (async () => {
        for await (const { line } of readRecords(path, 'escalations')) seen.push(line);
      })(),
    );
    expect(seen).toEqual([1]);
    expect(err).toBeInstanceOf(IngestError);
    expect(err.message).toBe(
      `${path} line 3: debate[2].label: expected "yes" or "no", got "maybe" (also accepted: relevant/irrelevant, 1/0, true/false)`,
    );
  });

  it('refuses a file with no records', async () => {
    const err = await failure(collect(file('\n\n'), 'gold'));
    expect(err).toBeInstanceOf(IngestError);
    expect(err.message).toMatch(/: holds no records \(it is empty or has only blank lines\)$/);
  });

  it('says so, in one line, when the file cannot be read', async () => {
    const err = await failure(collect(join(dir, 'missing.jsonl'), 'gold'));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe(`cannot read ${join(dir, 'missing.jsonl')}: no such file: check the path`);
    expect((await failure(collect(dir, 'gold'))).message).toBe(`cannot read ${dir}: it is a directory, not a file`);
  });
});

describe('validateFile', () => {
  it('reports every error of every line, in order, with the counts', async () => {
    const path = file(
      jsonl([
        canonicalEscalation(),
        canonicalEscalation({ chunk_id: 'd2', query: '', hidden_label: 'perhaps' }),
        '[1,2]',
        canonicalEscalation(),
        canonicalEscalation({ answers: 'only one' }),
      ]),
    );
    const report = await validateFile(path, 'escalations');
    expect(report.errors.map((e) => formatIssue('esc.jsonl', e))).toEqual([
      'esc.jsonl line 2: query: must not be empty',
      'esc.jsonl line 2: hidden_label: expected "yes" or "no", got "perhaps" (also accepted: relevant/irrelevant, 1/0, true/false)',
      'esc.jsonl line 3: expected one JSON object ({...}) per line, got a list',
      'esc.jsonl line 5: query_id "q1" with chunk_id "d1" already appeared on line 1 with different content: keep one of the two lines',
    ]);
    expect(report).toMatchObject({ ok: false, moreErrors: 0, records: 1, duplicates: 1, lines: 5, format: 'canonical' });
    expect(validationMessage(report)).toBe(`${path} has 4 errors; the first: ${path} line 2: query: must not be empty`);
  });

  it('lists at most maxErrors errors and counts the rest', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => ({ query_id: `q${i}`, chunk_id: 'd', label: 'maybe' }));
    const report = await validateFile(file(jsonl(lines)), 'consensus');
    expect(report.errors).toHaveLength(50);
    expect(report.moreErrors).toBe(70);
    expect(report.errors[49]!.line).toBe(50);
    const few = await validateFile(file(jsonl(lines)), 'consensus', { maxErrors: 3 });
    expect(few.errors.map((e) => e.line)).toEqual([1, 2, 3]);
    expect(few.moreErrors).toBe(117);
  });

  it('passes a good file', async () => {
    const report = await validateFile(file(jsonl([canonicalEscalation(), canonicalEscalation({ chunk_id: 'd2' })])), 'escalations');
    expect(report).toMatchObject({ ok: true, errors: [], moreErrors: 0, records: 2 });
    expect(validationMessage(report)).toMatch(/: 2 escalations records, no errors$/);
  });

  it('refuses an over-long line without holding it, and goes on with the next', async () => {
    const long = JSON.stringify(canonicalEscalation({ chunk: 'x'.repeat(5000) }));
    const report = await validateFile(file(jsonl([long, canonicalEscalation({ chunk_id: 'd2' })])), 'escalations', { maxLineBytes: 1000 });
    expect(report.errors).toEqual([
      {
        line: 1,
        field: '',
        reason: `the line is ${Buffer.byteLength(long)} bytes long, over the limit of 1000 bytes: a record this large is refused (split it, or raise the limit)`,
      },
    ]);
    expect(report.records).toBe(1);
  });

  it('refuses bytes that are not UTF-8', async () => {
    const path = file(
      Buffer.concat([Buffer.from('{"query_id":"q","chunk_id":"d'), Buffer.from([0xff, 0xfe]), Buffer.from('","label":"yes"}\n')]),
    );
    const report = await validateFile(path, 'consensus');
    expect(report.errors).toEqual([{ line: 1, field: '', reason: 'the line is not valid UTF-8 text: save the file as UTF-8' }]);
  });

  it('says when a BRIDGE file holds no rows of the kind asked for', async () => {
    const report = await validateFile(file(jsonl([bridgeRow(), bridgeRow({ doc_id: 'd2' })])), 'consensus');
    expect(report.skipped).toBe(2);
    expect(report.errors).toEqual([
      { line: 0, field: '', reason: 'holds no consensus records: all 2 BRIDGE rows are escalated cases (consensus: false)' },
    ]);
  });

  it('reads both kinds out of one BRIDGE file', async () => {
    const path = file(jsonl([bridgeRow(), bridgeConsensusRow('yes', { doc_id: 'd2' }), bridgeConsensusRow('no', { doc_id: 'd3' })]));
    expect(await validateFile(path, 'escalations')).toMatchObject({ ok: true, records: 1, skipped: 2, format: 'bridge' });
    expect(await validateFile(path, 'consensus')).toMatchObject({ ok: true, records: 2, skipped: 1, format: 'bridge' });
    expect((await collect(path, 'consensus')).map((r) => [r.line, r.record.label])).toEqual([
      [2, 'yes'],
      [3, 'no'],
    ]);
  });

  it('refuses a canonical line in a BRIDGE file, naming both lines', async () => {
    const report = await validateFile(file(jsonl([bridgeRow(), canonicalEscalation()])), 'escalations');
    expect(report.errors).toEqual([
      {
        line: 2,
        field: '',
        reason:
          "this line is in the canonical format, but line 1 set the file's format to the BRIDGE format (round_1, round_2, ...): put each format in a file of its own",
      },
    ]);
  });
});

describe('readLines', () => {
  it('splits lines across chunk boundaries, multi-byte characters included', async () => {
    const text = ['é'.repeat(10), '', 'ab\u00e9c', 'x'.repeat(33)].join('\n');
    const lines: string[] = [];
    for await (const batch of readLines(file(text), { chunkBytes: 7 })) {
      for (const l of batch) lines.push('text' in l ? l.text : `problem: ${l.problem}`);
    }
    expect(lines).toEqual(['é'.repeat(10), '', 'abéc', 'x'.repeat(33)]);
  });
});

describe('detectKind', () => {
  it('tells the three kinds apart by their first record', async () => {
    expect(await detectKind(file(jsonl(['', canonicalEscalation()])))).toBe('escalations');
    expect(await detectKind(file(jsonl([{ q_id: 'q', doc_id: 'd', question: 'q?', text: 't', label: 'yes' }])))).toBe('gold');
    expect(await detectKind(file(jsonl([{ query_id: 'q', chunk_id: 'd', label: 'yes' }])))).toBe('consensus');
  });

  it('asks for the kind of BRIDGE files and of unknown records', async () => {
    expect((await failure(detectKind(file(jsonl([bridgeRow()]))))).message).toMatch(
      /line 1 is a BRIDGE debate row: .* say which kind to import \(escalations or consensus: --kind on the command line, kind= in the API\)$/,
    );
    expect((await failure(detectKind(file(jsonl([{ id: 1 }]))))).message).toMatch(/^cannot tell what .* holds from line 1: /);
    expect((await failure(detectKind(file('')))).message).toMatch(/: holds no records/);
  });
});
