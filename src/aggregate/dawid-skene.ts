import { UserError } from '../errors.js';
import {
  checkTiePolicy,
  DEFAULT_TIE_POLICY,
  itemAggregates,
  type AggregationResult,
  type Aggregator,
  type TiePolicy,
} from './aggregator.js';
import { indexVotes, perCategory, quote, type IndexedVotes, type Vote } from './votes.js';

export interface DawidSkeneOptions<L extends string> {
  /** Most EM iterations (crowd-kit's `n_iter`); default 1000. 0 returns the majority-vote start. */
  readonly maxIterations?: number;
  /**
   * Stop when an iteration raised the mean log-likelihood per vote by less than this;
   * default 1e-8. 0 runs exactly `maxIterations` iterations. EM can creep towards its
   * fixed point (confusion entries near 0 or 1): at 1e-8 the posteriors of the reference
   * sets are within 5e-3 of the fixed point, and an iteration costs microseconds per
   * thousand votes, so the defaults are stricter than crowd-kit's (100, 1e-5).
   */
  readonly tolerance?: number;
  /** For posteriors tied within 1e-9; default `{ kind: 'unresolved' }`. */
  readonly tiePolicy?: TiePolicy<L>;
  /**
   * Known labels (attention checks, gold items): their posteriors are held at the known
   * label throughout, which anchors the workers' confusion matrices (crowd-kit's
   * `true_labels`). Items without votes are ignored.
   */
  readonly gold?: Readonly<Record<string, L>>;
  /**
   * Prior knowledge of each worker's confusion matrix, as Dirichlet pseudo-counts added to
   * the expected counts of every M-step (a maximum a posteriori estimate): `prior[truth][answer]`
   * is how many imaginary answers `answer` to items whose truth is `truth` the worker is
   * credited with before the data. `default` applies to workers without their own entry.
   * Pseudo-counts must be finite and >= 0; none (the default) is crowd-kit's maximum likelihood.
   * Rows of equal shares make a worker's answers carry no information about the truth, so
   * their votes weigh nothing; a heavy diagonal makes a worker trusted until the data say otherwise.
   */
  readonly confusionPrior?: {
    readonly default?: ConfusionCounts<L>;
    readonly workers?: Readonly<Record<string, ConfusionCounts<L>>>;
  };
}

/** counts[truth][answer]. */
export type ConfusionCounts<L extends string = string> = Readonly<Record<L, Readonly<Record<L, number>>>>;

export interface WorkerConfusion<L extends string = string> {
  readonly worker: string;
  readonly votes: number;
  /** Estimated probability of a correct answer: sum over c of prior[c] * confusion[c][c]. */
  readonly accuracy: number;
  /**
   * confusion[truth][answer]: the probability that the worker answers `answer` when the
   * true label is `truth`; each row sums to 1. Answers the worker never gave are 0.
   */
  readonly confusion: Record<L, Record<L, number>>;
}

export interface DawidSkeneResult<L extends string = string> extends AggregationResult<L> {
  readonly aggregator: 'DawidSkene';
  /** Estimated class priors (mean posterior); uniform when there are no votes. */
  readonly priors: Record<L, number>;
  /** Sorted by worker id. */
  readonly workers: readonly WorkerConfusion<L>[];
  readonly iterations: number;
  /** Whether the tolerance stopped EM before maxIterations (true for no votes). */
  readonly converged: boolean;
  /** Mean log-likelihood per vote at the last E-step (with a `confusionPrior`: the log-posterior, prior included); null when none ran. */
  readonly logLikelihood: number | null;
}

export const DAWID_SKENE_DEFAULTS = { maxIterations: 1000, tolerance: 1e-8 } as const;

/** Probabilities are floored here before logs, as crowd-kit does, so that no log is -Infinity. */
const EPS = 1e-10;
/** Posteriors this close count as tied. */
const TIE_EPSILON = 1e-9;

/**
 * Dawid & Skene (1979), "Maximum Likelihood Estimation of Observer Error-Rates Using the
 * EM Algorithm": each worker has a confusion matrix, items have class priors, and EM
 * alternates posteriors (E-step) and parameters (M-step).
 *
 * The steps follow crowd-kit's DawidSkene so that results can be checked against it: the
 * start is majority vote's vote shares (a tie starts split evenly), priors are the mean
 * posterior, confusion counts are floored at 1e-10 for the answers a worker gave, and
 * the returned priors and confusion matrices are re-estimated from the returned
 * posteriors; with the same number of iterations the results agree to 1e-9. The stopping
 * rule differs: crowd-kit stops as soon as its loss (a lower bound that counts the prior
 * once per vote, which EM does not always raise) falls, which can be far from
 * convergence and change labels; this stops when the observed-data log-likelihood (which
 * EM never lowers) gains less than the tolerance. Votes are processed in sorted order, so
 * the result does not depend on the input order.
 */
