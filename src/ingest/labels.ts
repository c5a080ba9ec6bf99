import type { Judgment, Stance } from '../domain/cases.js';

/**
 * The label and stance spellings accepted on input, normalised to the canonical
 * `yes`/`no` and `relevant`/`irrelevant`. Matching ignores case and surrounding space, and
 * treats `-`, `_` and spaces alike ("Not_Relevant" = "not relevant").
 */
export const JUDGMENT_SPELLINGS: ReadonlyMap<string, Judgment> = new Map([
  ['yes', 'yes'],
  ['no', 'no'],
  ['relevant', 'yes'],
  ['irrelevant', 'no'],
  ['not relevant', 'no'],
  ['non relevant', 'no'],
  ['nonrelevant', 'no'],
  ['1', 'yes'],
  ['0', 'no'],
  ['true', 'yes'],
  ['false', 'no'],
]);

export const STANCE_SPELLINGS: ReadonlyMap<string, Stance> = new Map([
  ['relevant', 'relevant'],
  ['irrelevant', 'irrelevant'],
  ['not relevant', 'irrelevant'],
  ['non relevant', 'irrelevant'],
  ['nonrelevant', 'irrelevant'],
]);

/** Shown after a rejected label so that the reader knows what else would have worked. */
export const JUDGMENT_HINT = 'also accepted: relevant/irrelevant, 1/0, true/false';

function spelling(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

/**
 * `yes`/`no` for any accepted spelling (strings, the numbers 1 and 0, booleans); anything
 * else comes back unchanged so that validation reports the value as it was written.
 */
export function normalizeJudgment(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value === 1) return 'yes';
  if (value === 0) return 'no';
  if (typeof value === 'string') return JUDGMENT_SPELLINGS.get(spelling(value)) ?? value;
  return value;
}

/** `relevant`/`irrelevant` for any accepted spelling; anything else unchanged. */
export function normalizeStance(value: unknown): unknown {
  if (typeof value === 'string') return STANCE_SPELLINGS.get(spelling(value)) ?? value;
  return value;
}
