import { describe, expect, it } from 'vitest';
import { holesSection } from '../reports/render/holes-section.js';
import { compareSystems, evaluateSystem, evaluationContext } from './evaluate.js';
import { changedComparisons, NAMED_LABELS } from './holes-comparisons.js';
import { holesMattered } from './holes-matter.js';
import { prepareLabelDraws, type Posterior } from './label-draws.js';
import { parseMeasures } from './measure-names.js';
import { parseQrelsText } from './qrels-parse.js';
import { parseRunText } from './run-parse.js';
import { significanceReport, subSeed } from './significance.js';

const QUERIES = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'];
const qrels = (text: string) => parseQrelsText(text, 'q.txt', 'trec').qrels;
const run = (lines: (q: string) => string[]) => parseRunText(QUERIES.flatMap(lines).join('\n'), 'r.run').run;

// Base: every query judges `a` relevant. The adjudication adds `b` relevant: found by s2 first, by s1 at rank 4.
const base = qrels(QUERIES.map((q) => `${q} 0 a 1`).join('\n'));
const next = qrels(QUERIES.flatMap((q) => [`${q} 0 a 1`, `${q} 0 b 1`]).join('\n'));
const systems = [
  { name: 's1', run: run((q) => [`${q} Q0 a 1 9 s`, `${q} Q0 x 2 8 s`, `${q} Q0 y 3 7 s`, `${q} Q0 b 4 6 s`]) },
  { name: 's2', run: run((q) => [`${q} Q0 b 1 9 s`, `${q} Q0 a 2 8 s`]) },
  { name: 's3', run: run((q) => [`${q} Q0 z 1 9 s`, `${q} Q0 w 2 8 s`, `${q} Q0 a 3 7 s`]) },
];
const posteriorOfB = (p: number): Posterior => new Map(QUERIES.map((q) => [q, new Map([['b', { p, line: 1 }]])]));
const options = { trials: 200, samples: 400, seed: 5 };
const MEASURE = 'nDCG@10';

// nDCG@10 of s1 after: a at 1, b at 4, over the ideal a, b at 1, 2; of s2 with b not relevant: a at 2
const s1After = (1 + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3));
const s2WithoutB = 1 / Math.log2(3);

function evaluate(p: number | null, costPerLabel: number | null = 35) {
  const ctx = evaluationContext(base, next, parseMeasures([MEASURE]));
  if (p !== null) {
    ctx.labels = prepareLabelDraws('p.jsonl', next, posteriorOfB(p), ctx.queryIds, {
      draws: options.samples,
      seed: subSeed(options.seed, -2),
      samples: options.samples,
      resampleSeed: subSeed(options.seed, -1),
    });
    ctx.labelEffects = true;
  }
  const evaluations = systems.map((s) => evaluateSystem(ctx, s));
  const significance = significanceReport(ctx, evaluations, options);
  const changed = changedComparisons({ ctx, evaluations, significance, options, measure: MEASURE, costPerLabel });
  return { ctx, evaluations, significance, ...changed };
}

describe('labelEffects (through evaluateSystem)', () => {
  it("gives each run's value change on the label's query when that label alone turns", () => {
    const { evaluations } = evaluate(0.5);
    // b turned not relevant: s1 has a at 1 and the ideal is a alone (1); s2 has a at 2
    expect([...evaluations[0]!.labelEffects![MEASURE]!].map((v) => v.toFixed(12))).toEqual(QUERIES.map(() => (1 - s1After).toFixed(12)));
    expect([...evaluations[1]!.labelEffects![MEASURE]!].map((v) => v.toFixed(12))).toEqual(QUERIES.map(() => (s2WithoutB - 1).toFixed(12)));
  });
});

