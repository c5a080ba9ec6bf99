import type { Judgment } from '../domain/cases.js';

/**
 * Signs that a worker pasted the items into an LLM instead of judging them (pure).
 *
 * qrelay's items are the ones on which two LLM agents disagreed; a worker who asks an LLM
 * gets, item after item, a verdict in the style of one of those agents. The signals:
 * - **agent agreement**: on items where the agents' final labels differ, the share of the
 *   worker's answers equal to agent A's (or B's) label, against the same share among the
 *   batch's careful workers (the binomial tail is reported as `p`). Careful people follow the
 *   evidence, which sides with A on some items and B on others; an LLM sides with one
 *   agent's reading far more often;
 * - **reading time**: the median item's seconds per 1,000 characters of item text, against
 *   the careful workers' (their median and spread, on the log scale);
 * - **page events** the HIT page records per item: copies out of the page and the page
 *   losing focus (switching to another tab or window), and pastes into it, on more items
 *   than the careful workers' rate;
 * - **canary**: a phrase hidden in the page that a person does not see but a copy carries
 *   into an LLM, which then tends to repeat it in any text the worker submits.
 * Each signal gives a Bayes factor, LLM-assisted against careful, with the careful side
 * measured on the batch's careful workers (src/quality/llm-flags.ts) and the LLM side left
 * as open as the signal allows (a follow rate anywhere above the careful one, for A or for B;
 * a tab user with an event rate anywhere above a person's, or a user the page does not see;
 * a reading time anywhere between a fifth of a careful read and a careful read). A worker is
 * flagged when the product reaches `minBayesFactor` (100: under the careful model a Bayes
 * factor has expectation 1, so at most 1% of careful workers reach it), the agent agreement
 * alone is at least `minAgreementFactor` (speed and events only add to it, each capped, as
 * people skim and leave the page for reasons of their own), and the agent is followed both
 * ways; or when a canary comes back.
 */
export interface ItemObservation {
  /** The agents' final-round labels on the item (items where they agree carry no signal). */
  readonly agents: { readonly A: Judgment; readonly B: Judgment };
  readonly answer: Judgment;
  /** Milliseconds on the item and characters of text it showed (query, answers, passage, debate). */
  readonly timeMs?: number;
  readonly textLength?: number;
  /** Events the HIT page counted on this item. */
  readonly copies?: number;
  readonly pastes?: number;
  readonly focusLosses?: number;
}

export interface LlmAssistedPolicy {
  /**
   * The combined Bayes factor (LLM-assisted against careful) at which a worker is flagged.
   * Under the careful-worker model a Bayes factor has expectation 1, so P(BF ≥ t) ≤ 1/t
   * (Markov): 100 keeps each careful worker's chance of a flag at or under 1%.
   */
  readonly minBayesFactor: number;
  /** The agent agreement must itself favour LLM use at least this much: page events and speed only add to it. */
  readonly minAgreementFactor: number;
  /** Page events and speed are indirect (a person leaves the page or skims for reasons of their own): each counts at most this much. */
  readonly maxSideFactor: number;
  /** Fewest disagreement items before agreement is tested at all. */
  readonly minItems: number;
  /** Without a batch to compare with: ms per 1,000 characters of a typical careful read (18 s: 45 s on a 2,500-character item). */
  readonly typicalMsPer1000Chars: number;
  /** ... and the spread of workers' log reading speeds around it. */
  readonly typicalLogSpread: number;
  /** Without a batch to compare with: the share of a person's items with a copy, paste or focus loss. */
  readonly typicalEventRate: number;
  /** Prior weight of an LLM user who works in another tab (the page sees it); the others leave no event. */
  readonly tabWeight: number;
  /** An LLM user spends between this share of a careful read and a careful read's time (uniform on the log scale). */
  readonly fastestTimeShare: number;
}

export const DEFAULT_LLM_POLICY: LlmAssistedPolicy = {
  minBayesFactor: 100,
  minAgreementFactor: 3,
  maxSideFactor: 30,
  minItems: 6,
  typicalMsPer1000Chars: 18_000,
  typicalLogSpread: 0.4,
  typicalEventRate: 0.07,
  // we do not know how many LLM users switch tabs: even odds
  tabWeight: 0.5,
  // pasting an item and reading the verdict still takes a fifth of a careful read
  fastestTimeShare: 0.2,
};

export interface LlmAssistedVerdict {
  readonly flagged: boolean;
  /** One sentence per signal that fired, for the requester. */
  readonly evidence: readonly string[];
  readonly agentAgreement: {
    readonly items: number;
    /** The agent the worker followed more. */
    readonly agent: 'A' | 'B' | null;
    readonly rate: number | null;
    /** The other workers' rate of following that agent on their disagreement items. */
    readonly baseline: number | null;
    /** One-sided binomial tail of the rate against the baseline (doubled: the agent was chosen after looking). */
    readonly p: number | null;
  };
  readonly medianMsPer1000Chars: number | null;
  readonly eventItems: number;
  readonly canary: boolean;
  /** Bayes factors (LLM-assisted against careful) of each signal and their product; 1 when a signal says nothing. */
  readonly factors: { readonly agreement: number; readonly speed: number; readonly events: number; readonly combined: number };
  /** The combined posterior P(LLM user) and its Bayes factors from events and shared errors (llm-evidence.ts, llm-flags.ts). */
  readonly posterior?: { readonly probability: number; readonly events: number; readonly shared: number; readonly eventBound: number };
  /** Set when the worker was flagged for following the LLM's verdicts where the crowd said otherwise (llm-following.ts). */
  readonly following?: LlmFollowingVerdict;
}

