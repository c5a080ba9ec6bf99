import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import { runCli } from '../support/cli.js';

const fixtures = join(paths.root, 'test', 'fixtures', 'eval', 'small');
const f = (name: string) => relative(paths.root, join(fixtures, name));
const runs = ['bm25.run', 'dense.run', 'hybrid.run', 'weak.run'].map(f);
const qrelsArgs = ['--qrels', f('base.qrels'), '--qrels', f('new.qrels')];
const tmp = mkdtempSync(join(tmpdir(), 'qrelay-evaluate-'));

/** Exactly one line on stderr, no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return lines[0]!;
}

interface Expected {
  sets: { small: { systems: Record<string, Record<'base' | 'new', Record<string, { mean: number }>>> } };
}

// timeout: a safety net only; eight CLI processes at once are slow on a loaded machine
describe.concurrent('qrelay evaluate', { timeout: 180_000 }, () => {
  it('prints a table of means, rank changes and τ-b with the default measures', async () => {
    const res = await runCli(['evaluate', ...qrelsArgs, ...runs]);
    expect(res.code, res.stderr).toBe(0);
    for (const m of ['nDCG@10', 'R@100', 'Success@10', 'Judged@10'])
      expect(res.stdout).toMatch(new RegExp(`^${m}  \\(queries: base 5, new 6\\)  Kendall τ-b -?\\d\\.\\d{4}$`, 'm'));
    expect(res.stdout).toMatch(/^Hole@10 {2}\(new relevant documents unjudged in the base; 6 queries of the new qrels\)$/m);
    expect(res.stdout).toMatch(/^ {2}hybrid\.run\s+0\.4997\s+0\.6848\s+\+0\.1851\s+2 → 1\s+\+1$/m);
    expect(res.stderr).toBe('');
  });

  it('prints one JSON object with --json, matching the golden means', async () => {
    const res = await runCli([
      'evaluate',
      ...qrelsArgs,
      ...runs,
      '--measures',
      'nDCG@10,R@100',
      '--measures',
      'Success@10 Judged@10',
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    const doc = JSON.parse(res.stdout) as {
      qrels: { base: { queries: number; judgments: number; relevant: number; format: string } };
      runs: Array<{ system: string; queries: number; documents: number }>;
      measures: Array<{ measure: string; systems: Array<{ system: string; base: number; new: number }> }>;
      perQuery: unknown[];
    };
    expect(doc.qrels.base).toMatchObject({ format: 'trec', queries: 5, judgments: 13, relevant: 7 });
    expect(doc.runs.map((r) => [r.system, r.queries, r.documents])).toEqual([
      ['bm25.run', 5, 18],
      ['dense.run', 5, 14],
      ['hybrid.run', 6, 24],
      ['weak.run', 2, 7],
    ]);
    const golden = (JSON.parse(readFileSync(join(fixtures, '..', 'expected.json'), 'utf8')) as Expected).sets.small.systems;
    expect(doc.measures.map((m) => m.measure)).toEqual(['nDCG@10', 'R@100', 'Success@10', 'Judged@10']);
    for (const m of doc.measures) {
      for (const s of m.systems) {
        expect(Math.abs(s.base - golden[s.system]!.base[m.measure]!.mean)).toBeLessThan(1e-6);
        expect(Math.abs(s.new - golden[s.system]!.new[m.measure]!.mean)).toBeLessThan(1e-6);
      }
    }
    expect(doc.perQuery).toHaveLength(4);
  });

  it('exits 1 with one line naming file and line for a bad run', async () => {
    const bad = join(tmp, 'bad.run');
    writeFileSync(bad, 'q1 Q0 d1 1 0.5 x\nq1 Q0 d2 2 high x\n');
    const res = await runCli(['evaluate', ...qrelsArgs, runs[0]!, bad]);
    expect(res.code).toBe(1);
    expect(oneLine(res.stderr)).toBe(`qrelay: ${bad}:2: score (5th column) must be a decimal number, found "high"`);
    expect(res.stdout).toBe('');
  });

  it('exits 1 naming both lines of a conflicting qrels pair', async () => {
    const bad = join(tmp, 'conflict.qrels');
    writeFileSync(bad, 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 0\n');
    const res = await runCli(['evaluate', '--qrels', bad, '--qrels', f('new.qrels'), runs[0]!]);
    expect(res.code).toBe(1);
    expect(oneLine(res.stderr)).toBe(
      `qrelay: ${bad}:3: query "q1" document "d1" has grade 0 here but grade 1 on line 1; keep one grade per (query, document)`,
    );
  });

  it('exits 1 with one line on wrong usage', async () => {
    const [once, measure, missing] = await Promise.all([
      runCli(['evaluate', '--qrels', f('base.qrels'), runs[0]!]),
      runCli(['evaluate', ...qrelsArgs, runs[0]!, '--measures', 'ERR@10']),
      runCli(['evaluate', ...qrelsArgs, join(tmp, 'absent.run')]),
    ]);
    expect(once.code).toBe(1);
    expect(oneLine(once.stderr)).toBe('qrelay: give --qrels exactly twice, the base qrels first and the new qrels second (got 1)');
    expect(measure.code).toBe(1);
    expect(oneLine(measure.stderr)).toMatch(/^qrelay: unknown measure "ERR@10": known measures are AP, AP@k/);
    expect(missing.code).toBe(1);
    expect(oneLine(missing.stderr)).toBe(`qrelay: cannot read ${join(tmp, 'absent.run')}: no such file; check the path`);
  });

  it('documents itself in --help', async () => {
    const res = await runCli(['evaluate', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('--qrels <file>');
    expect(res.stdout).toContain('nDCG_bridge@k (ideal DCG over');
  });
});