export function dawidSkene<L extends string>(options: DawidSkeneOptions<L> = {}): Aggregator<L, DawidSkeneResult<L>> {
  const maxIterations = options.maxIterations ?? DAWID_SKENE_DEFAULTS.maxIterations;
  const tolerance = options.tolerance ?? DAWID_SKENE_DEFAULTS.tolerance;
  const tiePolicy: TiePolicy<L> = options.tiePolicy ?? DEFAULT_TIE_POLICY;
  if (!Number.isSafeInteger(maxIterations) || maxIterations < 0) {
    throw new UserError(`DawidSkene maxIterations: ${quote(maxIterations)} is not a whole number >= 0`);
  }
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) {
    throw new UserError(`DawidSkene tolerance: ${quote(tolerance)} is not a finite number >= 0`);
  }
  return {
    name: 'DawidSkene',
    fit(votes: readonly Vote<L>[], categories: readonly L[]): DawidSkeneResult<L> {
      const data = indexVotes(votes, categories);
      checkTiePolicy(tiePolicy, categories);
      const gold = goldIndex(data, options.gold ?? {});
      const model = new Model(data, gold, priorCounts(data, options.confusionPrior));

      let probas = model.majorityShares();
      let priors = model.priors(probas);
      let errors = model.mStep(probas);
      let logLikelihood: number | null = null;
      let iterations = 0;
      let converged = data.items.length === 0; // nothing to estimate without votes
      for (let previous = -Infinity; !converged && iterations < maxIterations; previous = logLikelihood) {
        const e = model.eStep(priors, errors);
        probas = e.probas;
        priors = model.priors(probas);
        errors = model.mStep(probas);
        iterations++;
        logLikelihood = e.logLikelihood;
        converged = tolerance > 0 && logLikelihood - previous < tolerance;
      }
      return model.result(probas, priors, errors, { iterations, converged, logLikelihood }, tiePolicy);
    },
  };
}

function goldIndex<L extends string>(data: IndexedVotes<L>, gold: Readonly<Record<string, L>>): Int32Array {
  const index = new Int32Array(data.items.length).fill(-1);
  const itemIndex = new Map(data.items.map((id, i) => [id, i]));
  for (const [item, label] of Object.entries(gold)) {
    const k = data.categories.indexOf(label);
    if (k < 0)
      throw new UserError(`DawidSkene gold[${quote(item)}]: ${quote(label)} is not one of the categories ${quote(data.categories)}`);
    const i = itemIndex.get(item);
    if (i !== undefined) index[i] = k;
  }
  return index;
}

/** The pseudo-counts per worker in the errors layout ([(w*K + truth)*K + answer]); null without a prior. */
function priorCounts<L extends string>(data: IndexedVotes<L>, prior: DawidSkeneOptions<L>['confusionPrior']): Float64Array | null {
  if (!prior || (prior.default === undefined && Object.keys(prior.workers ?? {}).length === 0)) return null;
  const K = data.categories.length;
  const counts = new Float64Array(data.workers.length * K * K);
  const check = (table: ConfusionCounts<L>, where: string) => {
    for (const truth of data.categories)
      for (const answer of data.categories) {
        const value = table[truth]?.[answer];
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
          throw new UserError(`DawidSkene ${where}[${quote(truth)}][${quote(answer)}]: ${quote(value)} is not a finite number >= 0`);
        }
      }
  };
  if (prior.default !== undefined) check(prior.default, 'confusionPrior.default');
  for (const [worker, table] of Object.entries(prior.workers ?? {})) check(table, `confusionPrior.workers[${quote(worker)}]`);
  data.workers.forEach((worker, w) => {
    const table = prior.workers && Object.hasOwn(prior.workers, worker) ? prior.workers[worker] : prior.default;
    if (!table) return;
    data.categories.forEach((truth, c) =>
      data.categories.forEach((answer, k) => {
        counts[(w * K + c) * K + k] = table[truth][answer];
      }),
    );
  });
  return counts;
}

/** The numeric core. Layouts: probas[i*K + c]; errors[(w*K + c)*K + k] = P(answer k | truth c). */
class Model<L extends string> {
  private readonly K: number;
  private readonly I: number;
  private readonly W: number;
  /** gave[w*K + k]: whether worker w ever answered k. */
  private readonly gave: Uint8Array;

  constructor(
    private readonly data: IndexedVotes<L>,
    private readonly gold: Int32Array,
    /** Dirichlet pseudo-counts in the errors layout; null for maximum likelihood. */
    private readonly prior: Float64Array | null,
  ) {
    this.K = data.categories.length;
    this.I = data.items.length;
    this.W = data.workers.length;
    this.gave = new Uint8Array(this.W * this.K);
    for (let n = 0; n < data.voteItem.length; n++) this.gave[data.voteWorker[n]! * this.K + data.voteLabel[n]!] = 1;
  }

  majorityShares(): Float64Array {
    const { K, I } = this;
    const probas = new Float64Array(I * K);
    for (let i = 0; i < I; i++) {
      let total = 0;
      for (let c = 0; c < K; c++) total += this.data.counts[i * K + c]!;
      for (let c = 0; c < K; c++) probas[i * K + c] = this.data.counts[i * K + c]! / total;
    }
    return this.clampGold(probas);
  }