describe('changedComparisons', () => {
  it('lists the pairs whose order or significance changed, oriented by the order after', () => {
    const { comparisons, significance } = evaluate(0.5);
    const listed = comparisons.map((c) => `${c.above}>${c.below}`);
    // s1 stays ahead of s3 by a constant margin (significant before and after): not listed
    expect(listed).toContain('s2>s1');
    expect(listed).not.toContain('s1>s3');
    expect(listed).not.toContain('s3>s1');
    for (const c of comparisons) {
      const before = significance.significance.find(
        (p) => p.qrels === 'base' && [p.a, p.b].sort().join() === [c.above, c.below].sort().join(),
      )!;
      expect(c.orderChanged || c.significantBefore !== c.significantAfter).toBe(true);
      expect(c.difference).toBeGreaterThanOrEqual(0);
      expect(Math.abs(c.differenceBefore)).toBeCloseTo(Math.abs(before.meanDifference), 12);
    }
    const swap = comparisons.find((c) => c.above === 's2')!;
    expect(swap.orderChanged).toBe(true);
    expect(swap.difference).toBeCloseTo(1 - s1After, 12);
    expect(swap.differenceBefore).toBeCloseTo(s2WithoutB - 1, 12);
    // every query differs by the same amount: the interval over queries is that point
    expect(swap.interval!.low).toBeCloseTo(1 - s1After, 12);
    expect(swap.interval!.high).toBeCloseTo(1 - s1After, 12);
  });

  it("carries the labels' doubt: a wider interval, the pair's pFlip, and how many labels settle it at what cost", () => {
    const { comparisons, significance, toSettle } = evaluate(0.5);
    const swap = comparisons.find((c) => c.above === 's2' && c.below === 's1')!;
    const pair = significance.significance.find((p) => p.qrels === 'new' && p.a === 's1' && p.b === 's2')!;
    expect(swap.pFlip).toBe(pair.pFlip);
    // each b turns with probability ½ and reverses that query's order: the sign turns in most draws
    expect(swap.pFlip!).toBeGreaterThan(0.5);
    expect(swap.verdict).toBe('depends on the labels');
    expect(swap.withLabels!.low).toBeLessThan(swap.interval!.low);
    expect(swap.withLabels!.high).toBeGreaterThanOrEqual(swap.interval!.high);
    const settle = swap.settle!;
    expect(settle.labels).toBeGreaterThanOrEqual(1);
    expect(settle.labels).toBeLessThanOrEqual(QUERIES.length);
    expect(settle.cost).toBe(settle.labels * 35);
    expect(settle.remainingDoubt).toBeLessThan(0.05);
    expect(settle.first).toHaveLength(Math.min(settle.labels, NAMED_LABELS));
    for (const l of settle.first) expect([QUERIES.includes(l.query), l.doc, l.p, l.grade]).toEqual([true, 'b', 0.5, 1]);
    // the b labels are the only ones in doubt: the union is at most the six of them
    expect(toSettle.labels).toBeGreaterThanOrEqual(settle.labels);
    expect(toSettle.labels).toBeLessThanOrEqual(QUERIES.length);
    expect(toSettle.cost).toBe(toSettle.labels * 35);
  });

  it('calls a comparison settled when the labels it rests on are near certain, and estimates nothing for it', () => {
    const { comparisons, toSettle } = evaluate(0.999);
    const swap = comparisons.find((c) => c.above === 's2' && c.below === 's1')!;
    expect(swap.pFlip!).toBeLessThan(0.05);
    expect(swap.verdict).toBe('settled');
    expect(swap.settle).toBeNull();
    expect(toSettle).toEqual({ labels: 0, cost: 0 });
  });

  it('leaves the label fields null without posteriors, and the cost null without a cost per label', () => {
    const without = evaluate(null).comparisons.find((c) => c.above === 's2')!;
    expect([without.withLabels, without.pFlip, without.verdict, without.settle]).toEqual([null, null, null, null]);
    const noCost = evaluate(0.5, null);
    expect(noCost.comparisons.find((c) => c.above === 's2')!.settle!.cost).toBeNull();
    expect(noCost.toSettle.cost).toBeNull();
  });

  it('is the same under the same seed', () => {
    expect(JSON.stringify(evaluate(0.5).comparisons)).toBe(JSON.stringify(evaluate(0.5).comparisons));
  });
});

describe("the report's section", () => {
  const render = (p: number | null) => {
    const { ctx, evaluations, significance, comparisons, toSettle } = evaluate(p);
    const h = holesMattered(compareSystems(ctx, evaluations), significance, MEASURE, MEASURE, {
      comparisons,
      toSettle,
      costPerLabel: 35,
      labelPosteriors: p !== null,
    });
    return JSON.stringify(holesSection(h).blocks);
  };

  it('lists the changed comparisons with their verdict, the labels to settle and their cost', () => {
    const text = render(0.5);
    expect(text).toContain('Comparisons whose order or significance changed');
    expect(text).toMatch(
      /"s2","s1","order swapped[^"]*","\+0\.\d{3}","\[[^"]+\]","\[[^"]+\]","\d+\.\d%","depends on the labels","\d","\$\d+\.\d\d"/,
    );
    expect(text).toContain('at $0.35 per label) would be expected to settle them');
    expect(text).toContain('Labels to re-judge first');
  });

  it('says when every comparison is settled, and when the posteriors were not known', () => {
    expect(render(0.999)).toContain('is settled: the labels');
    expect(render(null)).toContain("The labels' posteriors were not known");
  });
});
