import { fleissKappaOfCounts } from '../aggregate/fleiss-kappa.js';
import { seededRandom, type SeededRandom } from '../qrels/statistics.js';
import { balancedAccuracy } from '../quality/accuracy.js';
import { quantile } from '../aggregate/agreement-interval.js';

/**
 * The debate experiment's analysis (pure): per arm, balanced accuracy on the checks,
 * Fleiss' κ over the arm's items and seconds per item, each with a 95% interval, and the
 * difference between the arms (debate minus no-debate) with its interval and a test.
 * docs/experiment.md gives the design this analyses.
 *
 * The worker is the unit of randomisation (between-subjects), and a worker's answers are
 * correlated (one person's skill and care), so every interval resamples WORKERS:
 *
 * - Arm intervals: percentile bootstrap, each replicate draws the arm's workers with
 *   replacement (as many as it has) and recomputes the statistic on their pooled
 *   answers (a cluster bootstrap).
 * - κ on a replicate: a worker drawn m times counts m times, but a worker is never paired
 *   with a copy of themselves (that pair would always agree and bias κ upwards): item i's
 *   agreement is (Σ_k c_ik² − Σ_w m_w²) / (r_i² − Σ_w m_w²), which with every m_w = 1 is
 *   exactly Fleiss' r_ik(r_ik − 1) / (r_i(r_i − 1)).
 * - Difference interval: the arms are resampled independently (their workers are
 *   different people); percentile interval of the replicates' differences.
 * - Test: two-sided permutation test over workers. Under the null hypothesis that the
 *   debate history makes no difference, the arm labels are exchangeable between workers;
 *   each trial reassigns the labels at random keeping the arm sizes, and
 *   p = (1 + trials with |difference| ≥ observed |difference|) / (1 + trials)
 *   (Phipson & Smyth 2010: never 0).
 *
 * A statistic undefined on a replicate (no checks of a class, κ without pairs or with one
 * category) is left out; with fewer than 90% of replicates defined the interval is null
 * (as agreementInterval does): it would describe a different population.
 */

export type ArmName = 'debate' | 'no-debate';
export const ARM_NAMES: readonly ArmName[] = ['debate', 'no-debate'];

export interface Estimate {
  value: number | null;
  low: number | null;
  high: number | null;
}
export interface ArmSummary {
  arm: ArmName;
  workers: number;
  items: number;
  balancedAccuracy: Estimate;
  kappa: Estimate;
  secondsPerItem: Estimate;
}
export interface Difference extends Estimate {
  p: number | null;
  test: string;
}
export interface ExperimentSummary {
  factor: 'debate';
  design: 'between-subjects';
  /** Always both arms, 'debate' first. */
  arms: ArmSummary[];
  /** debate minus no-debate. */
  difference: { balancedAccuracy: Difference; kappa: Difference; secondsPerItem: Difference };
}
export interface ArmObservations {
  arm: ArmName;
  /** Attention/gold checks answered. */
  checks: { workerId: string; expected: boolean; answer: boolean }[];
  /** Answers to real items, counted or not: each worker's first answer per item. */
  votes: { itemId: string; workerId: string; answer: boolean }[];
  /** Per assignment: items on the page, work time. */
  seconds: { workerId: string; items: number; seconds: number }[];
}
export interface CompareOptions {
  seed: number;
  /** Bootstrap replicates and permutation trials; 1000 unless given. */
  resamples?: number;
}

const LEVEL = 0.95;
const DEFINED_SHARE = 0.9;
const STATISTICS = ['balancedAccuracy', 'kappa', 'secondsPerItem'] as const;
type Statistic = (typeof STATISTICS)[number];
type Values = Record<Statistic, number | null>;

/** Both arms' answers, indexed once: workers 0..n-1 (debate's first), items, per-worker sums. */
interface Indexed {
  /** Worker indices per arm, in the order of ARM_NAMES. */
  readonly armWorkers: readonly (readonly number[])[];
  readonly workerCount: number;
  readonly itemCount: number;
  /** Per worker: [positive checks, of them right, negative checks, of them right]. */
  readonly checks: Float64Array;
  readonly seconds: Float64Array;
  readonly pageItems: Float64Array;
  readonly voteWorker: Int32Array;
  readonly voteItem: Int32Array;
  /** 0 for a yes, 1 for a no. */
  readonly voteCategory: Uint8Array;
}

