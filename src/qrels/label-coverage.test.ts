import { describe, expect, it } from 'vitest';
import { evaluateSystem, evaluationContext } from './evaluate.js';
import { prepareLabelDraws, type Posterior } from './label-draws.js';
import { parseMeasures } from './measure-names.js';
import { agreementError, goldErrorBound, posteriorOf } from './posterior.js';
import { significanceReport, subSeed } from './significance.js';
import { seededRandom, type SeededRandom } from './statistics.js';
import type { Qrels, RankedDoc, Run } from './types.js';

/**
 * Coverage of `withLabels` in simulation (pure, seeded): batches with a known truth, label
 * errors that correlate with system quality, and runs of varied quality.
 *
 * Each document has a latent quality z; it is truly relevant with probability
 * sigmoid(2z − 1), so documents high in z (those strong systems put on top) are likelier
 * relevant than the batch's average. Half of each query's pool is judged in the base (the
 * truth); the crowd labels the other half by a majority of 3 votes, each wrong with the
 * crowd's error; the posterior is the one-coin posterior of the votes (prior ½: it cannot
 * see z, which is what makes the vote-only draws centre on the wrong side for strong
 * systems), floored by the gold checks (posterior.ts). A system of quality α ranks by
 * α·z + noise. The truth is the run's mean under the true labels on the same queries.
 */

const QUERIES = 40;
const POOL = 24;
const SYSTEMS = [0, 0.4, 0.8, 1.2, 1.8, 2.6, 3.5, 5];
const MEASURES = parseMeasures(['nDCG@10', 'P@10', 'AP']);
const SAMPLES = 200;

