import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type EscalatedCase, type GoldItem, type Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { checkDebateFor, donorPool, type CheckDebateSource } from './check-debate-donor.js';
import { besideTheirQuery, countSources, pageQueryShare, queriesOf, queryAffinity } from './check-sources.js';
import { goldShortfall, type GoldNeed } from './check-uniqueness.js';
import { AdaptiveChecks, groupItems, polaritiesPerHit, starterChecksFor, starterRealItems, type HitAudience } from './adaptive-checks.js';
import { simKey } from './keys.js';
import type { CheckSummary, HitQuestion, PlannedHit, PlannedItem } from './plan-schema.js';
import { quoteCost, type CostQuote } from './quote.js';
import { seededRng, type Rng } from './random.js';
import { MAX_QUESTION_BYTES, renderHitPage, toHtmlQuestionXml, utf8Bytes, type HitPageItem } from './render.js';
import { loadHitTemplates, type HitTemplates } from './templates.js';

/**
 * Packs a batch into HITs with attention checks (pure and deterministic given the seed;
 * the only I/O is reading the page templates once, and they can be passed in).
 *
 * - Real items keep the batch's order, `itemsPerHit` to a HIT; the last HIT may be smaller.
 * - Each HIT gets `checksFor(n)` attention checks: `checksPerHit` for a full HIT, in
 *   proportion (at least one) for a smaller one, so the check share holds after splits.
 * - Check polarities (gold `yes` / `no`) are balanced over the batch (they differ by at
 *   most one) and shuffled over all check slots, so no HIT's mix is predictable. Gold
 *   items are never repeated within a HIT and are spread over HITs (least used first,
 *   counting the batch's earlier HITs), so each sits in one HIT while the pool allows and
 *   no worker meets a check twice (check-uniqueness.ts).
 * - Checks sit at seeded random positions and look like any item: same markup, same
 *   fields, a `data-sim-key` derived the same way.
 * - Check debates (check-debate-donor.ts): the gold item's own `debate` when it has one, else
 *   a real debate of the batch (of the check's query when there is one, never of the same
 *   page) adapted to the check's query, answers and chunk, the template of check-debate.ts
 *   only when the batch has no debate; the chunk highlighted as on any item. Checks' gold
 *   items share their query with the page as often as its real items do, and sit in their
 *   query's run (check-sources.ts). With gold items that carry their own debates (the
 *   bundled sample's) a classifier on the page does no better than chance (AUC 0.577 vs
 *   0.5 ± 0.105 on 1,000 pages, test/hits/checks-indistinguishable.test.ts,
 *   bench/checks-classifier.ts); with adapted donor debates it still does (0.645): an
 *   adapted debate paraphrases its donor's chunk. An open gap of issue 16 for such gold.
 * - Size: each HIT is rendered; a HIT whose HTMLQuestion XML exceeds `maxQuestionBytes`
 *   is split in two (and checks are recomputed for each half) until all fit. A case that
 *   fits alone but not with its check(s) never stops the batch: its HIT first takes checks
 *   from gold items short enough to fit beside it; when none is, the HIT goes without
 *   checks and they move, one per HIT, to the batch's HITs of more than one item (the
 *   batch's check count stays the same whenever it has such HITs). Only a case that does
 *   not fit even alone is refused, with its input line (`caseOrigins`) and size.
 */

