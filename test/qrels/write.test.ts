import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readQrels, writeLinesAtomically, writeQrels, mergeQrels, HumanLabel } from '../../src/qrels/index.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'qrelay-write-'));

describe('writeQrels', () => {
  it('writes each format so that the readers read the same qrels back', async () => {
    const dir = fresh();
    const base = new Map([
      ['q2', new Map([['d1', 1]])],
      [
        'q1',
        new Map([
          ['d9', 0],
          ['d10', 2],
        ]),
      ],
    ]);
    const { entries } = mergeQrels({
      base,
      human: [HumanLabel.parse({ query_id: 'q3', chunk_id: 'd1', label: 'yes', votes: { yes: 3, no: 0 }, workers: 3, batch: 'b1' })],
    });
    await writeQrels(join(dir, 'out.txt'), entries);
    await writeQrels(join(dir, 'out.tsv'), entries);
    const { pairs } = await writeQrels(join(dir, 'out.jsonl'), entries);
    expect(pairs).toBe(4);
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('q1 0 d10 2\nq1 0 d9 0\nq2 0 d1 1\nq3 0 d1 1\n');
    const expected = new Map([...base, ['q3', new Map([['d1', 1]])]]);
    expect((await readQrels(join(dir, 'out.txt'))).qrels).toEqual(expected);
    expect((await readQrels(join(dir, 'out.tsv'))).qrels).toEqual(expected);
    const jsonl = readFileSync(join(dir, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonl[3]).toEqual({
      query_id: 'q3',
      doc_id: 'd1',
      rel: 1,
      source: 'human-majority',
      base_rel: null,
      votes: { yes: 3, no: 0 },
      workers: 3,
      batch: 'b1',
      dataset: 'default',
    });
    expect(readdirSync(dir).sort()).toEqual(['out.jsonl', 'out.tsv', 'out.txt']);
  });

  it('leaves the old file and no temporary file when an entry is invalid', async () => {
    const dir = fresh();
    const target = join(dir, 'qrels.txt');
    writeFileSync(target, 'old\n');
    const many = Array.from({ length: 20_000 }, (_, i) => ({ query_id: 'q', doc_id: `d${i}`, rel: 1 }));
    many.push({ query_id: 'q', doc_id: 'has space', rel: 1 }); // sorts last: found after 64 KiB were written
    await expect(writeQrels(target, many)).rejects.toThrow(/document id "has space" to TREC qrels/);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(dir)).toEqual(['qrels.txt']);
  });

  it('refuses a missing directory with a clear message', async () => {
    const target = join(fresh(), 'nope', 'qrels.txt');
    await expect(writeQrels(target, [])).rejects.toThrow(/the directory .*nope does not exist; create it first/);
    expect(existsSync(target)).toBe(false);
  });

  it('writes through the same atomic path for any lines', async () => {
    const target = join(fresh(), 'x.txt');
    await writeLinesAtomically(target, ['a', 'b']);
    expect(readFileSync(target, 'utf8')).toBe('a\nb\n');
  });
});
