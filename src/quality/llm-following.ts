import type { Judgment } from '../domain/cases.js';
import { binomialUpperTail, median, type LlmFollowingVerdict } from './llm-assisted.js';

/**
 * LLM-assisted answers seen through what qrelay knows and a careful person does not (pure,
 * issue 35): the LLM's verdict on each item (the debating agents' final label where they
 * agree, else the adjudicator's label when one is stored). A careful person errs on items the
 * LLM gets wrong no more than on others; a worker who pastes items into an LLM follows it
 * exactly where it is wrong. So, per worker, on the items where the other workers' majority
 * (ties left out) says the opposite of the LLM's verdict, the share of the worker's answers
 * equal to the LLM's verdict is set against the typical share among the batch's other workers
 * (the median of their shares, each over enough such items): with a Jeffreys posterior
 * Beta(k + ½, n − k + ½) on the worker's rate, the worker is flagged when P(rate > typical +
 * margin) reaches the stated confidence, on `minItems` such items at least. Page events (a
 * copy, a paste or the page losing focus) on more of the worker's items than the other
 * workers' rate allows (one-sided binomial tail under `eventP`) lower that confidence to
 * `withEventsConfidence`: they are evidence, never proof alone (people leave the page too).
 */

export interface FollowingAnswer {
  readonly item: string;
  readonly answer: Judgment;
  /** The page counted a copy, a paste or a focus loss on this item. */
  readonly event: boolean;
}

export interface LlmFollowingPolicy {
  /** Fewest items where the crowd contradicts the LLM before a worker is tested (and before a worker's share counts towards the typical one). */
  readonly minItems: number;
  /** How far above the other workers' typical share the worker's rate must be (careful people's error rates differ). */
  readonly margin: number;
  /** P(rate > typical + margin) at which a worker is flagged. */
  readonly confidence: number;
  /** ... and the lower confidence that suffices with page events beyond the other workers'. */
  readonly withEventsConfidence: number;
  /** The binomial tail of the worker's event items under the others' event rate below which events count. */
  readonly eventP: number;
}

export const DEFAULT_LLM_FOLLOWING_POLICY: LlmFollowingPolicy = {
  minItems: 8,
  margin: 0.25,
  confidence: 0.99,
  withEventsConfidence: 0.95,
  eventP: 0.01,
};

export type { LlmFollowingVerdict } from './llm-assisted.js';

interface Counts {
  readonly items: number;
  readonly followed: number;
  readonly answered: number;
  readonly eventItems: number;
}

/**
 * Every worker's verdict. `llmLabels`: the LLM's verdict per item. `references`: the workers
 * whose answers make the majority and the typical share (the worker judged is always left out
 * of both); all workers when omitted.
 */
export function llmFollowingVerdicts(
  answers: ReadonlyMap<string, readonly FollowingAnswer[]>,
  llmLabels: ReadonlyMap<string, Judgment>,
  references: (worker: string) => boolean = () => true,
  policy: LlmFollowingPolicy = DEFAULT_LLM_FOLLOWING_POLICY,
): Map<string, LlmFollowingVerdict> {
  // the references' votes per item, so that each worker's leave-one-out majority is a subtraction
  const votes = new Map<string, { yes: number; no: number }>();
  for (const [worker, list] of answers) {
    if (!references(worker)) continue;
    for (const a of uniqueItems(list)) {
      if (!llmLabels.has(a.item)) continue;
      const v = votes.get(a.item) ?? { yes: 0, no: 0 };
      v[a.answer]++;
      votes.set(a.item, v);
    }
  }
  const counts = new Map<string, Counts>();
  for (const [worker, list] of answers) {
    const own = references(worker);
    let items = 0;
    let followed = 0;
    let eventItems = 0;
    const unique = uniqueItems(list);
    for (const a of unique) {
      if (a.event) eventItems++;
      const llm = llmLabels.get(a.item);
      const v = votes.get(a.item);
      if (llm === undefined || !v) continue;
      const yes = v.yes - (own && a.answer === 'yes' ? 1 : 0);
      const no = v.no - (own && a.answer === 'no' ? 1 : 0);
      if (yes === no) continue;
      const crowd: Judgment = yes > no ? 'yes' : 'no';
      if (crowd === llm) continue;
      items++;
      if (a.answer === llm) followed++;
    }
    counts.set(worker, { items, followed, answered: unique.length, eventItems });
  }

  const verdicts = new Map<string, LlmFollowingVerdict>();
  for (const [worker, mine] of counts) {
    const others = [...counts].filter(([w]) => w !== worker && references(w)).map(([, c]) => c);
    const shares = others.filter((c) => c.items >= policy.minItems).map((c) => c.followed / c.items);
    const typical = shares.length >= 2 ? median(shares) : null;
    const answered = others.reduce((s, c) => s + c.answered, 0);
    const eventRate = answered > 0 ? others.reduce((s, c) => s + c.eventItems, 0) / answered : null;
    const events =
      eventRate !== null &&
      mine.eventItems > 0 &&
      binomialUpperTail(mine.eventItems, mine.answered, Math.max(eventRate, 0.01)) < policy.eventP;
    if (typical === null || mine.items < policy.minItems) {
      verdicts.set(worker, {
        flagged: false,
        items: mine.items,
        followed: mine.followed,
        typical,
        probability: null,
        events,
        evidence: null,
      });
      continue;
    }
    const threshold = Math.min(1, typical + policy.margin);
    const probability = betaUpperTail(mine.followed + 0.5, mine.items - mine.followed + 0.5, threshold);
    const needed = events ? policy.withEventsConfidence : policy.confidence;
    const flagged = probability >= needed;
    const evidence = flagged
      ? `answered as the LLM did on ${mine.followed} of ${mine.items} items where the other workers' majority said otherwise ` +
        `(other workers typically ${pct(typical)}; P(rate > ${pct(threshold)}) ${pct1(probability)} ≥ ${pct1(needed)}` +
        `${events ? `, with copies, pastes or focus losses on ${mine.eventItems} of ${mine.answered} items` : ''})`
      : null;
    verdicts.set(worker, { flagged, items: mine.items, followed: mine.followed, typical, probability, events, evidence });
  }
  return verdicts;
}

/** The LLM's verdict on an item: the agents' label where they agree, else the adjudicator's, else none. */
export function llmLabelOf(
  agents: { readonly A: Judgment; readonly B: Judgment } | null,
  adjudicator: Judgment | undefined,
): Judgment | undefined {
  if (agents && agents.A === agents.B) return agents.A;
  return adjudicator;
}

/** P(X > x) for X ~ Beta(a, b), by the midpoint rule on the log density (a, b ≥ ½). */
export function betaUpperTail(a: number, b: number, x: number): number {
  if (x <= 0) return 1;
  if (x >= 1) return 0;
  const steps = 4000;
  const logs: number[] = [];
  for (let i = 0; i < steps; i++) {
    const t = (i + 0.5) / steps;
    logs.push((a - 1) * Math.log(t) + (b - 1) * Math.log1p(-t));
  }
  const top = Math.max(...logs);
  let total = 0;
  let above = 0;
  logs.forEach((l, i) => {
    const w = Math.exp(l - top);
    total += w;
    if ((i + 0.5) / steps > x) above += w;
  });
  return above / total;
}

function uniqueItems(list: readonly FollowingAnswer[]): FollowingAnswer[] {
  const seen = new Set<string>();
  return list.filter((a) => (seen.has(a.item) ? false : (seen.add(a.item), true)));
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const pct1 = (x: number) => `${(100 * x).toFixed(1)}%`;