  private clampGold(probas: Float64Array): Float64Array {
    const { K } = this;
    this.gold.forEach((known, i) => {
      if (known < 0) return;
      for (let c = 0; c < K; c++) probas[i * K + c] = c === known ? 1 : 0;
    });
    return probas;
  }

  priors(probas: Float64Array): Float64Array {
    const { K, I } = this;
    const priors = new Float64Array(K).fill(I === 0 ? 1 / K : 0);
    for (let i = 0; i < I; i++) for (let c = 0; c < K; c++) priors[c] = priors[c]! + probas[i * K + c]! / I;
    return priors;
  }

  mStep(probas: Float64Array): Float64Array {
    const { K, W, data } = this;
    // expected counts, indexed like errors: [(w*K + truth)*K + answer]
    const counts = new Float64Array(W * K * K);
    for (let n = 0; n < data.voteItem.length; n++) {
      const i = data.voteItem[n]!;
      const base = data.voteWorker[n]! * K * K + data.voteLabel[n]!;
      for (let c = 0; c < K; c++) counts[base + c * K] = counts[base + c * K]! + probas[i * K + c]!;
    }
    if (this.prior) for (let n = 0; n < counts.length; n++) counts[n] = counts[n]! + this.prior[n]!;
    for (let w = 0; w < W; w++) {
      for (let c = 0; c < K; c++) {
        const row = (w * K + c) * K;
        let total = 0;
        for (let k = 0; k < K; k++) {
          if (this.gave[w * K + k] || this.prior) counts[row + k] = Math.max(counts[row + k]!, EPS);
          total += counts[row + k]!;
        }
        for (let k = 0; k < K; k++) counts[row + k] = counts[row + k]! / total;
      }
    }
    return counts;
  }

  eStep(priors: Float64Array, errors: Float64Array): { probas: Float64Array; logLikelihood: number } {
    const { K, I, data } = this;
    // answers a worker never gave have log 0 = -Infinity here, but no vote looks them up
    const logErrors = errors.map(Math.log);
    const log = new Float64Array(I * K);
    for (let i = 0; i < I; i++) for (let c = 0; c < K; c++) log[i * K + c] = Math.log(Math.max(priors[c]!, EPS));
    for (let n = 0; n < data.voteItem.length; n++) {
      const i = data.voteItem[n]!;
      const base = data.voteWorker[n]! * K * K + data.voteLabel[n]!;
      for (let c = 0; c < K; c++) log[i * K + c] = log[i * K + c]! + logErrors[base + c * K]!;
    }
    const probas = new Float64Array(I * K);
    let logLikelihood = 0;
    for (let i = 0; i < I; i++) {
      let max = -Infinity;
      for (let c = 0; c < K; c++) max = Math.max(max, log[i * K + c]!);
      let sum = 0;
      for (let c = 0; c < K; c++) sum += probas[i * K + c] = Math.exp(log[i * K + c]! - max);
      for (let c = 0; c < K; c++) probas[i * K + c] = probas[i * K + c]! / sum;
      logLikelihood += max + Math.log(sum);
    }
    // with a prior, EM maximizes the log-posterior: the prior's log-density is part of what must not fall
    if (this.prior) for (let n = 0; n < errors.length; n++) logLikelihood += this.prior[n]! * Math.log(Math.max(errors[n]!, EPS));
    return { probas: this.clampGold(probas), logLikelihood: logLikelihood / Math.max(1, data.voteItem.length) };
  }

  result(
    probas: Float64Array,
    priors: Float64Array,
    errors: Float64Array,
    run: { iterations: number; converged: boolean; logLikelihood: number | null },
    tiePolicy: TiePolicy<L>,
  ): DawidSkeneResult<L> {
    const { K, data } = this;
    const { categories } = data;
    const items = itemAggregates(data, (i) => probas.subarray(i * K, (i + 1) * K), tiePolicy, TIE_EPSILON);
    const votesBy = new Int32Array(this.W);
    for (const w of data.voteWorker) votesBy[w] = votesBy[w]! + 1;
    const workers = data.workers.map((worker, w) => {
      const p = (c: number, k: number) => errors[(w * K + c) * K + k]!;
      let accuracy = 0;
      for (let c = 0; c < K; c++) accuracy += priors[c]! * p(c, c);
      const confusion = Object.fromEntries(categories.map((truth, c) => [truth, perCategory(categories, (k) => p(c, k))])) as Record<
        L,
        Record<L, number>
      >;
      return { worker, votes: votesBy[w]!, accuracy, confusion };
    });
    return {
      aggregator: 'DawidSkene',
      categories: [...categories],
      items,
      unresolved: items.filter((it) => it.label === null).length,
      priors: perCategory(categories, (c) => priors[c]!),
      workers,
      ...run,
    };
  }
}
