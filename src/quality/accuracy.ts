import { checkCategories, quote } from '../aggregate/votes.js';
import { UserError } from '../errors.js';

export interface AccuracyResult {
  /** null when no item could be compared. */
  readonly value: number | null;
  readonly correct: number;
  /** Items with a known truth and a label. */
  readonly compared: number;
  /** Items with a known truth but no label (unresolved or not aggregated): not compared. */
  readonly unlabeled: number;
}

export interface ClassRecall {
  /** Compared items whose truth is this class. */
  readonly support: number;
  readonly correct: number;
  /** correct / support; null without support. */
  readonly recall: number | null;
}

export interface BalancedAccuracyResult<L extends string = string> extends AccuracyResult {
  readonly perClass: Record<L, ClassRecall>;
}

/** Share of labels equal to the hidden truth, over the items that have both. Items without a truth are ignored. */
export function labelAccuracy<L extends string>(predicted: ReadonlyMap<string, L | null>, truth: ReadonlyMap<string, L>): AccuracyResult {
  let correct = 0;
  let compared = 0;
  let unlabeled = 0;
  for (const [item, expected] of truth) {
    const label = predicted.get(item);
    if (label === undefined || label === null) unlabeled++;
    else {
      compared++;
      if (label === expected) correct++;
    }
  }
  return { value: compared === 0 ? null : correct / compared, correct, compared, unlabeled };
}

/**
 * Balanced accuracy: the mean over classes of the recall of each class present in the
 * truth (the DREAM paper reports it, since relevant and not-relevant cases are rarely
 * equally frequent). Same comparison rules as `labelAccuracy`.
 */
export function balancedAccuracy<L extends string>(
  predicted: ReadonlyMap<string, L | null>,
  truth: ReadonlyMap<string, L>,
  categories: readonly L[],
): BalancedAccuracyResult<L> {
  checkCategories(categories);
  const index = new Map<string, number>(categories.map((c, k) => [c, k]));
  const support = new Array<number>(categories.length).fill(0);
  const hits = new Array<number>(categories.length).fill(0);
  for (const [item, expected] of truth) {
    const k = index.get(expected);
    if (k === undefined) throw new UserError(`truth[${quote(item)}]: ${quote(expected)} is not one of the categories ${quote(categories)}`);
    const label = predicted.get(item);
    if (label === undefined || label === null) continue;
    if (!index.has(label))
      throw new UserError(`predicted[${quote(item)}]: ${quote(label)} is not one of the categories ${quote(categories)}`);
    support[k]!++;
    if (label === expected) hits[k]!++;
  }
  const perClass = Object.fromEntries(
    categories.map((c, k) => [c, { support: support[k]!, correct: hits[k]!, recall: support[k] === 0 ? null : hits[k]! / support[k]! }]),
  ) as Record<L, ClassRecall>;
  const recalls = Object.values<ClassRecall>(perClass).flatMap((r) => (r.recall === null ? [] : [r.recall]));
  const plain = labelAccuracy(predicted, truth);
  return { ...plain, value: recalls.length === 0 ? null : recalls.reduce((a, b) => a + b, 0) / recalls.length, perClass };
}
