import type { Judgment } from '../domain/cases.js';

/**
 * Evidence that a worker answers with an LLM, without the canary (pure, issue 35 item 3).
 * What separates an LLM user from an honest worker of equal accuracy:
 *
 * 1. **Page events** (`eventRateFactor`): an LLM user who works in another tab copies the item
 *    and leaves the page on most items; careful people glance away on ~1 item in 20 and copy on
 *    ~1 in 50. The careful rate is read from the batch (the median worker's share of items with
 *    an event), so a batch where everyone tabs away does not flag everyone: the worker's rate is
 *    tested as uniform on [0, r0] (careful, r0 = max(floor, 2 × the batch median)) against
 *    uniform on [max(½, r0), 1] (a tab user), mixed with the LLM users the page does not see
 *    (extensions, a second device: `tabWeight`).
 * 2. **Shared errors** (`sharedErrorFactors`): LLM users of one model make the same mistakes. A
 *    mean-field latent-class model gives each item a true label y and an LLM verdict ℓ
 *    (P(ℓ = y) = α, fitted), each worker a class: careful (right with their own accuracy,
 *    independently of the others) or LLM user (answers ℓ with rate β). A worker's Bayes factor
 *    is the product, over their items, of how well the other workers' implied LLM verdict
 *    predicts their answer against how well the other workers' implied truth does (leave-one-
 *    out: the worker's own vote never explains itself). Evidence accrues where the other LLM
 *    users agree against the careful majority and the worker answers with them; a careful
 *    worker who answers the truth there gains exculpating evidence.
 * 3. Side factors from elsewhere (reading speed, agreement with the debate's agents), passed in
 *    as Bayes factors and capped by the caller. Reading speed and agent agreement are not
 *    independent (a careful person who skims also tends to go with the debate's more convincing
 *    agent), so where both point the same way they count once, as the stronger of the two
 *    (`correlatedSideFactor`), not their product.
 * All are combined as likelihood ratios with a prior share of LLM users (fitted on the batch
 * with a Beta(1, 9) prior: one in ten until the batch says otherwise) into one posterior per
 * worker; a worker is flagged at `confidence`.
 */

export interface LlmEvidencePolicy {
  /** Posterior P(LLM user) at which a worker is flagged. */
  readonly confidence: number;
  /** Prior pseudo-counts of LLM users and of careful workers (the prior share, fitted on the batch). */
  readonly priorLlm: number;
  readonly priorCareful: number;
  /** The careful event rate is at least this, and at least `eventMedianFactor` × the batch median. */
  readonly eventFloor: number;
  readonly eventMedianFactor: number;
  /** Share of LLM users whose LLM is in another tab (the page sees a copy or a focus loss). */
  readonly tabWeight: number;
  /** Largest Bayes factor events alone give (a person may leave the page for reasons of their own). */
  readonly maxEventFactor: number;
  /** Largest Bayes factor shared errors give either way (the model is an approximation). */
  readonly maxSharedFactor: number;
  /** Largest Bayes factor reading speed (and agreement with a debating agent) gives (people skim). */
  readonly maxSpeedFactor: number;
  /**
   * Share of LLM users who read fast (or follow a debating agent); the others read (or side
   * with the agents) as careful people do, so a slow reader's factor is at least 1 − this:
   * LLM users may be slow, and their model may be unrelated to the debate's agents.
   */
  readonly fastWeight: number;
  /** Fewest items before a worker's events are tested. */
  readonly minItems: number;
  /** Mean-field rounds. */
  readonly rounds: number;
}

export const DEFAULT_LLM_EVIDENCE_POLICY: LlmEvidencePolicy = {
  confidence: 0.95,
  priorLlm: 1,
  priorCareful: 9,
  eventFloor: 0.1,
  eventMedianFactor: 2,
  tabWeight: 0.5,
  maxEventFactor: 1000,
  maxSharedFactor: 1e6,
  maxSpeedFactor: 10,
  fastWeight: 0.5,
  minItems: 5,
  rounds: 25,
};

export interface WorkerEvents {
  /** Real items answered, and those with a copy, a paste or a focus loss. */
  readonly items: number;
  readonly eventItems: number;
}

/** The careful workers' event rate bound r0 from the batch's workers (robust: the median worker's). */
export function carefulEventBound(workers: readonly WorkerEvents[], policy: LlmEvidencePolicy = DEFAULT_LLM_EVIDENCE_POLICY): number {
  const rates = workers
    .filter((w) => w.items >= policy.minItems)
    .map((w) => w.eventItems / w.items)
    .sort((a, b) => a - b);
  const mid = rates.length >> 1;
  const med = rates.length === 0 ? 0 : rates.length % 2 ? rates[mid]! : (rates[mid - 1]! + rates[mid]!) / 2;
  return Math.min(0.9, Math.max(policy.eventFloor, policy.eventMedianFactor * med));
}

