import type { Judgment } from '../domain/cases.js';

/**
 * Signs that a worker pasted the items into an LLM instead of judging them (pure).
 *
 * qrelay's items are the ones on which two LLM agents disagreed; a worker who asks an LLM
 * gets, item after item, a verdict in the style of one of those agents. The signals:
 * - **agent agreement**: on items where the agents' final labels differ, the share of the
 *   worker's answers equal to agent A's (or B's) label, tested against the same share
 *   among the batch's other workers (one-sided binomial tail). Careful people follow the
 *   evidence, which sides with A on some items and B on others; an LLM sides with one
 *   agent's reading far more often;
 * - **reading time**: seconds per 1,000 characters of item text, against a floor under
 *   which nobody reads the passage and the debate;
 * - **page events** the HIT page records per item: copies out of the page and the page
 *   losing focus (switching to another tab or window), and pastes into it;
 * - **canary**: a phrase hidden in the page that a person does not see but a copy carries
 *   into an LLM, which then tends to repeat it in any text the worker submits.
 * A worker is flagged when the agent-agreement test is significant (and the agent is followed
 * both when it says yes and when it says no, which a worker who always gives one answer does
 * not do) and at least one other signal agrees, or when the agreement alone is overwhelming,
 * or when a canary comes back.
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
  /** Significance of the agent-agreement test (one-sided). */
  readonly alpha: number;
  /** Significance under which agent agreement alone flags. */
  readonly alphaAlone: number;
  /** ... and the excess over the other workers' rate that it must also show. */
  readonly minExcess: number;
  /** Fewest disagreement items before agreement is tested at all. */
  readonly minItems: number;
  /** Reading faster than this many ms per 1,000 characters on the median item is a signal. */
  readonly fastMsPer1000Chars: number;
  /** Copies, pastes or focus losses on at least this share of items are a signal. */
  readonly eventShare: number;
}

export const DEFAULT_LLM_POLICY: LlmAssistedPolicy = {
  alpha: 0.01,
  alphaAlone: 1e-6,
  minExcess: 0.15,
  minItems: 8,
  // an item is ~2,500 characters; people read 15–25 characters a second: 40 s per 1,000
  // characters is a careful read, under 8 s is skimming at best
  fastMsPer1000Chars: 8_000,
  eventShare: 0.3,
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
    readonly p: number | null;
  };
  readonly medianMsPer1000Chars: number | null;
  readonly eventItems: number;
  readonly canary: boolean;
}

export interface AgentBaseline {
  /** Over the other workers: answers on disagreement items, and how many equal agent A's label. */
  readonly items: number;
  readonly followedA: number;
}

export function llmAssistedVerdict(
  observations: readonly ItemObservation[],
  baseline: AgentBaseline,
  submittedText: readonly string[] = [],
  canaries: readonly string[] = [],
  policy: LlmAssistedPolicy = DEFAULT_LLM_POLICY,
): LlmAssistedVerdict {
  const evidence: string[] = [];
  const contested = observations.filter((o) => o.agents.A !== o.agents.B);
  const followedA = contested.filter((o) => o.answer === o.agents.A).length;
  let agreement: LlmAssistedVerdict['agentAgreement'] = { items: contested.length, agent: null, rate: null, baseline: null, p: null };
  let agreementSignal = false;
  let agreementAlone = false;
  if (contested.length >= policy.minItems && baseline.items > 0) {
    const agent = followedA * 2 >= contested.length ? 'A' : 'B';
    const k = agent === 'A' ? followedA : contested.length - followedA;
    const rateA = baseline.followedA / baseline.items;
    const p0 = agent === 'A' ? rateA : 1 - rateA;
    const rate = k / contested.length;
    // one-sided, but the agent was chosen after looking: double the tail (Bonferroni over A and B)
    const p = Math.min(1, 2 * binomialUpperTail(k, contested.length, p0));
    agreement = { items: contested.length, agent, rate, baseline: p0, p };
    // An LLM follows its agent whichever way that agent votes; a worker who always answers
    // yes (or no) "follows" whichever agent says yes most. So the agent must be followed on
    // its "no" items as on its "yes" items (each way, where there are at least 3), and the
    // worker must give both answers.
    const followsBothWays = (['yes', 'no'] as const).every((label) => {
      const said = contested.filter((o) => o.agents[agent] === label);
      return said.length < 3 || said.filter((o) => o.answer === label).length * 2 >= said.length;
    });
    const bothAnswers = new Set(contested.map((o) => o.answer)).size === 2;
    if (rate - p0 >= policy.minExcess && p < policy.alpha && followsBothWays && bothAnswers) {
      agreementSignal = true;
      agreementAlone = p < policy.alphaAlone;
      evidence.push(
        `followed agent ${agent} on ${k} of ${contested.length} items where the agents disagreed (${pct(rate)}; other workers ${pct(p0)}; p = ${p.toExponential(1)})`,
      );
    }
  }

  const perThousand = observations.flatMap((o) => (o.timeMs !== undefined && o.textLength ? [(o.timeMs * 1000) / o.textLength] : []));
  const medianMsPer1000Chars = perThousand.length ? median(perThousand) : null;
  const fast = medianMsPer1000Chars !== null && medianMsPer1000Chars < policy.fastMsPer1000Chars;
  if (fast)
    evidence.push(
      `read ${(medianMsPer1000Chars / 1000).toFixed(1)} s per 1,000 characters on the median item (under ${policy.fastMsPer1000Chars / 1000} s)`,
    );

  const eventItems = observations.filter((o) => (o.copies ?? 0) + (o.pastes ?? 0) + (o.focusLosses ?? 0) > 0).length;
  const events = observations.length > 0 && eventItems / observations.length >= policy.eventShare;
  if (events) evidence.push(`copied, pasted or left the page on ${eventItems} of ${observations.length} items`);

  const lowered = canaries.map((c) => c.toLowerCase()).filter((c) => c.length > 0);
  const canary = submittedText.some((text) => lowered.some((c) => text.toLowerCase().includes(c)));
  if (canary) evidence.push('submitted text repeats the hidden canary phrase');

  const flagged = canary || agreementAlone || (agreementSignal && (fast || events));
  return { flagged, evidence, agentAgreement: agreement, medianMsPer1000Chars, eventItems, canary };
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

function median(values: readonly number[]): number {
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