export function compareArms(arms: ArmObservations[], options: CompareOptions): ExperimentSummary {
  const resamples = options.resamples ?? 1000;
  if (!Number.isSafeInteger(resamples) || resamples < 1)
    throw new RangeError(`compareArms: resamples ${resamples} is not a whole number of 1 or more; give e.g. 1000`);
  if (!Number.isFinite(options.seed)) throw new RangeError(`compareArms: seed ${options.seed} is not a number; give a whole number`);
  const data = indexArms(arms);
  const random = seededRandom(options.seed);

  const observed = ARM_NAMES.map((_, a) => statisticsOf(data, unitWeights(data, data.armWorkers[a]!)));
  const replicates = ARM_NAMES.map(() => emptyReplicates());
  const differences = emptyReplicates();
  for (let r = 0; r < resamples; r++) {
    const values = data.armWorkers.map((workers) => statisticsOf(data, resampledWeights(data, workers, random)));
    for (const s of STATISTICS) {
      values.forEach((v, a) => replicates[a]![s].push(v[s]));
      differences[s].push(differenceOf(values[0]![s], values[1]![s]));
    }
  }
  const permuted = permutationCounts(data, observed, resamples, random);

  const summaries: ArmSummary[] = ARM_NAMES.map((arm, a) => {
    const estimate = (s: Statistic): Estimate => ({ value: observed[a]![s], ...interval(replicates[a]![s], resamples) });
    return {
      arm,
      workers: data.armWorkers[a]!.length,
      items: itemsOf(data, data.armWorkers[a]!),
      balancedAccuracy: estimate('balancedAccuracy'),
      kappa: estimate('kappa'),
      secondsPerItem: estimate('secondsPerItem'),
    };
  });
  const test =
    `two-sided permutation test over workers (${resamples} relabelings); ` +
    `95% interval: percentile bootstrap over workers within each arm (${resamples} replicates)`;
  const difference = (s: Statistic): Difference => {
    const value = differenceOf(observed[0]![s], observed[1]![s]);
    const { extreme, trials } = permuted[s];
    return { value, ...interval(differences[s], resamples), p: value === null || trials === 0 ? null : (1 + extreme) / (1 + trials), test };
  };
  return {
    factor: 'debate',
    design: 'between-subjects',
    arms: summaries,
    difference: {
      balancedAccuracy: difference('balancedAccuracy'),
      kappa: difference('kappa'),
      secondsPerItem: difference('secondsPerItem'),
    },
  };
}

function indexArms(arms: readonly ArmObservations[]): Indexed {
  for (const [i, arm] of arms.entries())
    if (!ARM_NAMES.includes(arm.arm))
      throw new RangeError(`compareArms: arms[${i}].arm ${JSON.stringify(arm.arm)} is not one of ${ARM_NAMES.join(', ')}`);
  const workerIndex = new Map<string, number>();
  const armWorkers: number[][] = ARM_NAMES.map(() => []);
  // the same worker id in both arms is two workers here: the arms are analysed apart
  const workerOf = (a: number, id: string): number => {
    const key = `${a}\u0000${id}`;
    let w = workerIndex.get(key);
    if (w === undefined) {
      w = workerIndex.size;
      workerIndex.set(key, w);
      armWorkers[a]!.push(w);
    }
    return w;
  };
  const itemIndex = new Map<string, number>();
  const checkRows: { w: number; expected: boolean; answer: boolean }[] = [];
  const secondRows: { w: number; items: number; seconds: number }[] = [];
  const voteRows: { w: number; item: number; answer: boolean }[] = [];
  ARM_NAMES.forEach((name, a) => {
    for (const arm of arms.filter((x) => x.arm === name)) {
      for (const c of arm.checks) checkRows.push({ w: workerOf(a, c.workerId), expected: c.expected, answer: c.answer });
      for (const s of arm.seconds) secondRows.push({ w: workerOf(a, s.workerId), items: s.items, seconds: s.seconds });
      for (const v of arm.votes) {
        let item = itemIndex.get(v.itemId);
        if (item === undefined) itemIndex.set(v.itemId, (item = itemIndex.size));
        voteRows.push({ w: workerOf(a, v.workerId), item, answer: v.answer });
      }
    }
  });
  const n = workerIndex.size;
  const checks = new Float64Array(n * 4);
  for (const [w, counts] of checkCountsByWorker(checkRows)) checks.set(counts, w * 4);
  const seconds = new Float64Array(n);
  const pageItems = new Float64Array(n);
  for (const s of secondRows) {
    seconds[s.w] = seconds[s.w]! + s.seconds;
    pageItems[s.w] = pageItems[s.w]! + s.items;
  }
  return {
    armWorkers,
    workerCount: n,
    itemCount: itemIndex.size,
    checks,
    seconds,
    pageItems,
    voteWorker: Int32Array.from(voteRows, (v) => v.w),
    voteItem: Int32Array.from(voteRows, (v) => v.item),
    voteCategory: Uint8Array.from(voteRows, (v) => (v.answer ? 0 : 1)),
  };
}