/** A side Bayes factor (speed, agent agreement) as a mixture: `fastWeight` of LLM users show it, the others not; capped. */
export function sideFactor(factor: number, policy: LlmEvidencePolicy = DEFAULT_LLM_EVIDENCE_POLICY): number {
  return Math.min(policy.maxSpeedFactor, 1 - policy.fastWeight + policy.fastWeight * factor);
}

/**
 * Reading speed and agreement with a debating agent as one factor. The two go together in
 * careful workers who skim, so where both point the same way they count once, as the stronger
 * of their side factors (the larger when both favour LLM use, the smaller when both clear the
 * worker), never their product, which would count one habit twice. Where they point opposite
 * ways (a fast reader who sides with no agent), neither repeats the other and both count.
 */
export function correlatedSideFactor(speed: number, agreement: number, policy: LlmEvidencePolicy = DEFAULT_LLM_EVIDENCE_POLICY): number {
  const a = sideFactor(speed, policy);
  const b = sideFactor(agreement, policy);
  if (a >= 1 && b >= 1) return Math.max(a, b);
  if (a <= 1 && b <= 1) return Math.min(a, b);
  return a * b;
}

const GRID = 400;

/** log of the mean of q^k (1 − q)^(n − k) for q uniform on [lo, hi] (midpoint rule, in log space). */
function logMeanBinomial(k: number, n: number, lo: number, hi: number): number {
  const logs: number[] = [];
  for (let i = 0; i < GRID; i++) {
    const q = Math.min(1 - 1e-12, Math.max(1e-12, lo + ((hi - lo) * (i + 0.5)) / GRID));
    logs.push(k * Math.log(q) + (n - k) * Math.log1p(-q));
  }
  const top = Math.max(...logs);
  return top + Math.log(logs.reduce((s, l) => s + Math.exp(l - top), 0) / GRID);
}

/**
 * Bayes factor of k event items in n, LLM user against careful: careful rate uniform on
 * [0, r0]; an LLM user in another tab (`tabWeight`) uniform on [max(½, r0), 1], the others
 * as careful as anyone on the page. Capped at `maxEventFactor`; 1 under `minItems` items.
 */
export function eventRateFactor(k: number, n: number, r0: number, policy: LlmEvidencePolicy = DEFAULT_LLM_EVIDENCE_POLICY): number {
  if (n < policy.minItems) return 1;
  const r1 = Math.max(0.5, r0);
  const tab = Math.exp(logMeanBinomial(k, n, r1, 1) - logMeanBinomial(k, n, 0, r0));
  return Math.min(policy.maxEventFactor, 1 - policy.tabWeight + policy.tabWeight * tab);
}

export interface Vote {
  readonly worker: string;
  readonly item: string;
  readonly answer: Judgment;
}

export interface SharedErrorFit {
  /** Per worker: the shared-error Bayes factor (LLM user against careful), capped. */
  readonly factors: Map<string, number>;
  /** Per worker: the posterior P(LLM user) with the side factors given. */
  readonly posteriors: Map<string, number>;
  /** The fitted LLM accuracy α, LLM users' follow rate β and prior share of LLM users. */
  readonly alpha: number;
  readonly beta: number;
  readonly share: number;
}

