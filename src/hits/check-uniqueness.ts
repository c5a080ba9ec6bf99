import type { Judgment } from '../domain/cases.js';
import type { PlannedItem } from './plan-schema.js';

/**
 * "A worker never sees the same check twice" (pure). MTurk never gives one worker two
 * assignments of the same HIT, so a gold item placed in at most one HIT of the batch can
 * reach a worker at most once: the plan draws each gold item least used first, counting the
 * uses of the batch's earlier HITs (`priorGoldUses`, for the HITs of collection rounds).
 * That guarantee holds only while the gold pool has an item of each polarity for every
 * check slot of that polarity; when it does not, `goldShortfall` says how many gold items the
 * batch needs, so that publish can say it, and the worker evidence counts a check a worker
 * meets again once (quality/worker-evidence.ts): a repeat is never counted as new evidence.
 */

export interface GoldNeed {
  /** Check slots of the plan (and earlier HITs) per polarity. */
  needed: Record<Judgment, number>;
  /** Usable gold items per polarity. */
  available: Record<Judgment, number>;
  /** Check slots that reuse a gold item already placed in another HIT of the batch. */
  repeats: number;
}

type CheckLike = Extract<PlannedItem, { kind: 'check' }>;

/** How often each gold item (by key) sits in the given HITs' items. */
export function goldUses(hits: readonly { items: readonly PlannedItem[] }[]): Map<string, number> {
  const uses = new Map<string, number>();
  for (const h of hits) for (const i of h.items) if (i.kind === 'check') uses.set(i.key, (uses.get(i.key) ?? 0) + 1);
  return uses;
}

/** The gold the checks of `hits` need for every check to be unique, against the pool. */
export function goldShortfall(hits: readonly { items: readonly PlannedItem[] }[], pool: readonly { label: Judgment }[]): GoldNeed {
  const checks = hits.flatMap((h) => h.items.filter((i): i is CheckLike => i.kind === 'check'));
  const count = (label: Judgment, xs: readonly { label?: Judgment; expected?: Judgment }[]) =>
    xs.filter((x) => (x.label ?? x.expected) === label).length;
  const uses = goldUses(hits);
  let repeats = 0;
  for (const n of uses.values()) repeats += n - 1;
  return {
    needed: { yes: count('yes', checks), no: count('no', checks) },
    available: { yes: count('yes', pool), no: count('no', pool) },
    repeats,
  };
}

/** One line for publish when checks repeat (undefined when every check is unique). */
export function describeShortfall(need: GoldNeed): string | undefined {
  if (need.repeats === 0) return undefined;
  const short = (['yes', 'no'] as const)
    .filter((l) => need.needed[l] > need.available[l])
    .map((l) => `${need.needed[l] - need.available[l]} more labelled "${l}" (${need.needed[l]} needed, ${need.available[l]} usable)`);
  return (
    `attention checks repeat: ${need.repeats} check slot${need.repeats === 1 ? '' : 's'} reuse a gold item of another HIT, so a worker may meet a check twice ` +
    `(a repeat counts once in their record, never as new evidence); for every check to be unique the gold pool needs ${short.join(' and ') || 'more items'}`
  );
}