/** Per worker, the class counts of their checks, by the project's balanced accuracy (one check a key). */
function checkCountsByWorker(rows: readonly { w: number; expected: boolean; answer: boolean }[]): Map<number, number[]> {
  const byWorker = new Map<number, { predicted: Map<string, 'yes' | 'no'>; truth: Map<string, 'yes' | 'no'> }>();
  rows.forEach((row, i) => {
    let maps = byWorker.get(row.w);
    if (!maps) byWorker.set(row.w, (maps = { predicted: new Map(), truth: new Map() }));
    maps.predicted.set(String(i), row.answer ? 'yes' : 'no');
    maps.truth.set(String(i), row.expected ? 'yes' : 'no');
  });
  const out = new Map<number, number[]>();
  for (const [w, { predicted, truth }] of byWorker) {
    const { perClass } = balancedAccuracy(predicted, truth, ['yes', 'no'] as const);
    out.set(w, [perClass.yes.support, perClass.yes.correct, perClass.no.support, perClass.no.correct]);
  }
  return out;
}

const unitWeights = (data: Indexed, workers: readonly number[]): Float64Array => {
  const weights = new Float64Array(data.workerCount);
  for (const w of workers) weights[w] = 1;
  return weights;
};

function resampledWeights(data: Indexed, workers: readonly number[], random: SeededRandom): Float64Array {
  const weights = new Float64Array(data.workerCount);
  const n = workers.length;
  for (let i = 0; i < n; i++) {
    const w = workers[Math.min(n - 1, Math.floor(random.next() * n))]!;
    weights[w] = weights[w]! + 1;
  }
  return weights;
}

/** The three statistics over the workers with a weight (a worker drawn m times weighs m). */
function statisticsOf(data: Indexed, weights: Float64Array): Values {
  let positives = 0;
  let positiveHits = 0;
  let negatives = 0;
  let negativeHits = 0;
  let seconds = 0;
  let items = 0;
  for (let w = 0; w < data.workerCount; w++) {
    const m = weights[w]!;
    if (m === 0) continue;
    positives += m * data.checks[w * 4]!;
    positiveHits += m * data.checks[w * 4 + 1]!;
    negatives += m * data.checks[w * 4 + 2]!;
    negativeHits += m * data.checks[w * 4 + 3]!;
    seconds += m * data.seconds[w]!;
    items += m * data.pageItems[w]!;
  }
  const recalls = [positives > 0 ? positiveHits / positives : null, negatives > 0 ? negativeHits / negatives : null].filter(
    (r): r is number => r !== null,
  );
  return {
    balancedAccuracy: recalls.length === 0 ? null : recalls.reduce((a, b) => a + b, 0) / recalls.length,
    kappa: weightedKappa(data, weights),
    secondsPerItem: items > 0 ? seconds / items : null,
  };
}

/**
 * Fleiss' κ over the items the weighted workers rated; with unit weights it is the
 * project's fleissKappaOfCounts itself, otherwise copies of one worker are not paired.
 */
