import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectKind, readRecords } from './index.js';

const turn = {
  round: 1,
  agent: 'A',
  stance: 'relevant',
  label: 'yes',
  reasoning: 'It gives the length.',
  references: ['The Danube is 2,850 km long.'],
};
const goldLine = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    query_id: 'g1',
    query: 'how long is the danube',
    chunk_id: 'c1',
    chunk: 'The Danube is 2,850 km long.',
    label: 'yes',
    ...over,
  });

function file(lines: string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'qrelay-gold-')), 'gold.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function read(path: string, kind: 'gold') {
  const out: unknown[] = [];
  for await (const { record } of readRecords(path, kind)) out.push(record);
  return out;
}

describe("a gold item's optional debate", () => {
  it('is read with the item (label spellings as in escalations), and its absence stays absent', async () => {
    const [withDebate, without] = (await read(
      file([goldLine({ debate: [{ ...turn, label: 'Relevant' }] }), goldLine({ chunk_id: 'c2' })]),
      'gold',
    )) as Array<Record<string, unknown>>;
    expect(withDebate!['debate']).toEqual([{ ...turn, label: 'yes' }]);
    expect(without).not.toHaveProperty('debate');
  });

  it('makes a record with a label and a debate a gold item when the kind is not given', async () => {
    expect(await detectKind(file([goldLine({ debate: [turn] })]))).toBe('gold');
    expect(await detectKind(file([goldLine({ debate: [turn], label: null })]))).toBe('escalations');
  });

  it('refuses a bad turn with the line and the field', async () => {
    await expect(read(file([goldLine(), goldLine({ chunk_id: 'c2', debate: [{ ...turn, stance: 'maybe' }] })]), 'gold')).rejects.toThrow(
      /line 2.*debate/s,
    );
  });
});
