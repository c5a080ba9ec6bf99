import type { Judgment } from '../domain/cases.js';
import type { HitRecord } from './types.js';

/**
 * A HIT record's items as a set and its checks as a map, built once per record. The
 * whole-batch computations of a collection round (valid votes, worker evidence, statistics,
 * reputation) look each assignment's items up in its HIT's, and built these anew for every
 * assignment, several times a round; a round keeps its HIT records from one round to the
 * next (pipeline/derived-records.ts). Kept per record object and checked against the very
 * arrays it was built from, so a record given new items gets new views.
 */
interface Views {
  readonly items: HitRecord['items'];
  readonly checks: HitRecord['checks'];
  readonly real: ReadonlySet<string>;
  readonly expected: ReadonlyMap<string, Judgment>;
}

const views = new WeakMap<HitRecord, Views>();

function viewsOf(hit: HitRecord): Views {
  const kept = views.get(hit);
  if (kept && kept.items === hit.items && kept.checks === hit.checks) return kept;
  const made: Views = {
    items: hit.items,
    checks: hit.checks,
    real: new Set(hit.items),
    expected: new Map(hit.checks.map((c) => [c.item, c.expected])),
  };
  views.set(hit, made);
  return made;
}

/** The HIT's real items (checks excluded). */
export const realItemsOf = (hit: HitRecord): ReadonlySet<string> => viewsOf(hit).real;

/** The HIT's checks: item -> known answer (the last, should an item be listed twice, as a Map built from the list keeps). */
export const expectedAnswersOf = (hit: HitRecord): ReadonlyMap<string, Judgment> => viewsOf(hit).expected;
