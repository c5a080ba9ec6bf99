import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import {
  compareSystems,
  evaluateSystem,
  evaluationContext,
  pairSignificance,
  parseMeasures,
  readQrels,
  readRun,
} from '../../src/qrels/index.js';

/**
 * Values computed by ir_measures (pytrec_eval / trec_eval for most measures; its
 * msmarco provider for RR@k and judged provider for Judged@k) and scipy (τ-b, paired
 * t-test) with tools/fixtures/eval_golden.py, on fixture files read here by qrelay's own
 * readers. Measures must match to 1e-9, t-test p-values to 1e-6.
 */
const dir = join(paths.root, 'test', 'fixtures', 'eval');

interface Golden {
  references: Record<string, string>;
  sets: Record<
    string,
    {
      base: string;
      new: string;
      runs: string[];
      measures: string[];
      relLevel?: number;
      systems: Record<string, Record<'base' | 'new', Record<string, { mean: number; perQuery: Record<string, number> }>>>;
      kendallTau: Record<string, number | null>;
      tTest: Record<
        string,
        Record<'base' | 'new', Array<{ a: string; b: string; meanDifference: number; t: number | null; p: number | null }>>
      >;
    }
  >;
}

const golden = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Golden;
const MEASURE_TOLERANCE = 1e-9;
const P_TOLERANCE = 1e-6;

function near(actual: number | null, expected: number | null, where: string, tolerance = MEASURE_TOLERANCE): void {
  if (expected === null || actual === null) {
    expect(actual, where).toBe(expected);
    return;
  }
  expect(Math.abs(actual - expected), `${where}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

it('records the versions of the references', () => {
  expect(Object.keys(golden.references)).toEqual(expect.arrayContaining(['ir_measures', 'pytrec_eval', 'scipy']));
});

describe.each(Object.entries(golden.sets))('golden set %s', (_name, set) => {
  const evaluated = (async () => {
    const base = (await readQrels(join(dir, set.base))).qrels;
    const next = (await readQrels(join(dir, set.new))).qrels;
    const ctx = evaluationContext(base, next, parseMeasures(set.measures), set.relLevel);
    const evaluations = [];
    for (const r of set.runs) {
      const run = await readRun(join(dir, r));
      evaluations.push(evaluateSystem(ctx, { name: basename(r), run: run.run }));
    }
    return { ctx, evaluations, report: compareSystems(ctx, evaluations) };
  })();

  it('matches ir_measures on every per-query value and mean, and scipy on τ-b', async () => {
    const { report } = await evaluated;
    let compared = 0;
    for (const result of report.measures) {
      for (const score of result.systems) {
        const expected = set.systems[score.system]!;
        near(score.base, expected.base[result.measure]!.mean, `${score.system} ${result.measure} base mean`);
        near(score.new, expected.new[result.measure]!.mean, `${score.system} ${result.measure} new mean`);
        const perQuery = report.perQuery.find((p) => p.system === score.system)!.measures[result.measure]!;
        for (const which of ['base', 'new'] as const) {
          const want = expected[which][result.measure]!.perQuery;
          const got = perQuery[which]!;
          expect(Object.keys(got).sort(), `${score.system} ${result.measure} ${which} queries`).toEqual(Object.keys(want).sort());
          for (const [qid, value] of Object.entries(want)) {
            near(got[qid]!, value, `${score.system} ${result.measure} ${which} ${qid}`);
            compared++;
          }
        }
      }
      near(result.kendallTau, set.kendallTau[result.measure]!, `${result.measure} τ-b`);
    }
    expect(report.measures.map((m) => m.measure)).toEqual(set.measures);
    expect(compared).toBeGreaterThan(100);
  });

  it("agrees with scipy's paired t-test for every pair of systems", async () => {
    const { ctx, evaluations } = await evaluated;
    const tests = pairSignificance(ctx, evaluations, { trials: 0, samples: 0, seed: 1 });
    let compared = 0;
    for (const [measure, sides] of Object.entries(set.tTest)) {
      for (const [qrels, pairs] of Object.entries(sides)) {
        for (const want of pairs) {
          const got = tests.find((t) => t.measure === measure && t.qrels === qrels && t.a === want.a && t.b === want.b)!;
          const where = `${measure} ${qrels} ${want.a} vs ${want.b}`;
          expect(got, where).toBeDefined();
          near(got.meanDifference, want.meanDifference, `${where} mean difference`);
          near(got.tTest.p, want.p, `${where} p`, P_TOLERANCE);
          if (want.t !== null) near(got.tTest.t, want.t, `${where} t`, 1e-6 * Math.max(1, Math.abs(want.t)));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
});
