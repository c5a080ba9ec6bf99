import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { forEachLine, InputLineError, readQrels, readRun } from '../../src/qrels/index.js';

const dir = mkdtempSync(join(tmpdir(), 'qrelay-read-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('readQrels', () => {
  it('reads each format from a file, detecting it', async () => {
    const trec = await readQrels(file('a.qrels', '\n\nq1 0 d1 2\nq1 0 d2 0\n'));
    expect(trec).toMatchObject({ format: 'trec', pairs: 2 });
    expect(trec.qrels.get('q1')).toEqual(
      new Map([
        ['d1', 2],
        ['d2', 0],
      ]),
    );
    expect((await readQrels(file('b.tsv', 'query-id\tcorpus-id\tscore\r\nq1\td1\t1\r\n'))).format).toBe('beir');
    expect((await readQrels(file('c.jsonl', '{"q_id":"q1","doc_id":["d1","d2"]}\n'))).pairs).toBe(2);
    expect((await readQrels(file('d.txt', '\uFEFFquery-id\tcorpus-id\tscore\nq1\td1\t1\n'))).format).toBe('beir');
  });

  it('takes an explicit format', async () => {
    await expect(readQrels(file('e.jsonl', 'q1 0 d1 1\n'), { format: 'trec' })).resolves.toMatchObject({ format: 'trec', pairs: 1 });
  });

  it('names the file and line of a bad line far into a streamed file', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `q${i % 100} 0 d${i} ${i % 3}`);
    lines.push('q1 0 d50000');
    const path = file('big.qrels', `${lines.join('\n')}\n`);
    const err = await readQrels(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputLineError);
    expect((err as InputLineError).line).toBe(50_001);
    expect((err as Error).message).toBe(
      `${path}:50001: expected 4 columns "qid iter docid rel" of TREC qrels ("qid iter docid rel"), found 3`,
    );
  });

  it('says why a file cannot be read', async () => {
    await expect(readQrels(join(dir, 'missing.qrels'))).rejects.toThrow(
      `cannot read ${join(dir, 'missing.qrels')}: no such file; check the path`,
    );
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    await expect(readQrels(sub)).rejects.toThrow(UserError);
    await expect(readQrels(sub)).rejects.toThrow(/it is a directory/);
  });

  it('returns empty qrels for an empty file', async () => {
    expect((await readQrels(file('empty.qrels', ''))).pairs).toBe(0);
  });
});

describe('readRun', () => {
  it('reads a run in trec_eval order and names the system after the file', async () => {
    const run = await readRun(file('bm25.run', 'q1 Q0 a 1 1 bm25\r\nq1 Q0 b 2 1 bm25\r\nq1 Q0 c 3 5 bm25\r\n'));
    expect(run.name).toBe('bm25.run');
    expect(run.run.get('q1')!.map((d) => d.docid)).toEqual(['c', 'b', 'a']);
    expect(run.tags).toEqual(['bm25']);
  });

  it('names file and line on errors', async () => {
    const path = file('bad.run', 'q1 Q0 a 1 1 t\nq1 Q0 b 2 x t\n');
    await expect(readRun(path)).rejects.toThrow(`${path}:2: score (5th column) must be a decimal number, found "x"`);
  });
});

describe('forEachLine', () => {
  it('splits lines across 1 MiB chunks without breaking multi-byte characters', async () => {
    // ~3.5 MiB of CRLF lines of 2-, 3- and 4-byte characters, no final line break
    const want = Array.from({ length: 100_000 }, (_, i) => `q${i} é€\u{1F600} ${'x'.repeat(i % 17)}`);
    const path = file('multibyte.txt', `\uFEFF${want.join('\r\n')}`);
    const got: string[] = [];
    const numbers: number[] = [];
    await forEachLine(path, (text, line) => {
      got.push(text);
      numbers.push(line);
    });
    expect(got).toHaveLength(want.length);
    expect(got.join('\n') === want.join('\n')).toBe(true); // one comparison, not 100,000 diffs
    expect(numbers.every((n, i) => n === i + 1)).toBe(true);
  });
});
