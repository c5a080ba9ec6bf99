import { z } from 'zod';
import type { Judgment } from '../domain/cases.js';
import type { Rng } from './random.js';

/**
 * Adaptive attention checks (pure): more checks while a worker is new, the configured share
 * after. A HIT page is fixed when the HIT is created, before anyone takes it, so the checks
 * cannot follow the worker inside one HIT type; MTurk's own tool for "who may take which
 * HIT" is the qualification requirement. A batch with adaptive checks therefore publishes two
 * kinds of HITs (docs/adaptive-checks.md):
 * - *starter* HITs, the same size of page as any HIT but with `starterChecks` of its items
 *   checks (both polarities), on a HIT type that requires the target's `qrelay-experience`
 *   qualification NOT to exist: only workers qrelay has not yet seen do `starterHits` HITs;
 * - *regular* HITs with the configured check share, on a HIT type that requires
 *   `qrelay-experience` to exist. qrelay grants it (value: the HITs the worker submitted in
 *   the batch) in the collection round after a worker's `starterHits`-th HIT.
 * The starter pool is sized from the workers expected (`expectedWorkers`): each does
 * `starterHits` starter HITs, a starter HIT takes `assignmentsPerHit` workers. When one kind
 * runs out of free slots while the other still offers some, collection rounds move HITs of
 * the other kind over (`audienceMoves`), so the batch never waits for workers who do not come.
 */

export const AdaptiveChecks = z
  .object({
    /** How many HITs a worker does as a starter before the regular check share applies. */
    starterHits: z.number().int().min(1).max(50).default(2),
    /** Checks in a starter HIT (of the same page size as a regular one). */
    starterChecks: z.number().int().min(1).max(20).default(3),
    /** Workers the batch is expected to draw: sizes the starter pool. */
    expectedWorkers: z.number().int().min(1).max(100_000).default(50),
  })
  .strict();
export type AdaptiveChecksInput = z.input<typeof AdaptiveChecks>;
export type AdaptiveChecks = z.output<typeof AdaptiveChecks>;

export const HIT_AUDIENCES = ['starter', 'regular'] as const;
export type HitAudience = (typeof HIT_AUDIENCES)[number];

export interface ItemGroup {
  /** Indices of the batch's real items. */
  items: number[];
  audience?: HitAudience;
}

/** Real items in a starter HIT: the page holds as many items as a full regular HIT, `starterChecks` of them checks. */
export function starterRealItems(itemsPerHit: number, regularChecks: number, adaptive: Pick<AdaptiveChecks, 'starterChecks'>): number {
  return Math.max(1, itemsPerHit + regularChecks - adaptive.starterChecks);
}

/** Starter HITs for the expected workers: each does `starterHits` of them, `assignmentsPerHit` workers to a HIT. */
export function starterHitsWanted(adaptive: AdaptiveChecks, assignmentsPerHit: number): number {
  return Math.ceil((adaptive.expectedWorkers * adaptive.starterHits) / Math.max(1, assignmentsPerHit));
}

const runs = (indices: readonly number[], size: number): number[][] => {
  const out: number[][] = [];
  for (let start = 0; start < indices.length; start += size) out.push(indices.slice(start, start + size));
  return out;
};

/**
 * The batch's items in HITs, in batch order: without adaptive checks `itemsPerHit` to a HIT;
 * with them the starter HITs first (`starterRealItems` each, as many as the expected workers
 * need, at most the whole batch), then regular HITs. `only` puts every item in HITs of one
 * kind (a collection round moving items to the other kind).
 */
export function groupItems(
  count: number,
  layout: { itemsPerHit: number; regularChecks: number; adaptive?: AdaptiveChecks | undefined },
  assignmentsPerHit: number,
  only?: HitAudience,
): ItemGroup[] {
  const all = Array.from({ length: count }, (_, i) => i);
  const { adaptive } = layout;
  if (!adaptive) return runs(all, layout.itemsPerHit).map((items) => ({ items }));
  const starterSize = starterRealItems(layout.itemsPerHit, layout.regularChecks, adaptive);
  if (only) return runs(all, only === 'starter' ? starterSize : layout.itemsPerHit).map((items) => ({ items, audience: only }));
  const starterItems = Math.min(count, starterHitsWanted(adaptive, assignmentsPerHit) * starterSize);
  return [
    ...runs(all.slice(0, starterItems), starterSize).map((items) => ({ items, audience: 'starter' as const })),
    ...runs(all.slice(starterItems), layout.itemsPerHit).map((items) => ({ items, audience: 'regular' as const })),
  ];
}

