import { UserError } from '../errors.js';
import { perCategory, quote, type IndexedVotes, type Vote } from './votes.js';

/** Aggregator names as crowd-kit prints its classes. */
export type AggregatorName = 'MajorityVote' | 'DawidSkene';

/** What a tie ends in when nothing else decides it. */
export type FinalTiePolicy<L extends string = string> = { readonly kind: 'unresolved' } | { readonly kind: 'fallback'; readonly label: L };

/**
 * What to do when the top categories of an item are tied: equal vote counts for majority
 * vote (2 or 4 votes on a yes/no question), equal posteriors for Dawid–Skene.
 *
 * - `unresolved` (the default): no label; the item is reported as unresolved so the
 *   pipeline asks for another vote. It never invents a label.
 * - `fallback`: the named category, when it is one of the tied ones (otherwise
 *   unresolved). `{ kind: 'fallback', label: 'no' }` is the qrels convention: what nobody
 *   could show relevant counts as not relevant; use it when no more votes can be bought.
 * - `worker-weighted`: the tied category whose voters weigh most (for example each
 *   worker's leave-one-out agreement); workers missing from `weights` weigh 0, so only
 *   known quality breaks a tie; a tie that survives the weights goes to `then`.
 */
export type TiePolicy<L extends string = string> =
  | FinalTiePolicy<L>
  | { readonly kind: 'worker-weighted'; readonly weights: Readonly<Record<string, number>>; readonly then: FinalTiePolicy<L> };

export const DEFAULT_TIE_POLICY: TiePolicy<never> = { kind: 'unresolved' };

/** How an item's label was decided. */
export type Resolution = 'clear' | 'tie-weighted' | 'tie-fallback' | 'unresolved';

export interface ItemAggregate<L extends string = string> {
  readonly item: string;
  /** null when the item is unresolved (a tie the policy left open). */
  readonly label: L | null;
  readonly decidedBy: Resolution;
  /** The categories tied at the top, in category-list order; empty when one led. */
  readonly tie: readonly L[];
  readonly votes: number;
  /** Raw vote counts per category. */
  readonly counts: Record<L, number>;
  /** Vote shares (majority vote) or posterior probabilities (Dawid–Skene); they sum to 1. */
  readonly probabilities: Record<L, number>;
}

export interface AggregationResult<L extends string = string> {
  readonly aggregator: AggregatorName;
  readonly categories: readonly L[];
  /** One entry per item that has votes, sorted by item id. */
  readonly items: readonly ItemAggregate<L>[];
  /** How many items have no label. */
  readonly unresolved: number;
}

/** The interface every aggregator shares (crowd-kit style: configure, then fit). */
export interface Aggregator<L extends string = string, R extends AggregationResult<L> = AggregationResult<L>> {
  readonly name: AggregatorName;
  fit(votes: readonly Vote<L>[], categories: readonly L[]): R;
}

/** item -> label (null when unresolved). */
export function labelsByItem<L extends string>(result: AggregationResult<L>): Map<string, L | null> {
  return new Map(result.items.map((it) => [it.item, it.label]));
}

/** Throws a UserError naming the field when the policy does not fit the categories. */
export function checkTiePolicy<L extends string>(policy: TiePolicy<L>, categories: readonly L[], where = 'tiePolicy'): void {
  switch (policy.kind) {
    case 'unresolved':
      return;
    case 'fallback':
      if (!categories.includes(policy.label)) {
        throw new UserError(`${where}.label: ${quote(policy.label)} is not one of the categories ${quote(categories)}`);
      }
      return;
    case 'worker-weighted':
      for (const [worker, weight] of Object.entries(policy.weights)) {
        if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
          throw new UserError(`${where}.weights[${quote(worker)}]: ${quote(weight)} is not a finite number >= 0`);
        }
      }
      checkTiePolicy(policy.then, categories, `${where}.then`);
      return;
    default: {
      const unknown: never = policy;
      throw new UserError(
        `${where}.kind: ${quote((unknown as { kind: unknown }).kind)} is not one of "unresolved", "fallback", "worker-weighted"`,
      );
    }
  }
}

/** The indexes whose score is within `epsilon` of the best one, in index order. */
export function topIndexes(scores: ArrayLike<number>, epsilon = 0): number[] {
  let best = -Infinity;
  for (let k = 0; k < scores.length; k++) best = Math.max(best, scores[k]!);
  const top: number[] = [];
  for (let k = 0; k < scores.length; k++) if (scores[k]! >= best - epsilon) top.push(k);
  return top;
}

/** Decides item `i`, given the categories tied at the top (indexes, at least one). */
export function resolve<L extends string>(
  data: IndexedVotes<L>,
  i: number,
  top: readonly number[],
  policy: TiePolicy<L>,
): { label: L | null; decidedBy: Resolution; tie: L[] } {
  const { categories } = data;
  if (top.length === 1) return { label: categories[top[0]!]!, decidedBy: 'clear', tie: [] };
  const tie = top.map((k) => categories[k]!);
  const final = (p: FinalTiePolicy<L>, tied: readonly number[]) => {
    if (p.kind === 'fallback' && tied.some((k) => categories[k] === p.label)) {
      return { label: p.label, decidedBy: 'tie-fallback' as const, tie };
    }
    return { label: null, decidedBy: 'unresolved' as const, tie };
  };
  if (policy.kind !== 'worker-weighted') return final(policy, top);

  const weight = new Float64Array(categories.length).fill(-Infinity);
  for (const k of top) weight[k] = 0;
  for (let n = data.itemStart[i]!; n < data.itemStart[i + 1]!; n++) {
    const k = data.voteLabel[n]!;
    if (weight[k] === -Infinity) continue;
    const worker = data.workers[data.voteWorker[n]!]!;
    weight[k] = weight[k]! + (Object.hasOwn(policy.weights, worker) ? policy.weights[worker]! : 0);
  }
  const weighted = topIndexes(weight);
  if (weighted.length === 1) return { label: categories[weighted[0]!]!, decidedBy: 'tie-weighted', tie };
  return final(policy.then, weighted);
}

/**
 * Every item's aggregate from its scores per category (`scores(i)`, K values): vote shares
 * for majority vote, posteriors for Dawid–Skene. The categories scoring within `epsilon`
 * of the best go to the tie policy; the scores are the item's `probabilities`.
 */
export function itemAggregates<L extends string>(
  data: IndexedVotes<L>,
  scores: (i: number) => ArrayLike<number>,
  policy: TiePolicy<L>,
  epsilon = 0,
): ItemAggregate<L>[] {
  const { categories } = data;
  const K = categories.length;
  return data.items.map((item, i) => {
    const row = scores(i);
    return {
      item,
      ...resolve(data, i, topIndexes(row, epsilon), policy),
      votes: data.itemStart[i + 1]! - data.itemStart[i]!,
      counts: perCategory(categories, (k) => data.counts[i * K + k]!),
      probabilities: perCategory(categories, (k) => row[k]!),
    };
  });
}
