import { describe, expect, it } from 'vitest';
import { evaluateSystem, evaluationContext } from './evaluate.js';
import { drawLabels, labelShifts, PosteriorParser, prepareLabelDraws, type Posterior } from './label-draws.js';
import { parseMeasures } from './measure-names.js';
import { flipShare, labelInterval, significanceReport } from './significance.js';
import type { Qrels, Run } from './types.js';

const share = (bits: Uint8Array, pairs: number, j: number) => {
  let ones = 0;
  for (let d = 0; d < bits.length / pairs; d++) ones += bits[d * pairs + j]!;
  return ones / (bits.length / pairs);
};

describe('drawLabels', () => {
  const draws = drawLabels([1, 0, 0.5, 0.9], 4000, 7);
  it('never flips a label with p_relevant 1 or 0', () => {
    expect(share(draws, 4, 0)).toBe(1);
    expect(share(draws, 4, 1)).toBe(0);
  });
  it('draws p_relevant 0.5 relevant half the time, and 0.9 nine times in ten', () => {
    expect(share(draws, 4, 2)).toBeGreaterThan(0.47);
    expect(share(draws, 4, 2)).toBeLessThan(0.53);
    expect(share(draws, 4, 3)).toBeGreaterThan(0.88);
    expect(share(draws, 4, 3)).toBeLessThan(0.92);
  });
  it('is the same for the same seed', () => {
    expect(drawLabels([0.5, 0.3], 50, 7)).toEqual(drawLabels([0.5, 0.3], 50, 7));
    expect(drawLabels([0.5, 0.3], 50, 7)).not.toEqual(drawLabels([0.5, 0.3], 50, 8));
  });
});

function parse(lines: string[]): Posterior {
  const parser = new PosteriorParser('p.jsonl');
  lines.forEach((l, i) => parser.addLine(l, i + 1));
  return parser.result();
}

describe('PosteriorParser', () => {
  it('reads p_relevant per pair, ignoring other fields and blank lines', () => {
    const p = parse(['{"query_id":"q1","doc_id":"d1","rel":1,"p_relevant":0.8}', '', '{"query_id":"q1","doc_id":"d2","p_relevant":0}']);
    expect(p.get('q1')?.get('d1')).toEqual({ p: 0.8, line: 1 });
    expect(p.get('q1')?.get('d2')).toEqual({ p: 0, line: 3 });
  });
  it('names file, line and field of bad input', () => {
    expect(() => parse(['nope'])).toThrow(/^p\.jsonl:1: not a JSON object/);
    expect(() => parse(['{"query_id":"q1","doc_id":"d1"}'])).toThrow(/^p\.jsonl:1: p_relevant: expected a number from 0 to 1, got nothing/);
    expect(() => parse(['{"query_id":"q1","doc_id":"d1","p_relevant":1.5}'])).toThrow(/^p\.jsonl:1: p_relevant: .*got 1\.5/);
    expect(() => parse(['{"query_id":"","doc_id":"d1","p_relevant":1}'])).toThrow(/^p\.jsonl:1: query_id: expected a non-empty string/);
    expect(() => parse(['{"query_id":"q1","doc_id":"d1","p_relevant":0.2}', '{"query_id":"q1","doc_id":"d1","p_relevant":0.3}'])).toThrow(
      /^p\.jsonl:2: p_relevant: query "q1" document "d1" has 0.3 here and 0.2 at line 1/,
    );
  });
});

const qrels = (entries: Record<string, Record<string, number>>): Qrels =>
  new Map(Object.entries(entries).map(([q, docs]) => [q, new Map(Object.entries(docs))]));
const posterior = (entries: Record<string, Record<string, number>>): Posterior =>
  new Map(Object.entries(entries).map(([q, docs]) => [q, new Map(Object.entries(docs).map(([d, p], i) => [d, { p, line: i + 1 }]))]));
const options = { draws: 400, seed: 3, samples: 400, resampleSeed: 4 };

describe('prepareLabelDraws', () => {
  const next = qrels({ q1: { a: 1, b: 0, c: 2 }, q2: { a: 1 }, q3: { a: 0 } });
  it('keeps only pairs whose label the posterior leaves in doubt', () => {
    const draws = prepareLabelDraws(
      'p.jsonl',
      next,
      posterior({ q1: { a: 1, b: 0.3, c: 0.9 }, q2: { a: 1 }, q3: { a: 1 } }),
      ['q1', 'q2', 'q3'],
      options,
    );
    expect(draws.queries.map((q) => [q.index, q.docs])).toEqual([
      [0, ['b', 'c']],
      [2, ['a']],
    ]);
    // a grade-2 label drawn relevant stays 2; the posterior that always overturns a label draws it so
    expect([...draws.queries[0]!.relevantGrade]).toEqual([1, 2]);
    expect(share(draws.relevant, draws.pairs, 2)).toBe(1);
    expect(draws.newQueries).toBe(3);
  });
  it('counts the bootstrap samples: every sample draws as many queries as there are', () => {
    const draws = prepareLabelDraws('p.jsonl', next, posterior({ q1: { b: 0.5 } }), ['q1', 'q2', 'q3'], options);
    expect([...draws.newRows].every((n) => n === 3)).toBe(true);
    const mean = draws.counts.reduce((a, c) => a + c, 0) / draws.counts.length;
    expect(mean).toBeGreaterThan(0.85);
    expect(mean).toBeLessThan(1.15);
  });
  it('refuses a posterior pair the new qrels lack, naming its line', () => {
    expect(() => prepareLabelDraws('p.jsonl', next, posterior({ q1: { a: 1, z: 0.5 } }), ['q1', 'q2', 'q3'], options)).toThrow(
      /^p\.jsonl:2: query "q1" document "z" is not in the new qrels/,
    );
  });
});

