import type { Judgment } from '../domain/cases.js';

/**
 * Crowd vs LLM adjudicator (the paper's Table 3), pure: Cohen's κ and the confusion table
 * over the items both labelled, and each one's accuracy where the true label is known.
 */

export interface LabelledItem {
  crowd: Judgment | null;
  adjudicator: Judgment | null;
  /** The true label, when known (simulations, gold studies). */
  truth?: Judgment | undefined;
}

/** confusion[crowd][adjudicator]: how many items. */
export type Confusion = Record<Judgment, Record<Judgment, number>>;

export interface Accuracy {
  correct: number;
  total: number;
  /** null when no item has both a label and a true label. */
  value: number | null;
}

export interface CrowdVsAdjudicator {
  /** Items labelled by both. */
  pairs: number;
  /** Share of those on which they agree; null without pairs. */
  observedAgreement: number | null;
  /** Cohen's κ; null without pairs or when chance agreement is 1 (one label only). */
  kappa: number | null;
  confusion: Confusion;
  accuracy: { crowd: Accuracy; adjudicator: Accuracy };
}

export function cohensKappa(confusion: Confusion): number | null {
  const n = confusion.yes.yes + confusion.yes.no + confusion.no.yes + confusion.no.no;
  if (n === 0) return null;
  const observed = (confusion.yes.yes + confusion.no.no) / n;
  const crowdYes = (confusion.yes.yes + confusion.yes.no) / n;
  const adjYes = (confusion.yes.yes + confusion.no.yes) / n;
  const chance = crowdYes * adjYes + (1 - crowdYes) * (1 - adjYes);
  return chance === 1 ? null : (observed - chance) / (1 - chance);
}

function accuracy(items: readonly LabelledItem[], pick: (i: LabelledItem) => Judgment | null): Accuracy {
  let correct = 0;
  let total = 0;
  for (const i of items) {
    const label = pick(i);
    if (label === null || i.truth === undefined) continue;
    total += 1;
    if (label === i.truth) correct += 1;
  }
  return { correct, total, value: total === 0 ? null : correct / total };
}

export function crowdVsAdjudicator(items: readonly LabelledItem[]): CrowdVsAdjudicator {
  const confusion: Confusion = { yes: { yes: 0, no: 0 }, no: { yes: 0, no: 0 } };
  let pairs = 0;
  for (const i of items) {
    if (i.crowd === null || i.adjudicator === null) continue;
    confusion[i.crowd][i.adjudicator] += 1;
    pairs += 1;
  }
  return {
    pairs,
    observedAgreement: pairs === 0 ? null : (confusion.yes.yes + confusion.no.no) / pairs,
    kappa: cohensKappa(confusion),
    confusion,
    accuracy: { crowd: accuracy(items, (i) => i.crowd), adjudicator: accuracy(items, (i) => i.adjudicator) },
  };
}
