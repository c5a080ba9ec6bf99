import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCandidateLine, readCandidates } from './candidates.js';

describe('candidates', () => {
  it('reads the shapes qrelay import accepts (aliases, numeric ids, one answer as a string)', () => {
    expect(
      parseCandidateLine(1, '{"q_id": 7, "question": "q?", "answer": "a", "doc_id": "d", "passage": "p", "debate": "ignored"}'),
    ).toEqual({
      candidate: { query_id: '7', query: 'q?', answers: ['a'], chunk_id: 'd', chunk: 'p', dataset: 'default' },
    });
  });
  it('names the line and the field as the file spells it', () => {
    expect(parseCandidateLine(3, '{"query_id": "q", "question": "", "chunk_id": "d", "chunk": "c"}')).toEqual({
      issues: [{ line: 3, field: 'question', reason: expect.any(String) as string }],
    });
    expect(parseCandidateLine(4, '{"query_id": "q"')).toMatchObject({
      issues: [{ line: 4, field: '', reason: expect.stringMatching(/invalid JSON/) as string }],
    });
  });
  it('a file: identical repeats dropped, conflicting ones and bad lines listed in one error, nothing asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qrelay-candidates-'));
    const good = join(dir, 'good.jsonl');
    const line = '{"query_id": "q", "query": "?", "answers": ["a"], "chunk_id": "d", "chunk": "c"}';
    writeFileSync(good, `${line}\n\n${line}\n`);
    expect(await readCandidates(good)).toHaveLength(1);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${line}\n{"query_id": "q", "query": "other", "chunk_id": "d", "chunk": "c"}\n{"query": "?"}\n`);
    await expect(readCandidates(bad)).rejects.toThrow(
      /4 bad candidate lines, nothing was asked: .*bad\.jsonl line 2: query_id "q" with chunk_id "d" already appeared on line 1.*bad\.jsonl line 3: query_id: required/,
    );
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '\n');
    await expect(readCandidates(empty)).rejects.toThrow(/holds no candidates/);
  });
});
