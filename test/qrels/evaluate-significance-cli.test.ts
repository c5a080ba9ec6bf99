import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import { holm } from '../../src/qrels/index.js';
import { runCli } from '../support/cli.js';

/**
 * `qrelay evaluate` on the graded fixture (grades −1..3, ties, missing queries) against
 * the values ir_measures and scipy gave (test/fixtures/eval/expected.json, set
 * "graded-rel2": every binary measure at relevance level 2).
 */
const dir = join(paths.root, 'test', 'fixtures', 'eval');
const f = (name: string) => relative(paths.root, join(dir, 'graded', name));
const runs = ['runA.run', 'runB.run', 'runC.run', 'runD.run', 'runE.run', 'runF.run'].map(f);
const qrelsArgs = ['--qrels', f('base.qrels'), '--qrels', f('new.qrels')];
const MEASURES = ['AP', 'P@10', 'RR', 'Rprec', 'nDCG@10', 'Judged@10'];

interface Golden {
  systems: Record<string, Record<'base' | 'new', Record<string, { mean: number; perQuery: Record<string, number> }>>>;
  tTest: Record<string, Record<'base' | 'new', Array<{ a: string; b: string; t: number | null; p: number | null }>>>;
}
const golden = (JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { sets: Record<string, Golden> }).sets['graded-rel2']!;

interface Pair {
  measure: string;
  qrels: 'base' | 'new';
  a: string;
  b: string;
  meanDifference: number;
  tTest: { t: number | null; p: number | null };
  randomization: { p: number | null };
  pHolm: number | null;
}
interface Doc {
  measures: Array<{
    measure: string;
    kendallTau: number | null;
    kendallTauAP: number | null;
    kendallTauInterval: { low: number; high: number } | null;
    systems: Array<{ system: string; changeInterval: { low: number; high: number } | null }>;
  }>;
  perQuery: Array<{ system: string; measures: Record<string, Record<'base' | 'new', Record<string, number>>> }>;
  significance: Pair[];
  intervals: Array<{ system: string; measure: string; qrels: 'base' | 'new'; mean: number; low: number | null; high: number | null }>;
}

const evaluate = (...extra: string[]) =>
  runCli(['evaluate', ...qrelsArgs, ...runs, '--measures', MEASURES.join(','), '--rel-level', '2', ...extra]);

// A safety net only: each test waits for CLI processes, slow on a loaded machine.
const SLOW = 180_000;