export interface AgentBaseline {
  /** Over the careful workers of the batch: answers on disagreement items, and how many equal agent A's label. */
  readonly items: number;
  readonly followedA: number;
  /** Over the same workers: the share of items with a copy, paste or focus loss. */
  readonly eventRate?: number;
  /** Over the same workers: the centre and spread of their median log(ms per 1,000 characters). */
  readonly logSpeed?: { readonly centre: number; readonly spread: number };
}

export function llmAssistedVerdict(
  observations: readonly ItemObservation[],
  baseline: AgentBaseline,
  submittedText: readonly string[] = [],
  canaries: readonly string[] = [],
  policy: LlmAssistedPolicy = DEFAULT_LLM_POLICY,
): LlmAssistedVerdict {
  return judgeSignals(workerSignals(observations, submittedText, canaries), baseline, policy);
}

/**
 * What a worker's verdict reads of their answers, whatever the baseline: worked out once
 * per worker, then judged against each baseline (the batch's detection judges every worker
 * twice, against everyone else and then against the careful workers: llm-flags.ts).
 */
export interface WorkerSignals {
  readonly items: number;
  /** Answers on items where the agents disagreed, and how many equal agent A's label. */
  readonly contested: number;
  readonly followedA: number;
  /** The agent the worker followed more (A on a tie). */
  readonly agent: 'A' | 'B';
  /** The agent the worker followed more is followed on its "yes" items as on its "no" items (each way that has 3 or more). */
  readonly followsBothWays: boolean;
  /** The worker gave both answers on the items where the agents disagreed. */
  readonly bothAnswers: boolean;
  readonly medianMsPer1000Chars: number | null;
  readonly eventItems: number;
  readonly canary: boolean;
}

export function workerSignals(
  observations: readonly ItemObservation[],
  submittedText: readonly string[] = [],
  canaries: readonly string[] = [],
): WorkerSignals {
  const contested = observations.filter((o) => o.agents.A !== o.agents.B);
  const followedA = contested.filter((o) => o.answer === o.agents.A).length;
  const agent = followedA * 2 >= contested.length ? 'A' : 'B';
  // An LLM follows its agent whichever way that agent votes; a worker who always answers
  // yes (or no) "follows" whichever agent says yes most. So the agent must be followed on
  // its "no" items as on its "yes" items (each way, where there are at least 3), and the
  // worker must give both answers.
  const followsBothWays = (['yes', 'no'] as const).every((label) => {
    const said = contested.filter((o) => o.agents[agent] === label);
    return said.length < 3 || said.filter((o) => o.answer === label).length * 2 >= said.length;
  });
  const bothAnswers = new Set(contested.map((o) => o.answer)).size === 2;
  const perThousand = observations.flatMap((o) => (o.timeMs !== undefined && o.textLength ? [(o.timeMs * 1000) / o.textLength] : []));
  // each text lowered once, not once per canary word (a worker's comments times the words of every page they saw)
  const texts = submittedText.map((t) => t.toLowerCase());
  const lowered = texts.length > 0 ? canaries.map((c) => c.toLowerCase()).filter((c) => c.length > 0) : [];
  return {
    items: observations.length,
    contested: contested.length,
    followedA,
    agent,
    followsBothWays,
    bothAnswers,
    medianMsPer1000Chars: perThousand.length ? median(perThousand) : null,
    eventItems: observations.filter((o) => (o.copies ?? 0) + (o.pastes ?? 0) + (o.focusLosses ?? 0) > 0).length,
    canary: texts.some((text) => lowered.some((c) => text.includes(c))),
  };
}

/** The evidence sentence of a canary that came back. */
export const CANARY_EVIDENCE = 'submitted text repeats the hidden canary phrase';