function normal(random: SeededRandom): number {
  const u = 1 - random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

interface Batch {
  truth: Qrels;
  merged: Qrels;
  posterior: Posterior;
  runs: Array<{ name: string; run: Run }>;
}

/**
 * `hardShare`: items on which every worker errs with probability 0.57 (the simulated
 * crowd's hard items: errors the workers share, which no vote-based bound sees); the
 * batch's forecast then measures the labels' error against the truth (`labelError`).
 */
function simulateBatch(seed: number, voteError: number, hardShare = 0): Batch {
  const random = seededRandom(seed);
  const truth: Qrels = new Map();
  const merged: Qrels = new Map();
  const posterior: Posterior = new Map();
  const quality = new Map<string, number>();
  // the gold checks the batch's error bound comes from: 200 answers at the crowd's error (checks are never hard)
  let wrong = 0;
  for (let c = 0; c < 200; c++) if (random.next() < voteError) wrong++;
  const crowd: Array<{ qid: string; doc: string; yes: number; rel: number }> = [];
  for (let q = 0; q < QUERIES; q++) {
    const qid = `q${q}`;
    const t = new Map<string, number>();
    const m = new Map<string, number>();
    const p = new Map<string, { p: number; line: number }>();
    for (let d = 0; d < POOL; d++) {
      const doc = `d${d}`;
      const z = normal(random);
      quality.set(`${qid}|${doc}`, z);
      const rel = random.next() < 1 / (1 + Math.exp(-(2 * z - 1))) ? 1 : 0;
      t.set(doc, rel);
      if (d % 2 === 0) {
        m.set(doc, rel);
        continue;
      }
      const error = random.next() < hardShare ? 0.57 : voteError;
      let yes = 0;
      for (let v = 0; v < 3; v++) if (random.next() < error !== (rel === 1)) yes++;
      m.set(doc, yes >= 2 ? 1 : 0);
      crowd.push({ qid, doc, yes, rel });
    }
    truth.set(qid, t);
    merged.set(qid, m);
    posterior.set(qid, p);
  }
  const votes = crowd.map((c) => ({ yes: c.yes, no: 3 - c.yes }));
  const model = {
    crowd: new Map<string, number>(),
    voteError: Math.max(goldErrorBound(wrong, 200), agreementError(votes)),
    ...(hardShare > 0 && { labelError: crowd.filter((c) => (c.yes >= 2 ? 1 : 0) !== c.rel).length / crowd.length }),
  };
  crowd.forEach((c, i) => {
    const entry = { query_id: c.qid, doc_id: c.doc, rel: c.yes >= 2 ? 1 : 0, source: 'human-majority' as const, votes: votes[i]! };
    posterior.get(c.qid)!.set(c.doc, { p: posteriorOf(entry, model), line: i + 1 });
  });
  const runs = SYSTEMS.map((alpha, s) => {
    const run: Run = new Map();
    for (let q = 0; q < QUERIES; q++) {
      const qid = `q${q}`;
      const ranking: RankedDoc[] = [];
      for (let d = 0; d < POOL; d++) ranking.push({ docid: `d${d}`, score: alpha * quality.get(`${qid}|d${d}`)! + normal(random) });
      ranking.sort((a, b) => b.score - a.score);
      run.set(qid, ranking);
    }
    return { name: `s${s}`, run };
  });
  return { truth, merged, posterior, runs };
}

interface Figures {
  intervals: number;
  coveredQueryOnly: number;
  coveredWithLabels: number;
  widthRatios: number[];
  /** pFlip of pairs the truth and the merged qrels order the same way by more than 0.1. */
  clearPFlips: number[];
}

function measureBatch(batch: Batch, seed: number, figures: Figures): void {
  const options = { trials: 0, samples: SAMPLES, seed };
  const ctx = evaluationContext(batch.truth, batch.merged, MEASURES);
  ctx.labels = prepareLabelDraws('posterior.jsonl', batch.merged, batch.posterior, ctx.queryIds, {
    draws: SAMPLES,
    seed: subSeed(seed, -2),
    samples: SAMPLES,
    resampleSeed: subSeed(seed, -1),
  });
  // the base side of this context is the truth: its means are the targets
  const evaluations = batch.runs.map((r) => evaluateSystem(ctx, r));
  const report = significanceReport(ctx, evaluations, options);
  for (const interval of report.intervals) {
    if (interval.qrels !== 'new') continue;
    const target = evaluations.find((e) => e.system === interval.system)!.means[interval.measure]!.base!;
    const wl = interval.withLabels!;
    figures.intervals++;
    if (interval.low! <= target && target <= interval.high!) figures.coveredQueryOnly++;
    if (wl.low <= target && target <= wl.high) figures.coveredWithLabels++;
    figures.widthRatios.push((wl.high - wl.low) / Math.max(1e-9, interval.high! - interval.low!));
  }
  for (const pair of report.significance) {
    if (pair.qrels !== 'new') continue;
    const truthPair = report.significance.find(
      (x) => x.qrels === 'base' && x.measure === pair.measure && x.a === pair.a && x.b === pair.b,
    )!;
    if (
      Math.sign(truthPair.meanDifference) === Math.sign(pair.meanDifference) &&
      Math.min(Math.abs(truthPair.meanDifference), Math.abs(pair.meanDifference)) > 0.1
    )
      figures.clearPFlips.push(pair.pFlip!);
  }
}

function simulate(batches: number, seed: number, hardShare = 0): Figures {
  const figures: Figures = { intervals: 0, coveredQueryOnly: 0, coveredWithLabels: 0, widthRatios: [], clearPFlips: [] };
  for (let b = 0; b < batches; b++) measureBatch(simulateBatch(seed + b, [0.1, 0.2, 0.3][b % 3]!, hardShare), seed + b, figures);
  return figures;
}

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

describe.each([
  { crowd: 'independent errors', hardShare: 0 },
  { crowd: '15% hard items (shared errors), floored by the forecast', hardShare: 0.15 },
])('withLabels in simulation: $crowd', ({ hardShare }) => {
  const figures = simulate(12, 1000, hardShare);
  const coverage = figures.coveredWithLabels / figures.intervals;
  const queryOnly = figures.coveredQueryOnly / figures.intervals;
  if (process.env.QRELAY_PRINT_COVERAGE)
    console.info(
      JSON.stringify({
        hardShare,
        intervals: figures.intervals,
        coverage,
        queryOnly,
        meanWidthRatio: mean(figures.widthRatios),
        maxWidthRatio: Math.max(...figures.widthRatios),
        clearPairs: figures.clearPFlips.length,
        maxClearPFlip: Math.max(...figures.clearPFlips),
      }),
    );

  it('covers the mean under the true labels in at least 90% of the 95% intervals, and at least as often as the query-only ones', () => {
    expect(figures.intervals).toBe(12 * SYSTEMS.length * MEASURES.length);
    expect(coverage).toBeGreaterThanOrEqual(0.9);
    expect(coverage).toBeGreaterThanOrEqual(queryOnly);
  });

  it('is at most about three times as wide as the query-only interval', () => {
    expect(mean(figures.widthRatios)).toBeLessThanOrEqual(3);
    for (const r of figures.widthRatios) expect(r).toBeGreaterThanOrEqual(1);
  });

  it('gives pFlip near 0 to pairs the truth and the merged qrels order the same way by a wide margin', () => {
    expect(figures.clearPFlips.length).toBeGreaterThan(50);
    expect(Math.max(...figures.clearPFlips)).toBeLessThanOrEqual(0.02);
  });

  it('gives the same figures for the same seed', () => {
    expect(simulate(2, 1000, hardShare)).toEqual(simulate(2, 1000, hardShare));
  });
});