describe('qrelay evaluate: relevance level, per-query output, significance', () => {
  const json = evaluate('--json', '--randomization-trials', '2000', '--bootstrap-samples', '300', '--seed', '7');

  it(
    'honours --rel-level: every per-query value equals ir_measures at rel=2 (nDCG, Judged unaffected) to 1e-9',
    async () => {
      const res = await json;
      expect(res.code, res.stderr).toBe(0);
      const doc = JSON.parse(res.stdout) as Doc;
      let compared = 0;
      for (const system of doc.perQuery) {
        for (const measure of MEASURES) {
          for (const qrels of ['base', 'new'] as const) {
            const want = golden.systems[system.system]![qrels][measure]!.perQuery;
            const got = system.measures[measure]![qrels];
            expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
            for (const [qid, value] of Object.entries(want)) {
              expect(Math.abs(got[qid]! - value), `${system.system} ${measure} ${qrels} ${qid}`).toBeLessThanOrEqual(1e-9);
              compared++;
            }
          }
        }
      }
      expect(compared).toBe(6 * MEASURES.length * (30 + 31));
    },
    SLOW,
  );

  it(
    "prints one significance entry per pair, measure and qrels, agreeing with scipy's t-test, Holm over each family",
    async () => {
      const doc = JSON.parse((await json).stdout) as Doc;
      expect(doc.significance).toHaveLength(15 * MEASURES.length * 2);
      for (const measure of MEASURES) {
        for (const qrels of ['base', 'new'] as const) {
          const family = doc.significance.filter((s) => s.measure === measure && s.qrels === qrels);
          expect(family).toHaveLength(15);
          for (const want of golden.tTest[measure]![qrels]) {
            const got = family.find((s) => s.a === want.a && s.b === want.b)!;
            expect(Object.keys(got).sort()).toEqual(['a', 'b', 'meanDifference', 'measure', 'pHolm', 'qrels', 'randomization', 'tTest']);
            if (want.p === null) expect(got.tTest.p).toBeNull();
            else expect(Math.abs(got.tTest.p! - want.p)).toBeLessThanOrEqual(1e-6);
            if (want.t !== null) expect(Math.abs(got.tTest.t! - want.t)).toBeLessThanOrEqual(1e-6);
            const meanA = golden.systems[want.a]![qrels][measure]!.mean;
            const meanB = golden.systems[want.b]![qrels][measure]!.mean;
            expect(Math.abs(got.meanDifference - (meanA - meanB))).toBeLessThanOrEqual(1e-12);
            expect(got.randomization.p).toBeGreaterThan(0);
            expect(got.randomization.p).toBeLessThanOrEqual(1);
          }
          expect(family.map((s) => s.pHolm)).toEqual(holm(family.map((s) => s.tTest.p)));
        }
      }
    },
    SLOW,
  );

  it(
    'gives a 95% interval for every run, measure and qrels, and for the changes and τ',
    async () => {
      const doc = JSON.parse((await json).stdout) as Doc;
      expect(doc.intervals).toHaveLength(6 * MEASURES.length * 2);
      for (const i of doc.intervals) {
        expect(i.mean).toBeCloseTo(golden.systems[i.system]![i.qrels][i.measure]!.mean, 12);
        expect(i.low!).toBeLessThanOrEqual(i.high!);
        expect(i.low!).toBeLessThanOrEqual(i.mean + 1e-12);
        expect(i.high!).toBeGreaterThanOrEqual(i.mean - 1e-12);
      }
      for (const m of doc.measures) {
        expect(m.kendallTauInterval!.low).toBeLessThanOrEqual(m.kendallTauInterval!.high);
        expect(typeof m.kendallTauAP).toBe('number');
        for (const s of m.systems) expect(s.changeInterval).not.toBeNull();
      }
    },
    SLOW,
  );

  it(
    'is reproducible with the same seed, and the seed matters',
    async () => {
      const [again, other] = await Promise.all([
        evaluate('--json', '--randomization-trials', '2000', '--bootstrap-samples', '300', '--seed', '7'),
        evaluate('--json', '--randomization-trials', '2000', '--bootstrap-samples', '300', '--seed', '8'),
      ]);
      expect(again.stdout).toBe((await json).stdout);
      const a = JSON.parse(again.stdout) as Doc;
      const b = JSON.parse(other.stdout) as Doc;
      expect(b.significance.map((s) => s.tTest)).toEqual(a.significance.map((s) => s.tTest));
      expect(b.significance.map((s) => s.randomization.p)).not.toEqual(a.significance.map((s) => s.randomization.p));
    },
    SLOW,
  );

  it(
    'prints per-query values in TREC three columns (--per-query) and as JSONL (with --json), equal to the JSON ones',
    async () => {
      const [trec, jsonl] = await Promise.all([evaluate('--per-query'), evaluate('--per-query', '--json')]);
      expect(trec.code, trec.stderr).toBe(0);
      const doc = JSON.parse((await json).stdout) as Doc;
      const lines = trec.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t'));
      expect(lines.every((l) => l.length === 3)).toBe(true);
      expect(lines[0]).toEqual(['runid', 'all', 'runA.run']);
      expect(lines[1]).toEqual(['qrels', 'all', 'base']);
      let system = '';
      let qrels: 'base' | 'new' = 'base';
      let values = 0;
      for (const [measure, qid, value] of lines as Array<[string, string, string]>) {
        if (measure === 'runid') system = value;
        else if (measure === 'qrels') qrels = value as 'base' | 'new';
        else if (qid !== 'all') {
          expect(Number(value)).toBe(doc.perQuery.find((p) => p.system === system)!.measures[measure]![qrels][qid]);
          values++;
        }
      }
      expect(values).toBe(6 * MEASURES.length * (30 + 31));
      const records = jsonl.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { system: string; qrels: 'base' | 'new'; measure: string; query: string; value: number });
      expect(records).toHaveLength(values);
      for (const r of records.slice(0, 500))
        expect(r.value).toBe(doc.perQuery.find((p) => p.system === r.system)!.measures[r.measure]![r.qrels][r.query]);
    },
    SLOW,
  );
});