export const PlanLayout = z
  .object({
    /** Real items per HIT. */
    itemsPerHit: z.number().int().min(1).max(100).default(9),
    /** Attention checks in a full HIT. Give this or `checkShare`; default 1. */
    checksPerHit: z.number().int().min(0).max(50).optional(),
    /** Alternatively: the share of a HIT's items that are checks (0.1: 9 real + 1 check). */
    checkShare: z.number().min(0).max(0.5).optional(),
    hideDebate: z.boolean().default(false),
    /** Hidden canary instructions in the page (src/hits/canary.ts): evidence of LLM-assisted answers. */
    canary: z.boolean().default(true),
    frameHeight: z.number().int().min(0).max(10_000).default(0),
    title: z.string().trim().min(1).max(200).optional(),
    /** Adaptive attention checks: starter HITs with more checks for new workers (adaptive-checks.ts); absent: off. */
    adaptive: AdaptiveChecks.optional(),
  })
  .strict()
  .refine((l) => l.checksPerHit === undefined || l.checkShare === undefined, {
    message: 'give checksPerHit or checkShare, not both',
    path: ['checkShare'],
  });
export type PlanLayoutInput = z.input<typeof PlanLayout>;
export type PlanLayout = z.output<typeof PlanLayout>;

export interface PlanPricing {
  /** Reward per assignment ("1.00"). */
  reward: string;
  assignmentsPerHit: number;
  masters: boolean;
  /** Whose fees the quote uses: MTurk's (absent) or Prolific's. */
  platform?: 'mturk' | 'prolific';
}

export interface PlanInput {
  /** The batch's real items, in the order they are to be packed. */
  cases: readonly EscalatedCase[];
  /** Items with known answers; both polarities are needed when the plan has checks. */
  gold: readonly GoldItem[];
  /**
   * Uses of gold items (by key) in the batch's HITs planned before this plan (a collection
   * round's new HITs): drawn least used first, they stay unique across the batch while the
   * pool allows (check-uniqueness.ts).
   */
  priorGoldUses?: ReadonlyMap<string, number>;
  /** With adaptive checks: every HIT of this kind (a collection round moving items over); default: the batch's mix. */
  audience?: HitAudience;
  /** Where each case came from (`cases[i]`: "line 18 of escalations.jsonl"), named when a case cannot be published. */
  caseOrigins?: readonly string[];
}

export interface PlanOptions {
  seed: string;
  layout: PlanLayoutInput;
  pricing: PlanPricing;
  maxQuestionBytes?: number;
  templates?: HitTemplates;
  /**
   * Also render each page without the debate (`HitQuestion.withoutDebateXml`): the other arm
   * of the debate experiment (docs/experiment.md), the same items, checks and keys.
   */
  withoutDebate?: boolean;
}

export interface HitPlan {
  version: 1;
  seed: string;
  layout: PlanLayout;
  pricing: PlanPricing;
  /** Small per-HIT metadata, in publishing order. */
  hits: PlannedHit[];
  /** The Question XML of each HIT, `questions[i].index === hits[i].index`. */
  questions: HitQuestion[];
  checks: CheckSummary;
  quote: CostQuote;
  /** How many times a HIT was split to fit MTurk's size limit. */
  splits: number;
  /** HITs of one case too long to hold any check beside it: their checks went to other HITs. */
  checklessHits: number;
  /** The gold its checks need to be unique in the batch, against the pool (check-uniqueness.ts). */
  goldNeed: GoldNeed;
}

/** Checks for a HIT of `n` real items: the layout's rate, at least one when the rate is not 0. */
export function checksFor(n: number, layout: Pick<PlanLayout, 'itemsPerHit' | 'checksPerHit' | 'checkShare'>): number {
  const rate =
    layout.checkShare !== undefined ? layout.checkShare / (1 - layout.checkShare) : (layout.checksPerHit ?? 1) / layout.itemsPerHit;
  if (rate === 0) return 0;
  // the epsilon keeps 9 * (0.1 / 0.9) from landing just under a whole number
  return Math.max(1, Math.round(n * rate + 1e-9));
}

