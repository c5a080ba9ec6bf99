import { describe, expect, it } from 'vitest';
import { compareSystems, evaluateSystem, evaluationContext } from './evaluate.js';
import { parseMeasures } from './measure-names.js';
import { perQueryLines } from './per-query.js';
import { parseQrelsText } from './qrels-parse.js';
import { parseRunText } from './run-parse.js';
import { significanceReport } from './significance.js';
import { pairedTTest } from './statistics.js';

const qrels = (text: string) => parseQrelsText(text, 'q.txt', 'trec').qrels;
const run = (text: string) => parseRunText(text, 'r.run').run;

// base judges q1..q3; the new qrels add q4 and a relevant document b to q1
const base = qrels('q1 0 a 1\nq1 0 x 0\nq2 0 c 1\nq3 0 d 1\nq3 0 e 0\n');
const next = qrels('q1 0 a 1\nq1 0 x 0\nq1 0 b 2\nq2 0 c 1\nq3 0 d 1\nq3 0 e 0\nq4 0 f 1\n');
const systems = [
  { name: 's1', run: run('q1 Q0 a 1 2 s\nq1 Q0 b 2 1 s\nq2 Q0 c 1 1 s\nq3 Q0 e 1 2 s\nq3 Q0 d 2 1 s\n') },
  { name: 's2', run: run('q1 Q0 b 1 2 s\nq1 Q0 a 2 1 s\nq2 Q0 z 1 1 s\nq4 Q0 f 1 1 s\n') },
  { name: 's3', run: run('q1 Q0 x 1 2 s\nq3 Q0 d 1 1 s\n') },
];
const ctx = evaluationContext(base, next, parseMeasures(['RR', 'Hole@1']));
const evaluations = systems.map((s) => evaluateSystem(ctx, s));
const report = significanceReport(ctx, evaluations, { trials: 200, samples: 100, seed: 3 });

describe('significanceReport', () => {
  it('tests every pair once per measure and qrels (Hole@k under the new qrels only), on that qrels’ queries', () => {
    expect(report.significance.map((s) => `${s.measure} ${s.qrels} ${s.a}-${s.b}`)).toEqual([
      'RR base s1-s2',
      'RR base s1-s3',
      'RR base s2-s3',
      'RR new s1-s2',
      'RR new s1-s3',
      'RR new s2-s3',
      'Hole@1 new s1-s2',
      'Hole@1 new s1-s3',
      'Hole@1 new s2-s3',
    ]);
    // RR per query, base q1..q3: s1 1, 1, 1/2; s2 1/2, 0, 0; new q1..q4: s1 1, 1, 1/2, 0; s2 1, 0, 0, 1
    const base12 = report.significance[0]!;
    expect(base12.meanDifference).toBeCloseTo((1 + 1 + 0.5) / 3 - 0.5 / 3, 15);
    expect(base12.tTest).toEqual(pairedTTest([1, 1, 0.5], [0.5, 0, 0]));
    expect(report.significance[3]!.tTest).toEqual(pairedTTest([1, 1, 0.5, 0], [1, 0, 0, 1]));
  });

  it('adjusts p by Holm within each measure and qrels, never below the raw p', () => {
    for (const s of report.significance) if (s.tTest.p !== null) expect(s.pHolm!).toBeGreaterThanOrEqual(s.tTest.p);
  });

  it('gives intervals for every mean, change and rank correlation, reproducibly', () => {
    expect(report.intervals).toHaveLength(3 * 2 + 3); // RR base+new, Hole@1 new
    for (const i of report.intervals) {
      expect(i.low!).toBeLessThanOrEqual(i.high!);
      expect(i.low! - 1e-12).toBeLessThanOrEqual(i.mean);
    }
    expect(report.changes.map((c) => [c.system, c.measure])).toEqual([
      ['s1', 'RR'],
      ['s2', 'RR'],
      ['s3', 'RR'],
    ]);
    expect(report.rankCorrelation.map((r) => r.measure)).toEqual(['RR']);
    expect(significanceReport(ctx, evaluations, { trials: 200, samples: 100, seed: 3 })).toEqual(report);
  });

  it('skips the randomization test and the intervals when asked', () => {
    const none = significanceReport(ctx, evaluations, { trials: 0, samples: 0, seed: 1 });
    expect(none.significance.every((s) => s.randomization.p === null)).toBe(true);
    expect(none.intervals.every((i) => i.low === null && i.high === null)).toBe(true);
  });
});

describe('per-query lines', () => {
  const evaluation = compareSystems(ctx, evaluations);
  it('writes trec_eval -q three columns per run and qrels, means as qid all', () => {
    const lines = [...perQueryLines(evaluation, 'trec')];
    expect(lines.slice(0, 8)).toEqual([
      'runid\tall\ts1',
      'qrels\tall\tbase',
      'RR\tq1\t1',
      'RR\tq2\t1',
      'RR\tq3\t0.5',
      `RR\tall\t${2.5 / 3}`,
      'runid\tall\ts1',
      'qrels\tall\tnew',
    ]);
    expect(lines).toContain('Hole@1\tq1\t0');
  });
  it('writes one JSON object per value', () => {
    const first = JSON.parse([...perQueryLines(evaluation, 'jsonl')][0]!) as unknown;
    expect(first).toEqual({ system: 's1', qrels: 'base', measure: 'RR', query: 'q1', value: 1 });
  });
});
