/**
 * The HIT page's form fields, one place for their names (the page renders them, answer
 * parsing reads them back). For the item at 1-based position i on the page:
 *
 * | field            | value                                                              |
 * |------------------|--------------------------------------------------------------------|
 * | `item{i}_answer`    | `yes` or `no` (radio group; absent when the item was not answered) |
 * | `item{i}_difficult` | `yes` when the worker ticked "this one is difficult", else absent  |
 * | `item{i}_comment`   | free text, possibly empty (at most 1,000 characters)               |
 * | `item{i}_ms`        | whole milliseconds the item was the one in focus or in view        |
 * | `item{i}_copies`    | times text was copied while the item was the current one           |
 * | `item{i}_pastes`    | times text was pasted into one of the item's fields                |
 * | `item{i}_focus_losses` | times the page lost focus (tab hidden or window blurred) on it  |
 *
 * plus `assignmentId` (MTurk convention). Nothing else is posted.
 */

export const ASSIGNMENT_ID_FIELD = 'assignmentId';

export const ITEM_FIELD_KINDS = ['answer', 'difficult', 'comment', 'ms', 'copies', 'pastes', 'focus_losses'] as const;
export type ItemFieldKind = (typeof ITEM_FIELD_KINDS)[number];

export const COMMENT_MAX_LENGTH = 1000;

export function itemField(position: number, kind: ItemFieldKind): string {
  if (!Number.isSafeInteger(position) || position < 1) throw new RangeError(`item positions start at 1, got ${position}`);
  return `item${position}_${kind}`;
}

export function itemFields(position: number): Record<ItemFieldKind, string> {
  return {
    answer: itemField(position, 'answer'),
    difficult: itemField(position, 'difficult'),
    comment: itemField(position, 'comment'),
    ms: itemField(position, 'ms'),
    copies: itemField(position, 'copies'),
    pastes: itemField(position, 'pastes'),
    focus_losses: itemField(position, 'focus_losses'),
  };
}

const ITEM_FIELD = /^item([1-9][0-9]{0,5})_(answer|difficult|comment|ms|copies|pastes|focus_losses)$/;

/** The position and kind of an item field name, or undefined for any other name. */
export function parseItemField(name: string): { position: number; kind: ItemFieldKind } | undefined {
  const m = ITEM_FIELD.exec(name);
  if (!m) return undefined;
  return { position: Number(m[1]), kind: m[2] as ItemFieldKind };
}