describe('labelShifts', () => {
  it('sums each draw’s value changes, measuring each distinct draw of a query once', () => {
    const next = qrels({ q1: { a: 1, b: 0 } });
    const draws = prepareLabelDraws('p.jsonl', next, posterior({ q1: { a: 0.5, b: 0.5 } }), ['q1'], options);
    let measured = 0;
    const shifts = labelShifts(
      draws,
      1,
      () => 1,
      (_, judgments) => {
        measured++;
        return [[...judgments.grades.values()].filter((g) => g >= 1).length];
      },
    );
    expect(measured).toBeLessThanOrEqual(3);
    const d = (k: number) => [draws.relevant[k * 2]!, draws.relevant[k * 2 + 1]!];
    for (let k = 0; k < 20; k++) expect(shifts[0]!.fixed[k]).toBe(d(k)[0]! + d(k)[1]! - 1);
  });
});

describe('flipShare and labelInterval', () => {
  it('counts the draws that give the difference another sign', () => {
    expect(flipShare(0.1, Float64Array.from([0, 0, -2, 0]), Float64Array.from([0, 0, 0, -1]), 10)).toBe(0.25);
    expect(flipShare(0, Float64Array.from([0, 1]), Float64Array.from([0, 0]), 10)).toBe(0.5);
  });
  it('widens the query-only interval on both sides by the far end of the label draws from the mean', () => {
    const spread = labelInterval(0.5, { low: 0.4, high: 0.6 }, null, { low: 0.48, high: 0.5 });
    expect(spread.low).toBeCloseTo(0.38, 12);
    expect(spread.high).toBeCloseTo(0.62, 12);
    const shifted = labelInterval(0.5, { low: 0.4, high: 0.6 }, null, { low: 0.42, high: 0.44 });
    expect(shifted.low).toBeCloseTo(0.32, 12);
    expect(shifted.high).toBeCloseTo(0.68, 12);
    expect(labelInterval(0.5, { low: 0.4, high: 0.6 }, { low: 0.3, high: 0.61 }, { low: 0.5, high: 0.5 })).toEqual({
      low: 0.3,
      high: 0.61,
    });
  });
});

describe('an evaluation with label draws', () => {
  const measures = parseMeasures(['P@2']);
  const base = qrels({ q1: { a: 1, b: 0 }, q2: { a: 1 } });
  const next = qrels({ q1: { a: 1, b: 1, c: 0 }, q2: { a: 1, c: 0 } });
  const run = (docs: string[]): Run => new Map(['q1', 'q2'].map((q) => [q, docs.map((docid, i) => ({ docid, score: 10 - i }))]));
  const report = (p: Posterior, seed = 1) => {
    const ctx = evaluationContext(base, next, measures);
    ctx.labels = prepareLabelDraws('p.jsonl', next, p, ctx.queryIds, { draws: 200, seed, samples: 200, resampleSeed: seed + 1 });
    const evaluations = [
      evaluateSystem(ctx, { name: 'x', run: run(['a', 'b']) }),
      evaluateSystem(ctx, { name: 'y', run: run(['c', 'a']) }),
    ];
    return significanceReport(ctx, evaluations, { trials: 0, samples: 200, seed });
  };
  it('adds withLabels to the new intervals, pFlip to the new pairs and withLabels to τ', () => {
    const r = report(posterior({ q1: { b: 0.5, c: 0.5 } }));
    const x = r.intervals.find((i) => i.system === 'x' && i.qrels === 'new')!;
    expect(x.withLabels!.low).toBeLessThanOrEqual(x.low!);
    expect(x.withLabels!.high).toBeGreaterThanOrEqual(x.high!);
    expect(r.intervals.find((i) => i.qrels === 'base')).not.toHaveProperty('withLabels');
    const pair = r.significance.find((s) => s.qrels === 'new')!;
    expect(pair.pFlip).toBeGreaterThan(0);
    expect(r.significance.find((s) => s.qrels === 'base')).not.toHaveProperty('pFlip');
    expect(r.rankCorrelation[0]!.withLabels).toBeDefined();
  });
  it('gives pFlip 0 and the query-only interval when no label is in doubt', () => {
    const r = report(posterior({ q1: { b: 1, c: 0 } }));
    const x = r.intervals.find((i) => i.system === 'x' && i.qrels === 'new')!;
    expect(x.withLabels).toEqual({ low: x.low, high: x.high });
    expect(r.significance.find((s) => s.qrels === 'new')!.pFlip).toBe(0);
  });
  it('is the same for the same seed', () => {
    expect(report(posterior({ q1: { b: 0.5, c: 0.5 } }), 5)).toEqual(report(posterior({ q1: { b: 0.5, c: 0.5 } }), 5));
  });
});