function weightedKappa(data: Indexed, weights: Float64Array): number | null {
  const counts = new Float64Array(data.itemCount * 2);
  const self = new Float64Array(data.itemCount);
  let unit = true;
  for (let v = 0; v < data.voteWorker.length; v++) {
    const m = weights[data.voteWorker[v]!]!;
    if (m === 0) continue;
    if (m !== 1) unit = false;
    const item = data.voteItem[v]!;
    const cell = item * 2 + data.voteCategory[v]!;
    counts[cell] = counts[cell]! + m;
    self[item] = self[item]! + m * m;
  }
  // only the items rated here, in the layout fleissKappaOfCounts reads
  const rated: number[] = [];
  for (let i = 0; i < data.itemCount; i++) if (counts[i * 2]! + counts[i * 2 + 1]! > 0) rated.push(i);
  if (rated.length === 0) return null;
  if (unit) {
    const packed = new Float64Array(rated.length * 2);
    rated.forEach((i, j) => packed.set(counts.subarray(i * 2, i * 2 + 2), j * 2));
    return fleissKappaOfCounts(packed, rated.length, 2);
  }
  let yesShare = 0;
  let sumP = 0;
  let used = 0;
  for (const i of rated) {
    const yes = counts[i * 2]!;
    const no = counts[i * 2 + 1]!;
    const r = yes + no;
    yesShare += yes / r;
    const pairs = r * r - self[i]!;
    if (pairs <= 0) continue;
    sumP += (yes * yes + no * no - self[i]!) / pairs;
    used++;
  }
  if (used === 0) return null;
  const p = yesShare / rated.length;
  const chance = p * p + (1 - p) * (1 - p);
  return chance >= 1 ? null : (sumP / used - chance) / (1 - chance);
}

function itemsOf(data: Indexed, workers: readonly number[]): number {
  const mine = new Set(workers);
  const items = new Set<number>();
  for (let v = 0; v < data.voteWorker.length; v++) if (mine.has(data.voteWorker[v]!)) items.add(data.voteItem[v]!);
  return items.size;
}

const differenceOf = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a - b);

const emptyReplicates = (): Record<Statistic, (number | null)[]> => ({ balancedAccuracy: [], kappa: [], secondsPerItem: [] });

function interval(values: readonly (number | null)[], resamples: number): { low: number | null; high: number | null } {
  const defined = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (defined.length === 0 || defined.length < DEFINED_SHARE * resamples) return { low: null, high: null };
  const tail = (1 - LEVEL) / 2;
  return { low: quantile(defined, tail), high: quantile(defined, 1 - tail) };
}

/** Per statistic, over the trials where both pseudo-arms had it defined: how many were as extreme as observed. */
function permutationCounts(
  data: Indexed,
  observed: readonly Values[],
  trials: number,
  random: SeededRandom,
): Record<Statistic, { extreme: number; trials: number }> {
  const out = { balancedAccuracy: { extreme: 0, trials: 0 }, kappa: { extreme: 0, trials: 0 }, secondsPerItem: { extreme: 0, trials: 0 } };
  const pooled = data.armWorkers.flat();
  const first = data.armWorkers[0]!.length;
  if (first === 0 || pooled.length === first) return out;
  // a relative tolerance, so that a relabeling equal to the observed split counts as extreme despite rounding
  const tolerance = 1e-12;
  for (let t = 0; t < trials; t++) {
    for (let i = pooled.length - 1; i > 0; i--) {
      const j = Math.floor(random.next() * (i + 1));
      [pooled[i], pooled[j]] = [pooled[j]!, pooled[i]!];
    }
    const a = statisticsOf(data, unitWeights(data, pooled.slice(0, first)));
    const b = statisticsOf(data, unitWeights(data, pooled.slice(first)));
    for (const s of STATISTICS) {
      const d = differenceOf(a[s], b[s]);
      const o = differenceOf(observed[0]![s], observed[1]![s]);
      if (d === null || o === null) continue;
      out[s].trials++;
      if (Math.abs(d) >= Math.abs(o) * (1 - tolerance)) out[s].extreme++;
    }
  }
  return out;
}
