import { UserError } from '../errors.js';

/** One worker's label for one item: the input of every aggregator and agreement measure. */
export interface Vote<L extends string = string> {
  readonly item: string;
  readonly worker: string;
  readonly label: L;
}

/**
 * Votes in dense integer form, in an order that does not depend on the input order:
 * items, workers and votes sorted by id (UTF-16 code units, locale independent), so that
 * every floating-point sum runs in the same order and results are reproducible.
 */
export interface IndexedVotes<L extends string> {
  readonly categories: readonly L[];
  readonly items: readonly string[];
  readonly workers: readonly string[];
  /** Per vote (sorted by item, then worker): indexes into items, workers, categories. */
  readonly voteItem: Int32Array;
  readonly voteWorker: Int32Array;
  readonly voteLabel: Int32Array;
  /** Votes of item i are voteItem[itemStart[i]] .. voteItem[itemStart[i + 1] - 1]. */
  readonly itemStart: Int32Array;
  /** counts[i * K + k]: votes for category k on item i (K = categories.length). */
  readonly counts: Float64Array;
}

/** What the agreement measures read of indexed votes: the items, in order, and each one's votes per category. */
export type ItemCounts<L extends string> = Pick<IndexedVotes<L>, 'categories' | 'items' | 'counts'>;

/** Orders ids by UTF-16 code units: the same order on every machine and locale. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A value from outside, quoted and clipped for an error message. */
export function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Throws a UserError naming the problem unless `categories` is a non-empty list of distinct, non-empty strings. */
export function checkCategories(categories: readonly string[], where = 'categories'): void {
  if (!Array.isArray(categories) || categories.length === 0) {
    throw new UserError(`${where}: give at least one category (for example ["yes", "no"])`);
  }
  const seen = new Set<string>();
  categories.forEach((c, i) => {
    if (typeof c !== 'string' || c.length === 0) throw new UserError(`${where}[${i}]: ${quote(c)} is not a non-empty string`);
    if (seen.has(c)) throw new UserError(`${where}[${i}]: ${quote(c)} is listed twice; list each category once`);
    seen.add(c);
  });
}

/**
 * Checks votes and puts them in dense form. Throws a UserError naming the vote
 * (`votes[12].label`) when an id is empty, a label is not a category, or a worker voted
 * twice on the same item (each worker's label counts once per item).
 */
export function indexVotes<L extends string>(votes: readonly Vote<L>[], categories: readonly L[]): IndexedVotes<L> {
  checkCategories(categories);
  const categoryIndex = new Map<string, number>(categories.map((c, k) => [c, k]));
  // item -> worker -> the index of their first vote (nested maps: no key to build per vote)
  const firstVote = new Map<string, Map<string, number>>();
  votes.forEach((v, n) => {
    for (const field of ['item', 'worker'] as const) {
      if (typeof v[field] !== 'string' || v[field].length === 0) {
        throw new UserError(`votes[${n}].${field}: ${quote(v[field])} is not a non-empty string id`);
      }
    }
    if (!categoryIndex.has(v.label)) {
      throw new UserError(
        `votes[${n}].label: ${quote(v.label)} is not one of the categories ${quote(categories)}; map it to one of them or add it to the list`,
      );
    }
    let ofItem = firstVote.get(v.item);
    if (!ofItem) firstVote.set(v.item, (ofItem = new Map()));
    const earlier = ofItem.get(v.worker);
    if (earlier !== undefined) {
      throw new UserError(
        `votes[${n}]: worker ${quote(v.worker)} already voted on item ${quote(v.item)} in votes[${earlier}]; keep one vote per worker and item`,
      );
    }
    ofItem.set(v.worker, n);
  });

  const items = [...new Set(votes.map((v) => v.item))].sort(byCodeUnits);
  const workers = [...new Set(votes.map((v) => v.worker))].sort(byCodeUnits);
  const itemIndex = new Map(items.map((id, i) => [id, i]));
  const workerIndex = new Map(workers.map((id, i) => [id, i]));
  const order = votes
    .map((v, n) => ({ i: itemIndex.get(v.item) ?? 0, w: workerIndex.get(v.worker) ?? 0, k: categoryIndex.get(v.label) ?? 0, n }))
    .sort((a, b) => a.i - b.i || a.w - b.w);

  const K = categories.length;
  const counts = new Float64Array(items.length * K);
  const voteItem = new Int32Array(order.length);
  const voteWorker = new Int32Array(order.length);
  const voteLabel = new Int32Array(order.length);
  order.forEach((v, n) => {
    voteItem[n] = v.i;
    voteWorker[n] = v.w;
    voteLabel[n] = v.k;
    counts[v.i * K + v.k] = (counts[v.i * K + v.k] ?? 0) + 1;
  });
  const itemStart = new Int32Array(items.length + 1);
  for (const i of voteItem) itemStart[i + 1] = (itemStart[i + 1] ?? 0) + 1;
  for (let i = 0; i < items.length; i++) itemStart[i + 1] = (itemStart[i + 1] ?? 0) + (itemStart[i] ?? 0);
  return { categories, items, workers, voteItem, voteWorker, voteLabel, itemStart, counts };
}

/** Builds `{ [category]: value }` as own properties (safe for any category string). */
export function perCategory<L extends string>(categories: readonly L[], value: (k: number) => number): Record<L, number> {
  return Object.fromEntries(categories.map((c, k) => [c, value(k)])) as Record<L, number>;
}

/**
 * The votes of the items rated 2 or more times: the items every agreement measure can use
 * (a single rating has no pair). Computing κ and α on these makes them describe the same
 * items, mid-batch too, where many items have one vote so far.
 */
export function pairableVotes<V extends Vote>(votes: readonly V[]): V[] {
  const count = new Map<string, number>();
  for (const v of votes) count.set(v.item, (count.get(v.item) ?? 0) + 1);
  return votes.filter((v) => count.get(v.item)! >= 2);
}
