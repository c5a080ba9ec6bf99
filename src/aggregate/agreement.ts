import type { ItemCounts, Vote } from './votes.js';

/** Measure names as the reports print them (`fleissKappa`, `krippendorffAlpha` in `qrelay report --format json`). */
export type AgreementMeasureName = 'fleissKappa' | 'krippendorffAlpha';

/**
 * What every agreement measure returns. `value` is null, never NaN or Infinity, when the
 * measure is undefined for the data; `reason` then says why in a sentence.
 */
export interface AgreementResult {
  readonly measure: AgreementMeasureName;
  readonly value: number | null;
  readonly reason?: string;
  /** Items that entered the computation. */
  readonly itemsUsed: number;
  /** Items with votes that were left out (see each measure for which). */
  readonly itemsExcluded: number;
  /** Ratings (votes) that entered the computation. */
  readonly ratingsUsed: number;
}

/** The interface every agreement measure shares. */
export interface AgreementMeasure<R extends AgreementResult = AgreementResult> {
  readonly name: AgreementMeasureName;
  /** For people: "Fleiss' κ", "Krippendorff's α (nominal)". */
  readonly displayName: string;
  compute<L extends string>(votes: readonly Vote<L>[], categories: readonly L[]): R;
  /**
   * The same on votes already checked and indexed (`indexVotes`), so that measures over
   * the same votes share one indexing: `compute(votes, c)` is `computeIndexed(indexVotes(votes, c))`.
   * The measures read each item's counts per category alone (ItemCounts).
   */
  computeIndexed<L extends string>(data: ItemCounts<L>): R;
}