/** `total` polarities, half `yes` and half `no` (`odd`, else a coin, decides an odd one), shuffled. */
export function balancedPolarities(total: number, rng: Rng, odd?: Judgment): Judgment[] {
  // the coin is drawn whenever it was before `odd` existed, so that a seed's plan stays the same
  const coin = total % 2 === 1 ? rng.int(2) : 0;
  const yes = Math.floor(total / 2) + (total % 2 === 1 ? (odd === undefined ? coin : odd === 'yes' ? 1 : 0) : 0);
  return rng.shuffle([...Array<Judgment>(yes).fill('yes'), ...Array<Judgment>(total - yes).fill('no')]);
}

const describeCase = (c: { query_id: string; chunk_id: string }, origin?: string) =>
  `${origin ? `${origin}, ` : ''}query_id ${JSON.stringify(c.query_id)} chunk_id ${JSON.stringify(c.chunk_id)}`;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Picks, among indices passing `score` (lower is better, undefined excludes), a best one at random. */
function pickBest(count: number, score: (i: number) => number[] | undefined, rng: Rng): number | undefined {
  let best: number[] | undefined;
  let ties: number[] = [];
  for (let i = 0; i < count; i++) {
    const s = score(i);
    if (!s) continue;
    const cmp = best === undefined ? -1 : compareScores(s, best);
    if (cmp < 0) {
      best = s;
      ties = [i];
    } else if (cmp === 0) ties.push(i);
  }
  return ties.length === 0 ? undefined : ties[rng.int(ties.length)];
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** Bytes kept free beside a long case's checks: item positions and canaries differ a little from the estimate. */
const FIT_MARGIN_BYTES = 512;

/**
 * Check counts per HIT when some HITs can hold none (`none`: a case too long for any check
 * beside it): their checks go, one at a time, to the HIT with the fewest checks per real
 * item after taking it (the first such on a tie) among the HITs of more than one case
 * (`kinds[i]`: the HIT's real items; `keep`: a long case that keeps its own), each at most
 * `cap` (a HIT never shows a gold item twice). So the batch's check count stays as planned
 * wherever it has HITs to take them. Pure.
 */
export function moveChecks(counts: readonly number[], kinds: readonly (number | 'none' | 'keep')[], cap: number): number[] {
  const out = counts.map((c, i) => (kinds[i] === 'none' ? 0 : c));
  let moving = counts.reduce((sum, c, i) => sum + (kinds[i] === 'none' ? c : 0), 0);
  while (moving > 0) {
    let best = -1;
    let bestRate = Infinity;
    kinds.forEach((kind, i) => {
      if (typeof kind !== 'number' || kind < 2 || (out[i] as number) >= cap) return;
      const rate = ((out[i] as number) + 1) / kind;
      if (rate < bestRate) {
        bestRate = rate;
        best = i;
      }
    });
    if (best < 0) break; // no HIT can take them: the batch has fewer checks
    out[best] = (out[best] as number) + 1;
    moving--;
  }
  return out;
}

function parseLayout(layout: PlanLayoutInput): PlanLayout {
  const parsed = PlanLayout.safeParse(layout);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'layout'}: ${i.message}`);
    throw new UserError(`bad HIT layout: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** A planned HIT with its question, the gold items its checks use and where their debates come from. */
interface BuiltHit {
  hit: PlannedHit;
  xml: string;
  withoutDebateXml?: string;
  goldUsed: number[];
  sources: CheckDebateSource[];
}

/** Each case's key; a case twice in the batch is refused. */
function uniqueCaseKeys(cases: readonly EscalatedCase[]): string[] {
  const caseKeys = cases.map((c) => simKey(c.query_id, c.chunk_id));
  const firstByKey = new Map<string, number>();
  caseKeys.forEach((key, i) => {
    const earlier = firstByKey.get(key);
    if (earlier !== undefined)
      throw new UserError(
        `the batch holds ${describeCase(cases[i] as EscalatedCase)} twice (items ${earlier + 1} and ${i + 1}): remove the duplicate`,
      );
    firstByKey.set(key, i);
  });
  return caseKeys;
}

/** The gold pool without repeats and without batch items (those would be judged twice, or twice in one HIT). */
function usableGold(pool: readonly GoldItem[], caseKeys: readonly string[]): Array<GoldItem & { key: string }> {
  const seenGold = new Set<string>(caseKeys);
  const gold: Array<GoldItem & { key: string }> = [];
  for (const g of pool) {
    const key = simKey(g.query_id, g.chunk_id);
    if (seenGold.has(key)) continue;
    seenGold.add(key);
    gold.push({ ...g, key });
  }
  return gold;
}

/** The plan from its built HITs: questions, check statistics, quote and what the gold pool lacks. */
function summarizePlan(
  built: readonly BuiltHit[],
  context: {
    seed: string;
    layout: PlanLayout;
    pricing: PlanOptions['pricing'];
    gold: ReadonlyArray<GoldItem & { key: string }>;
    batchQueries: ReturnType<typeof queriesOf>;
    splits: number;
    checklessHits: number;
  },
): HitPlan {
  const { seed, layout, pricing, gold, batchQueries, splits, checklessHits } = context;
  const hits = built.map((b) => b.hit);
  const questions = built.map((b) => ({
    index: b.hit.index,
    xml: b.xml,
    bytes: b.hit.bytes,
    sha256: b.hit.questionSha256,
    ...(b.withoutDebateXml !== undefined && { withoutDebateXml: b.withoutDebateXml }),
  }));
  const checkItems = hits.flatMap((h) => h.items).filter((i) => i.kind === 'check');
  const uses = new Map<string, number>();
  for (const c of checkItems) uses.set(c.key, (uses.get(c.key) ?? 0) + 1);
  const realItems = hits.reduce((a, h) => a + h.realItems, 0);
  return {
    version: 1,
    seed,
    layout,
    pricing,
    hits,
    questions,
    checks: {
      total: checkItems.length,
      yes: checkItems.filter((c) => c.expected === 'yes').length,
      no: checkItems.filter((c) => c.expected === 'no').length,
      share: checkItems.length / (checkItems.length + realItems),
      goldItemsUsed: uses.size,
      maxUsesOfOneGoldItem: Math.max(0, ...uses.values()),
      debateSources: countSources(built.flatMap((b) => b.sources)),
      otherQueries: built
        .flatMap((b) => b.goldUsed)
        .filter((g) => queryAffinity((gold[g] as GoldItem).query, false, new Set(), batchQueries) === 2).length,
    },
    quote: quoteCost({ hits: hits.map((h) => ({ realItems: h.realItems, checks: h.checks })), ...pricing }),
    splits,
    checklessHits,
    goldNeed: goldShortfall(hits, gold),
  };
}

export function planHits(input: PlanInput, options: PlanOptions): HitPlan {
  const layout = parseLayout(options.layout);
  const { seed, pricing } = options;
  if (seed.trim() === '') throw new UserError('planning needs a non-empty seed (the same seed gives the same plan)');
  const maxBytes = options.maxQuestionBytes ?? MAX_QUESTION_BYTES;
  const templates = options.templates ?? loadHitTemplates();
  const cases = input.cases;
  if (cases.length === 0) throw new UserError('the batch has no items to put into HITs');

  const caseKeys = uniqueCaseKeys(cases);
  const gold = usableGold(input.gold, caseKeys);

  // checks draw on the batch's queries and debates (check-sources.ts, check-debate-donor.ts)
  const batchQueries = queriesOf(cases);
  const donors = donorPool(cases.map((c, i) => ({ ...c, key: caseKeys[i] as string })));

  // with adaptive checks a HIT is a starter or a regular one (`audiences[i]` of `groups[i]`)
  const regularChecks = checksFor(layout.itemsPerHit, layout);
  const starterSize = layout.adaptive ? starterRealItems(layout.itemsPerHit, regularChecks, layout.adaptive) : 0;
  const checksOf = (n: number, audience: HitAudience | undefined) =>
    audience === 'starter' && layout.adaptive ? starterChecksFor(n, starterSize, layout.adaptive) : checksFor(n, layout);
  let audiences: Array<HitAudience | undefined> = [];

  // the HTMLQuestion of a page, rendered as the plan renders it
  const pageBytes = (items: HitPageItem[]): number =>
    utf8Bytes(
      toHtmlQuestionXml(
        renderHitPage(
          { items, hideDebate: layout.hideDebate, canary: layout.canary, ...(layout.title && { title: layout.title }) },
          templates,
        ),
        layout.frameHeight,
      ),
    );
  const caseItem = (i: number): HitPageItem => {
    const c = cases[i] as EscalatedCase;
    return { position: 1, key: caseKeys[i] as string, query: c.query, answers: c.answers, chunk: c.chunk, debate: c.debate };
  };
  const aloneCache = new Map<number, number>();
  /** A case's HIT with no check: the smallest form it can be published in. */
  const aloneBytes = (i: number): number => {
    let bytes = aloneCache.get(i);
    if (bytes === undefined) aloneCache.set(i, (bytes = pageBytes([caseItem(i)])));
    return bytes;
  };
  // what a check adds to a page: its page alone less an empty page's shell
  const shellBytes = pageBytes([{ position: 1, key: '0'.repeat(16), query: '', answers: [], chunk: '', debate: [] }]);
  const checkCache = new Map<string, number>();
  const checkBytes = (g: number, caseIndex: number): number => {
    const id = `${g}|${caseIndex}`;
    let bytes = checkCache.get(id);
    if (bytes === undefined) {
      const item = gold[g] as GoldItem & { key: string };
      const shown = layout.hideDebate
        ? undefined
        : checkDebateFor(item, { seed, pool: donors, exclude: new Set([caseKeys[caseIndex] as string]) });
      bytes =
        pageBytes([
          { position: 1, key: item.key, query: item.query, answers: item.answers, chunk: item.chunk, debate: shown?.debate ?? [] },
        ]) - shellBytes;
      checkCache.set(id, bytes);
    }
    return bytes;
  };

  /**
   * Cases that fit a HIT alone but not with the check(s) a first plan gave them (by batch
   * index): `fit`, their checks are drawn only from gold items short enough to fit beside
   * them; `none`, no gold item is, so the HIT goes without checks and they move elsewhere.
   */
  const tight = new Map<number, 'fit' | 'none'>();
  const tightOf = (group: readonly number[]) => (group.length === 1 ? tight.get(group[0] as number) : undefined);

  const build = (groups: number[][]): BuiltHit[] => {
    const rng = seededRng(seed);
    const wantedCounts = groups.map((g, i) => checksOf(g.length, audiences[i]));
    const checkCounts = moveChecks(
      wantedCounts,
      groups.map((g) => (tightOf(g) === 'none' ? 'none' : tightOf(g) === 'fit' ? 'keep' : g.length)),
      gold.length,
    );
    const totalChecks = checkCounts.reduce((a, b) => a + b, 0);
    if (totalChecks > 0) {
      for (const polarity of ['yes', 'no'] as const) {
        if (!gold.some((g) => g.label === polarity)) {
          throw new UserError(
            `the gold pool has no usable item labelled "${polarity}" (${gold.length} usable items in all): attention checks need both polarities, ` +
              'or a worker who always answers one way passes them; add gold items of both labels',
          );
        }
      }
    }
    const goldUses = gold.map((g) => input.priorGoldUses?.get(g.key) ?? 0);
    // an odd check goes to the polarity with more unused gold, so that checks stay unique where the pool allows
    const unused = (label: Judgment) => gold.filter((g, i) => g.label === label && goldUses[i] === 0).length;
    const half = Math.ceil(totalChecks / 2);
    const short = (['yes', 'no'] as const).filter((l) => unused(l) < half);
    const odd = short.length === 1 ? (short[0] === 'yes' ? 'no' : 'yes') : undefined;
    const polarities = audiences.some((a) => a === 'starter')
      ? polaritiesPerHit(checkCounts, audiences, rng, balancedPolarities, odd).flat()
      : balancedPolarities(totalChecks, rng, odd);
    let cursor = 0;

    return groups.map((group, index) => {
      const checks = checkCounts[index] as number;
      if (checks > gold.length) {
        throw new UserError(
          `a HIT needs ${checks} attention checks but the gold pool has only ${gold.length} usable items, and a gold item is never used twice in one HIT: add gold items or lower the checks per HIT`,
        );
      }
      const wanted = polarities.slice(cursor, cursor + checks);
      cursor += checks;
      const chosen: number[] = [];
      // a check shares its query with the page as often as the page's real items do (check-sources.ts)
      const pageCases = group.map((i) => cases[i] as EscalatedCase);
      const pageQueries = queriesOf(pageCases);
      const shareOnPage = pageQueryShare(pageCases.map((c) => c.query));
      const queryRng = seededRng(`${seed}\u0000check-query\u0000${index}`);
      // a case too long for just any check beside it: the bytes its checks may add (a margin for positions and canaries)
      const only = tightOf(group) === 'fit' ? (group[0] as number) : undefined;
      let room = only === undefined ? Infinity : maxBytes - aloneBytes(only) - FIT_MARGIN_BYTES;
      for (const polarity of wanted) {
        const onPage = queryRng.next() < shareOnPage;
        const pick = (label: Judgment, sized: boolean) =>
          pickBest(
            gold.length,
            (i) =>
              gold[i]?.label === label && !chosen.includes(i) && (!sized || only === undefined || checkBytes(i, only) <= room)
                ? // unused gold first (no worker meets a check twice: check-uniqueness.ts), then the query that suits the page
                  [
                    Math.min(goldUses[i] as number, 1),
                    queryAffinity((gold[i] as GoldItem).query, onPage, pageQueries, batchQueries),
                    goldUses[i] as number,
                  ]
                : undefined,
            rng,
          );
        // a polarity may run out within one HIT when the pool is tiny (or hold no item short enough); take the other then
        const other = polarity === 'yes' ? 'no' : 'yes';
        // none short enough: the HIT overflows and goes without checks in the next round (`tight`)
        const g = pick(polarity, true) ?? pick(other, true) ?? pick(polarity, false) ?? (pick(other, false) as number);
        if (only !== undefined) room -= checkBytes(g, only);
        chosen.push(g);
        goldUses[g] = (goldUses[g] as number) + 1;
      }

      const size = group.length + checks;
      const checkPositions = new Set(rng.shuffle(Array.from({ length: size }, (_, i) => i + 1)).slice(0, checks));
      const items: PlannedItem[] = [];
      const pageItems: HitPageItem[] = [];
      let nextReal = 0;
      let nextCheck = 0;
      const sources: CheckDebateSource[] = [];
      const pageKeys = new Set(group.map((i) => caseKeys[i] as string));
      for (let position = 1; position <= size; position++) {
        if (checkPositions.has(position)) {
          const g = gold[chosen[nextCheck] as number] as GoldItem & { key: string };
          nextCheck++;
          items.push({
            kind: 'check',
            position,
            key: g.key,
            queryId: g.query_id,
            chunkId: g.chunk_id,
            dataset: g.dataset,
            expected: g.label,
          });
          const shown = layout.hideDebate ? undefined : checkDebateFor(g, { seed, pool: donors, exclude: pageKeys });
          if (shown) sources.push(shown.source);
          pageItems.push({ position, key: g.key, query: g.query, answers: g.answers, chunk: g.chunk, debate: shown?.debate ?? [] });
        } else {
          const i = group[nextReal++] as number;
          const c = cases[i] as EscalatedCase;
          items.push({ kind: 'real', position, key: caseKeys[i] as string, queryId: c.query_id, chunkId: c.chunk_id, dataset: c.dataset });
          pageItems.push({ position, key: caseKeys[i] as string, query: c.query, answers: c.answers, chunk: c.chunk, debate: c.debate });
        }
      }
      // a check joins the run of its query's real items (check-sources.ts)
      const placed = besideTheirQuery(
        items.map((item, i) => ({
          item,
          page: pageItems[i] as HitPageItem,
          query: (pageItems[i] as HitPageItem).query,
          check: item.kind === 'check',
        })),
        seededRng(`${seed}\u0000check-place\u0000${index}`),
      );
      placed.forEach((p, i) => {
        items[i] = { ...p.item, position: i + 1 };
        pageItems[i] = { ...p.page, position: i + 1 };
      });
      const html = renderHitPage(
        { items: pageItems, hideDebate: layout.hideDebate, canary: layout.canary, ...(layout.title && { title: layout.title }) },
        templates,
      );
      const xml = toHtmlQuestionXml(html, layout.frameHeight);
      // the experiment's no-debate arm: this very page (items, checks, keys) without the agents' debate
      const withoutDebateXml =
        options.withoutDebate && !layout.hideDebate
          ? toHtmlQuestionXml(
              renderHitPage(
                { items: pageItems, hideDebate: true, canary: layout.canary, ...(layout.title && { title: layout.title }) },
                templates,
              ),
              layout.frameHeight,
            )
          : undefined;
      const audience = audiences[index];
      return {
        hit: {
          index,
          items,
          realItems: group.length,
          checks,
          bytes: utf8Bytes(xml),
          questionSha256: sha256(xml),
          ...(audience && { audience }),
        },
        xml,
        ...(withoutDebateXml !== undefined && { withoutDebateXml }),
        goldUsed: chosen,
        sources,
      };
    });
  };

  const grouped = groupItems(cases.length, { ...layout, regularChecks }, options.pricing.assignmentsPerHit, input.audience);
  let groups = grouped.map((g) => g.items);
  audiences = grouped.map((g) => g.audience);
  let splits = 0;
  for (;;) {
    const built = build(groups);
    const oversized = new Set(built.filter((b) => b.hit.bytes > maxBytes).map((b) => b.hit.index));
    if (oversized.size === 0)
      return summarizePlan(built, {
        seed,
        layout,
        pricing,
        gold,
        batchQueries,
        splits,
        checklessHits: groups.filter((g) => tightOf(g) === 'none').length,
      });
    const next: number[][] = [];
    const nextAudiences: Array<HitAudience | undefined> = [];
    groups.forEach((group, index) => {
      if (!oversized.has(index)) {
        nextAudiences.push(audiences[index]);
        return next.push(group);
      }
      if (group.length === 1) {
        const i = group[0] as number;
        const alone = aloneBytes(i);
        if (alone > maxBytes) {
          throw new UserError(
            `batch item ${i + 1} (${describeCase(cases[i] as EscalatedCase, input.caseOrigins?.[i])}) alone makes a ${alone}-byte HTMLQuestion, over MTurk's limit of ${maxBytes} bytes: shorten its chunk or debate, or leave it out of the batch`,
          );
        }
        // it fits alone: first with checks short enough to fit beside it, then without checks
        if (tight.get(i) === 'none')
          throw new Error(`internal: batch item ${i + 1} without checks makes ${built[index]?.hit.bytes} bytes, ${alone} alone`);
        tight.set(i, tight.has(i) ? 'none' : 'fit');
        nextAudiences.push(audiences[index]);
        return next.push(group);
      }
      const half = Math.ceil(group.length / 2);
      next.push(group.slice(0, half), group.slice(half));
      nextAudiences.push(audiences[index], audiences[index]);
      splits++;
    });
    groups = next;
    audiences = nextAudiences;
  }
}