/** The plan's line on adaptive checks for `publish --dry-run` (undefined without them). */
export function describeAdaptive(plan: {
  layout: { adaptive?: AdaptiveChecks | undefined };
  hits: readonly { audience?: HitAudience | undefined; checks: number; realItems: number }[];
}): string | undefined {
  const a = plan.layout.adaptive;
  if (!a) return undefined;
  const starters = plan.hits.filter((h) => h.audience === 'starter');
  const checks = starters.reduce((s, h) => s + h.checks, 0);
  const items = starters.reduce((s, h) => s + h.realItems, 0);
  return (
    `adaptive checks: ${starters.length} starter HITs (${items} items, ${checks} checks of both polarities) for workers' first ${a.starterHits} HITs, ` +
    `sized for ${a.expectedWorkers} workers; then regular HITs (qualification qrelay-experience); the quote includes the extra checks`
  );
}

/** HITs moved to the other kind in one collection round at most: a quarter of the starter pool. */
export function movesPerRound(adaptive: AdaptiveChecks, assignmentsPerHit: number): number {
  return Math.max(1, Math.ceil(starterHitsWanted(adaptive, assignmentsPerHit) / 4));
}

/** Checks of a starter HIT: `starterChecks`, fewer only for a HIT a size split made smaller (at least one). */
export function starterChecksFor(realItems: number, fullSize: number, adaptive: Pick<AdaptiveChecks, 'starterChecks'>): number {
  if (realItems >= fullSize) return adaptive.starterChecks;
  return Math.max(1, Math.round((adaptive.starterChecks * realItems) / fullSize));
}

type Balanced = (total: number, rng: Rng, odd?: Judgment) => Judgment[];

/**
 * Check polarities HIT by HIT: a starter HIT with two or more checks holds both (a worker
 * who always answers one way fails one of their first checks), its odd one alternating
 * between pairs of starter HITs (a coin for the first of each pair); the regular HITs share
 * the rest, so that the batch's polarities still differ by at most one.
 */
export function polaritiesPerHit(
  checkCounts: readonly number[],
  audiences: readonly (HitAudience | undefined)[],
  rng: Rng,
  balanced: Balanced,
  odd?: Judgment,
): Judgment[][] {
  let tilt = 0; // yes minus no so far
  let pending: Judgment | undefined;
  const out: Judgment[][] = checkCounts.map((c, i) => {
    if (audiences[i] !== 'starter') return [];
    let lean: Judgment | undefined;
    if (c % 2 === 1) {
      lean = pending ?? (rng.int(2) === 1 ? 'yes' : 'no');
      pending = pending ? undefined : lean === 'yes' ? 'no' : 'yes';
    }
    const p = balanced(c, rng, lean);
    tilt += p.filter((x) => x === 'yes').length * 2 - c;
    return p;
  });
  const rest = checkCounts.reduce((sum, c, i) => sum + (audiences[i] === 'starter' ? 0 : c), 0);
  // the regular checks make up the starters' tilt (as far as they can), then split evenly
  const yesRest = Math.min(rest, Math.max(0, Math.round((rest - tilt) / 2)));
  const regular =
    tilt === 0
      ? balanced(rest, rng, odd)
      : rng.shuffle([...Array<Judgment>(yesRest).fill('yes'), ...Array<Judgment>(rest - yesRest).fill('no')]);
  let cursor = 0;
  return out.map((p, i) => {
    if (audiences[i] === 'starter') return p;
    const c = checkCounts[i] as number;
    cursor += c;
    return regular.slice(cursor - c, cursor);
  });
}

export interface AudienceHit {
  id: string;
  audience: HitAudience;
  /** Open on the platform (not expired, not done). */
  open: boolean;
  /** Free slots: assignments nobody has accepted yet. */
  available: number;
}

/**
 * HITs to move to the other kind this round: when every open HIT of one kind is taken (no
 * free slot) and workers of that kind are there to want more (`demand`), while HITs of the
 * other kind still offer slots, up to `perRound` of those (most free slots first) go over.
 * One kind of worker running out of HITs while the other kind's HITs wait would otherwise
 * stall the batch: new workers who find no starter HIT, or experienced ones when no new
 * workers come. Moves need workers taking slots, so they cannot go back and forth idly.
 */
export function audienceMoves(
  hits: readonly AudienceHit[],
  perRound: number,
  demand: Readonly<Record<HitAudience, boolean>>,
): { to: HitAudience; ids: string[] } | undefined {
  const free = (a: HitAudience) => hits.filter((h) => h.audience === a && h.open).reduce((s, h) => s + h.available, 0);
  for (const to of HIT_AUDIENCES) {
    const from: HitAudience = to === 'starter' ? 'regular' : 'starter';
    if (!demand[to] || free(to) > 0) continue;
    const candidates = hits
      .filter((h) => h.audience === from && h.open && h.available > 0)
      .sort((a, b) => b.available - a.available || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (candidates.length > 0) return { to, ids: candidates.slice(0, Math.max(1, perRound)).map((h) => h.id) };
  }
  return undefined;
}