// the four joint states of an item: (truth, LLM verdict)
const STATES: readonly { y: Judgment; l: Judgment }[] = [
  { y: 'yes', l: 'yes' },
  { y: 'yes', l: 'no' },
  { y: 'no', l: 'yes' },
  { y: 'no', l: 'no' },
];

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * The latent-class fit (see the module's comment). `side`: each worker's other Bayes factors
 * (events, speed, agents), multiplied in; workers without one get 1. Deterministic: workers
 * and items are taken in sorted order.
 */
export function sharedErrorFactors(
  votes: readonly Vote[],
  side: ReadonlyMap<string, number> = new Map(),
  policy: LlmEvidencePolicy = DEFAULT_LLM_EVIDENCE_POLICY,
): SharedErrorFit {
  // one vote per worker and item (the first)
  const seen = new Set<string>();
  const unique = votes.filter((v) => {
    const k = `${v.worker}\u0000${v.item}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
  const workers = [...new Set(unique.map((v) => v.worker))].sort();
  const items = [...new Set(unique.map((v) => v.item))].sort();
  const wIndex = new Map(workers.map((w, i) => [w, i]));
  const byItem = items.map(() => [] as { w: number; yes: boolean }[]);
  const iIndex = new Map(items.map((t, i) => [t, i]));
  for (const v of unique) byItem[iIndex.get(v.item)!]!.push({ w: wIndex.get(v.worker)!, yes: v.answer === 'yes' });
  const byWorker = workers.map(() => [] as { t: number; yes: boolean }[]);
  byItem.forEach((list, t) => list.forEach(({ w, yes }) => byWorker[w]!.push({ t, yes })));

  const sideLog = workers.map((w) => Math.log(side.get(w) ?? 1));
  let share = policy.priorLlm / (policy.priorLlm + policy.priorCareful);
  const q = workers.map((_, i) => sigmoid(logit(share) + sideLog[i]!));
  const acc = workers.map(() => 0.8);
  let alpha = 0.8;
  let beta = 0.9;
  let rho = 0.5;
  const shared = workers.map(() => 0);
  // per item, log posterior of each state and each vote's contribution to it
  const post = items.map(() => [0.25, 0.25, 0.25, 0.25]);

  const voteLog = (w: number, yes: boolean, s: (typeof STATES)[number]) => {
    const a = clamp(acc[w]!, 0.05, 0.98);
    const b = clamp(beta, 0.6, 0.99);
    const human = yes === (s.y === 'yes') ? a : 1 - a;
    const llm = yes === (s.l === 'yes') ? b : 1 - b;
    return { human, llm, mixed: (1 - q[w]!) * Math.log(human) + q[w]! * Math.log(llm) };
  };

  for (let round = 0; round < policy.rounds; round++) {
    const al = clamp(alpha, 0.5, 0.98);
    const prior = STATES.map((s) => Math.log(s.y === 'yes' ? rho : 1 - rho) + Math.log(s.y === s.l ? al : 1 - al));
    // items: mean-field posterior over (truth, LLM verdict); workers: leave-one-out predictive Bayes factor
    shared.fill(0);
    byItem.forEach((list, t) => {
      const logs = STATES.map((s, k) => prior[k]! + list.reduce((sum, v) => sum + voteLog(v.w, v.yes, s).mixed, 0));
      post[t] = normalise(logs);
      for (const v of list) {
        const parts = STATES.map((s) => voteLog(v.w, v.yes, s));
        const without = normalise(logs.map((l, k) => l - parts[k]!.mixed));
        const pl = without.reduce((sum, p, k) => sum + p * parts[k]!.llm, 0);
        const ph = without.reduce((sum, p, k) => sum + p * parts[k]!.human, 0);
        shared[v.w]! += Math.log(pl / ph);
      }
    });
    const cap = Math.log(policy.maxSharedFactor);
    workers.forEach((_, w) => {
      q[w] = sigmoid(logit(share) + sideLog[w]! + clamp(shared[w]!, -cap, cap));
    });
    // parameters
    share = (q.reduce((a, b) => a + b, 0) + policy.priorLlm) / (workers.length + policy.priorLlm + policy.priorCareful);
    share = clamp(share, 0.01, 0.5);
    byWorker.forEach((list, w) => {
      const right = list.reduce((sum, v) => sum + (v.yes ? post[v.t]![0]! + post[v.t]![1]! : post[v.t]![2]! + post[v.t]![3]!), 0);
      acc[w] = (right + 4) / (list.length + 5);
    });
    let followed = 9;
    let total = 10;
    byWorker.forEach((list, w) =>
      list.forEach((v) => {
        followed += q[w]! * (v.yes ? post[v.t]![0]! + post[v.t]![2]! : post[v.t]![1]! + post[v.t]![3]!);
        total += q[w]!;
      }),
    );
    beta = followed / total;
    // α from the items an LLM user answered (elsewhere ℓ is the prior's, which says nothing)
    let agree = 7;
    let weight = 10;
    byItem.forEach((list, t) => {
      const llmWeight = Math.min(
        1,
        list.reduce((s, v) => s + q[v.w]!, 0),
      );
      agree += llmWeight * (post[t]![0]! + post[t]![3]!);
      weight += llmWeight;
    });
    alpha = agree / weight;
    const yes = post.reduce((s, p) => s + p[0]! + p[1]!, 0);
    rho = clamp((yes + 1) / (items.length + 2), 0.05, 0.95);
  }
  const cap = Math.log(policy.maxSharedFactor);
  return {
    factors: new Map(workers.map((w, i) => [w, Math.exp(clamp(shared[i]!, -cap, cap))])),
    posteriors: new Map(workers.map((w, i) => [w, q[i]!])),
    alpha,
    beta,
    share,
  };
}

function normalise(logs: readonly number[]): number[] {
  const top = Math.max(...logs);
  const e = logs.map((l) => Math.exp(l - top));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}