/** The verdict on a worker's signals against the careful workers' baseline. */
export function judgeSignals(
  signals: WorkerSignals,
  baseline: AgentBaseline,
  policy: LlmAssistedPolicy = DEFAULT_LLM_POLICY,
): LlmAssistedVerdict {
  const evidence: string[] = [];
  const { contested: n, followedA, agent, medianMsPer1000Chars, eventItems, canary } = signals;
  let agreement: LlmAssistedVerdict['agentAgreement'] = { items: n, agent: null, rate: null, baseline: null, p: null };
  let agreementFactor = 1;
  let agreementSentence: string | null = null;
  if (n >= policy.minItems && baseline.items > 0) {
    const k = agent === 'A' ? followedA : n - followedA;
    const rateA = baseline.followedA / baseline.items;
    const p0 = agent === 'A' ? rateA : 1 - rateA;
    const rate = k / n;
    const p = Math.min(1, 2 * binomialUpperTail(k, n, p0));
    agreement = { items: n, agent, rate, baseline: p0, p };
    if (signals.followsBothWays && signals.bothAnswers) {
      // the LLM sides with A or with B (even odds), at an unknown rate above the careful one
      agreementFactor = (followerFactor(followedA, n, rateA) + followerFactor(n - followedA, n, 1 - rateA)) / 2;
      agreementSentence = `followed agent ${agent} on ${k} of ${n} items where the agents disagreed (${pct(rate)}; other workers ${pct(p0)}; p = ${p.toExponential(1)})`;
    }
  }

  const speed = baseline.logSpeed ?? { centre: Math.log(policy.typicalMsPer1000Chars), spread: policy.typicalLogSpread };
  const speedFactor =
    medianMsPer1000Chars === null
      ? 1
      : Math.min(policy.maxSideFactor, fasterFactor(Math.log(medianMsPer1000Chars) - speed.centre, speed.spread, policy.fastestTimeShare));

  const r0 = Math.min(0.5, Math.max(0.01, baseline.eventRate ?? policy.typicalEventRate));
  const eventsFactor = Math.min(
    policy.maxSideFactor,
    1 - policy.tabWeight + policy.tabWeight * followerFactor(eventItems, signals.items, r0),
  );

  const combined = agreementFactor * speedFactor * eventsFactor;
  const shown = agreementFactor >= policy.minAgreementFactor && combined >= policy.minBayesFactor;
  if (shown && agreementSentence) evidence.push(agreementSentence);
  if (shown && speedFactor >= 3 && medianMsPer1000Chars !== null)
    evidence.push(
      `read ${(medianMsPer1000Chars / 1000).toFixed(1)} s per 1,000 characters on the median item (other workers ${(Math.exp(speed.centre) / 1000).toFixed(1)} s)`,
    );
  if (shown && eventsFactor >= 3) evidence.push(`copied, pasted or left the page on ${eventItems} of ${signals.items} items`);
  if (canary) evidence.push(CANARY_EVIDENCE);

  return {
    flagged: canary || shown,
    evidence,
    agentAgreement: agreement,
    medianMsPer1000Chars,
    eventItems,
    canary,
    factors: { agreement: agreementFactor, speed: speedFactor, events: eventsFactor, combined },
  };
}

const GRID = 200;

/**
 * Bayes factor of k successes in n against the rate p0, for a rate uniform on [p0, 1]
 * (anything above the careful rate) against exactly p0; ≤ 1 when k is at or under n·p0.
 */
export function followerFactor(k: number, n: number, p0: number): number {
  if (n === 0) return 1;
  const p = Math.min(1 - 1e-9, Math.max(1e-9, p0));
  const logNull = k * Math.log(p) + (n - k) * Math.log1p(-p);
  let sum = 0;
  for (let i = 0; i < GRID; i++) {
    const q = Math.min(1 - 1e-12, p + ((1 - p) * (i + 0.5)) / GRID);
    sum += Math.exp(k * Math.log(q) + (n - k) * Math.log1p(-q) - logNull);
  }
  return sum / GRID;
}

/**
 * Bayes factor of a worker's log reading speed x (against the batch's centre), normal with
 * the batch's spread: shifted by log(share), share uniform on the log scale between
 * `fastest` and 1, against not shifted.
 */
export function fasterFactor(x: number, spread: number, fastest: number): number {
  const s = Math.max(spread, 0.05);
  const lo = Math.log(fastest);
  let sum = 0;
  for (let i = 0; i < GRID; i++) {
    const d = lo * (1 - (i + 0.5) / GRID);
    sum += Math.exp(-((x - d) ** 2 - x ** 2) / (2 * s * s));
  }
  return sum / GRID;
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** P(K ≥ k) for K ~ Binomial(n, p), summed in log space (exact for the n of a batch). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  let logTerm = logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p);
  let sum = 0;
  for (let j = k; j <= n; j++) {
    sum += Math.exp(logTerm);
    logTerm += Math.log((n - j) / (j + 1)) + Math.log(p) - Math.log1p(-p);
  }
  return Math.min(1, sum);
}

function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let j = 1; j <= k; j++) sum += Math.log((n - k + j) / j);
  return sum;
}

/** What llm-following.ts found for one worker (declared here: the flag carries it, and that module builds on this one). */
export interface LlmFollowingVerdict {
  readonly flagged: boolean;
  /** Items where the other workers' majority contradicts the LLM, and the worker's answers equal to the LLM there. */
  readonly items: number;
  readonly followed: number;
  /** The other workers' typical share (null without two of them with enough items). */
  readonly typical: number | null;
  /** P(rate > typical + margin); null when not tested. */
  readonly probability: number | null;
  /** The worker's page events beyond the other workers' rate. */
  readonly events: boolean;
  /** One sentence for the requester when flagged. */
  readonly evidence: string | null;
}
