import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import { tempDir } from '../pipeline/support.js';
import { runCli } from '../support/cli.js';

/**
 * `qrelay evaluate --posterior` on the graded fixture: a posterior that leaves every
 * third pair of the new qrels in doubt. The new entries gain withLabels and pFlip, τ its
 * withLabels; the same seed gives the same document; bad posteriors are one error line.
 */
const dir = join(paths.root, 'test', 'fixtures', 'eval', 'graded');
const f = (name: string) => relative(paths.root, join(dir, name));
const runs = ['runA.run', 'runB.run', 'runC.run', 'runD.run'].map(f);
const tmp = tempDir('qrelay-posterior-eval-');

const posteriorLines = readFileSync(join(dir, 'new.qrels'), 'utf8')
  .trim()
  .split('\n')
  .map((line, i) => {
    const [query_id, , doc_id, rel] = line.split(/\s+/);
    const relevant = Number(rel) >= 1;
    const p_relevant = i % 3 === 0 ? (relevant ? 0.7 : 0.3) : relevant ? 1 : 0;
    return JSON.stringify({ query_id, doc_id, rel: Number(rel), p_relevant });
  });
const posterior = join(tmp, 'posterior.jsonl');
writeFileSync(posterior, `${posteriorLines.join('\n')}\n`);

const evaluate = (...extra: string[]) =>
  runCli([
    'evaluate',
    '--qrels',
    f('base.qrels'),
    '--qrels',
    f('new.qrels'),
    ...runs,
    '--measures',
    'nDCG@10,P@10',
    '--randomization-trials',
    '100',
    '--bootstrap-samples',
    '200',
    ...extra,
  ]);

interface Doc {
  measures: Array<{ kendallTauInterval: { low: number; high: number; withLabels?: { low: number; high: number } } | null }>;
  significance: Array<{ qrels: string; pFlip?: number }>;
  intervals: Array<{ qrels: string; low: number; high: number; withLabels?: { low: number; high: number } }>;
}

describe('qrelay evaluate --posterior', () => {
  it('adds withLabels and pFlip to the new qrels’ entries, the same for the same seed, and says which comparisons rest on the labels', async () => {
    const [first, second, plain, table] = await Promise.all([
      evaluate('--posterior', posterior, '--json', '--seed', '3'),
      evaluate('--posterior', posterior, '--json', '--seed', '3'),
      evaluate('--json', '--seed', '3'),
      evaluate('--posterior', posterior, '--seed', '3'),
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const doc = JSON.parse(first.stdout) as Doc;
    for (const i of doc.intervals) {
      if (i.qrels === 'base') {
        expect(i).not.toHaveProperty('withLabels');
        continue;
      }
      expect(i.withLabels!.low).toBeLessThanOrEqual(i.low);
      expect(i.withLabels!.high).toBeGreaterThanOrEqual(i.high);
    }
    for (const s of doc.significance) {
      if (s.qrels === 'new') expect(s.pFlip).toBeGreaterThanOrEqual(0);
      else expect(s).not.toHaveProperty('pFlip');
    }
    expect(doc.significance.some((s) => (s.pFlip ?? 0) > 0)).toBe(true);
    for (const m of doc.measures) expect(m.kendallTauInterval?.withLabels).toBeDefined();

    // without the flag the document is today's
    const before = JSON.parse(plain.stdout) as Doc;
    expect(before.intervals.map(({ withLabels: _, ...rest }) => rest)).toEqual(doc.intervals.map(({ withLabels: _, ...rest }) => rest));
    expect(JSON.stringify(before)).not.toMatch(/withLabels|pFlip/);

    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/with the labels' doubt \(--posterior\): τ-b \[/);
    expect(table.stdout).toMatch(/comparisons that depend on the labels|no comparison depends on the labels/);
  });

  it('names the file, line and field of a bad posterior, and refuses --posterior without the intervals', async () => {
    const bad = join(tmp, 'bad.jsonl');
    writeFileSync(bad, `${posteriorLines[0]}\n{"query_id":"t4","doc_id":"d16","p_relevant":"high"}\n`);
    const stranger = join(tmp, 'stranger.jsonl');
    writeFileSync(stranger, `{"query_id":"nope","doc_id":"d1","p_relevant":0.5}\n`);
    const [badRun, strangerRun, noSignificance] = await Promise.all([
      evaluate('--posterior', bad),
      evaluate('--posterior', stranger),
      evaluate('--posterior', posterior, '--no-significance'),
    ]);
    expect(badRun.code).toBe(1);
    expect(badRun.stderr.trim().split('\n')).toHaveLength(1);
    expect(badRun.stderr).toContain(`${bad}:2: p_relevant: expected a number from 0 to 1, got "high"`);
    expect(strangerRun.stderr).toContain(`${stranger}:1: query "nope" document "d1" is not in the new qrels`);
    expect(noSignificance.code).toBe(1);
    expect(noSignificance.stderr).toContain('--posterior needs the significance tests and intervals');
  });
});
