import type { Judgment } from '../domain/cases.js';
import {
  checkGainBound,
  DEFAULT_LLM_GROUP_POLICY,
  firstAnswers,
  outcomeLogLikelihood,
  pairs,
  prefersGroup,
  seedGroups,
  type CheckAnswer,
  type LlmGroupPolicy,
  type Outcome,
} from './llm-groups.js';
import { DEFAULT_VERDICT_POLICY, logNotWorkingAnswers, type NotWorkingRates } from './worker-verdict.js';

export type { CheckAnswer } from './llm-groups.js';

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
 *    worker who answers the truth there gains exculpating evidence. In the result (the last
 *    round), a worker who is no LLM user may also not read at all (`priorNotReading`): their
 *    answers are "yes" at one rate whatever the item (the worker verdict's not-working model),
 *    so one-button workers, who share every "error" with each other, are explained by that and
 *    not by an LLM.
 * 3. Groups of one model's users (`checks` given: llm-groups.ts). Where such users are the
 *    majority on many items, the fitted truth is their verdict and the fit clears them. Workers
 *    who agree beyond what their gold checks allow, three or more, seed a second fit that holds
 *    them in the LLM class; its outcome is taken where the gold checks, which neither fit sees,
 *    favour it (decision 0016).
 * 4. Side factors from elsewhere (reading speed, agreement with the debate's agents), passed in
 *    as Bayes factors and capped by the caller. Reading speed and agent agreement are not
 *    independent (a careful person who skims also tends to go with the debate's more convincing
 *    agent), so where both point the same way they count once, as the stronger of the two
 *    (`correlatedSideFactor`), not their product.
 * All are combined as likelihood ratios with a prior share of LLM users (fitted on the batch
 * with a Beta(1, 9) prior: one in ten until the batch says otherwise) into one posterior per
 * worker; a worker is flagged at `confidence`.
 *
 * What this cannot see: an LLM user the page does not see (no events) whose items no other LLM
 * user answered, and a group of them whose model was right on the gold checks they met. Where the LLM they paste into is not the debate's (the matrix's canary-never
 * cells, the bot crowd), their errors look like their own, and speed alone (capped) cannot
 * reach `confidence`; in the matrix cell `mixed` that bounds the recall at 6 of 12 LLM users
 * (docs/quality.md, "What the answers cannot show"; decisions 0014 and 0018; tested).
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
  /**
   * While the fit runs, the most a worker's shared errors raise their weight in the items' LLM
   * verdicts until their posterior reaches `confidence` (a factor; lowering it is never capped).
   * Without the bound, weak agreement within a careful crowd fed itself: each round the careful
   * workers who leaned towards the LLM class made the "LLM verdict" look more like their own
   * answers, until, on a bot crowd qrelay did not write (bench/crowd-external.ts), half the
   * careful workers were an "LLM class" at 95-100% (fitted LLM accuracy 0.65, share 0.46) and were
   * stopped. Workers the fit is confident of inform the LLM verdict fully.
   */
  readonly maxFitFeedback: number;
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
  /**
   * Prior share π of workers who do not read the items at all (the worker verdict's
   * not-working model, `notReadingRates` its prior of θ), as odds π / (1 − π) against a
   * careful worker: a worker who answers "no" to everything shares every "error" of the
   * other one-button workers, and without this class only an LLM explained that.
   */
  readonly priorNotReading: number;
  readonly notReadingRates: NotWorkingRates;
  /** Groups of one model's users that the fit reads as the truth, put to it from outside (llm-groups.ts). */
  readonly groups: LlmGroupPolicy;
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
  maxFitFeedback: 3,
  maxSpeedFactor: 10,
  fastWeight: 0.5,
  minItems: 5,
  rounds: 25,
  priorNotReading: DEFAULT_VERDICT_POLICY.priorNotWorking,
  notReadingRates: DEFAULT_VERDICT_POLICY.notWorkingRates,
  groups: DEFAULT_LLM_GROUP_POLICY,
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
  /**
   * The seed group whose outcome was taken (llm-groups.ts), with the likelihood ratios of the
   * gold checks alone and of votes and checks together against the fit as it is; absent where
   * the fit as it is stands.
   */
  readonly group?: { readonly seed: readonly string[]; readonly checkFactor: number; readonly factor: number };
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
 * (events, speed, agents), multiplied in; workers without one get 1. `checks`: the workers'
 * answers to gold checks, which the fit never sees; with them, groups of workers who agree
 * beyond what their checks allow seed a second fit, whose outcome is taken where the checks
 * and the votes favour it (llm-groups.ts). Deterministic: workers and items are taken in
 * sorted order.
 */
export function sharedErrorFactors(
  votes: readonly Vote[],
  side: ReadonlyMap<string, number> = new Map(),
  policy: LlmEvidencePolicy = DEFAULT_LLM_EVIDENCE_POLICY,
  checks: readonly CheckAnswer[] = [],
): SharedErrorFit {
  // the votes' tables are the same in every fit of this call: built once
  const table = fitTables(votes);
  const asIs = fitSharedErrors(table, side, policy, new Set());
  if (checks.length === 0) return asIs.fit;
  const groups = seedGroups(pairs(votes, checks, policy.groups), policy.groups);
  if (groups.length === 0) return asIs.fit;
  let asIsScore: { votes: number; checks: number } | undefined;
  for (const group of groups) {
    if (checkGainBound(group, checks, asIs.outcome) < Math.log(policy.groups.minSeedCheckFactor)) continue;
    asIsScore ??= outcomeLogLikelihood(votes, checks, asIs.outcome);
    // the group outcome: the fit with the seed in the LLM class, then with those it kept there, until they stay
    let seed = group;
    let seeded = fitSharedErrors(table, side, policy, new Set(seed));
    for (let i = 1; i < policy.groups.refits; i++) {
      const kept = [...seeded.outcome.llm].sort();
      if (kept.length < policy.groups.minGroup || kept.join('\u0000') === seed.join('\u0000')) break;
      seed = kept;
      seeded = fitSharedErrors(table, side, policy, new Set(seed));
    }
    const score = outcomeLogLikelihood(votes, checks, seeded.outcome);
    const added = [...seeded.outcome.llm].filter((w) => !asIs.outcome.llm.has(w)).length;
    if (prefersGroup(asIsScore, score, added, policy.groups)) {
      const checkGain = score.checks - asIsScore.checks;
      const factor = Math.exp(checkGain + score.votes - asIsScore.votes);
      return { ...seeded.fit, group: { seed, checkFactor: Math.exp(checkGain), factor } };
    }
  }
  return asIs.fit;
}

/** One run of the fit, with `seed` held in the LLM class in every round but the last (whose posteriors are the result). */
function fitSharedErrors(
  { workers, items, byItem, byWorker }: FitTables,
  side: ReadonlyMap<string, number>,
  policy: LlmEvidencePolicy,
  seed: ReadonlySet<string>,
): { fit: SharedErrorFit; outcome: Outcome } {
  const sideLog = workers.map((w) => Math.log(side.get(w) ?? 1));
  let share = policy.priorLlm / (policy.priorLlm + policy.priorCareful);
  const held = workers.map((w) => seed.has(w));
  const q = workers.map((_, i) => (held[i] ? policy.confidence : sigmoid(logit(share) + sideLog[i]!)));
  const acc = workers.map(() => 0.8);
  let alpha = 0.8;
  let beta = 0.9;
  let rho = 0.5;
  const shared = workers.map(() => 0);
  // per worker, log P(their answers | LLM user) and log P(their answers | careful), leave-one-out, and log P(their answers | not reading)
  const llmLog = new Float64Array(workers.length);
  const carefulLog = new Float64Array(workers.length);
  const notReading = workers.map((_, w) => {
    let yes = 0;
    for (let i = byWorker.start[w]!; i < byWorker.start[w + 1]!; i++) yes += byWorker.yes[i]!;
    return logNotWorkingAnswers(yes, byWorker.start[w + 1]! - byWorker.start[w]! - yes, policy.notReadingRates);
  });
  const logNotReading = Math.log(policy.priorNotReading / (1 - policy.priorNotReading));
  // per item, the mean-field posterior of each state (STATES' order), four numbers an item
  const post = new Float64Array(4 * items.length);
  // per worker, a vote's log-likelihood `mixed` as (human right?, LLM right?): RR, RW, WR, WW
  const mixed = new Float64Array(4 * workers.length);
  const humanRight = new Float64Array(workers.length);
  const logs = [0, 0, 0, 0];

  for (let round = 0; round < policy.rounds; round++) {
    const al = clamp(alpha, 0.5, 0.98);
    const prior = STATES.map((s) => Math.log(s.y === 'yes' ? rho : 1 - rho) + Math.log(s.y === s.l ? al : 1 - al));
    // a vote's likelihoods depend on its worker, on whether it matches the state's truth and its LLM verdict, and on
    // this round's parameters alone: computed once a worker, with the operations of a vote's (the results are the same)
    const b = clamp(beta, 0.6, 0.99);
    const llmRight = Math.log(b);
    const llmWrong = Math.log(1 - b);
    for (let w = 0; w < workers.length; w++) {
      const a = clamp(acc[w]!, 0.05, 0.98);
      const right = Math.log(a);
      const wrong = Math.log(1 - a);
      const qw = q[w]!;
      humanRight[w] = a;
      mixed[4 * w] = (1 - qw) * right + qw * llmRight;
      mixed[4 * w + 1] = (1 - qw) * right + qw * llmWrong;
      mixed[4 * w + 2] = (1 - qw) * wrong + qw * llmRight;
      mixed[4 * w + 3] = (1 - qw) * wrong + qw * llmWrong;
    }
    // a yes vote is right in human and LLM terms in state (yes, yes): states RR, RW, WR, WW in order; a no vote the reverse
    const part = (w: number, yes: boolean, k: number) => mixed[4 * w + (yes ? k : 3 - k)]!;
    // items: mean-field posterior over (truth, LLM verdict); workers: leave-one-out predictive Bayes factor
    llmLog.fill(0);
    carefulLog.fill(0);
    for (let t = 0; t < items.length; t++) {
      const from = byItem.start[t]!;
      const to = byItem.start[t + 1]!;
      for (let k = 0; k < 4; k++) {
        let sum = 0;
        for (let i = from; i < to; i++) sum = sum + part(byItem.other[i]!, byItem.yes[i] === 1, k);
        logs[k] = prior[k]! + sum;
      }
      normaliseInto(logs[0]!, logs[1]!, logs[2]!, logs[3]!, post, 4 * t);
      for (let i = from; i < to; i++) {
        const w = byItem.other[i]!;
        const yes = byItem.yes[i] === 1;
        normaliseInto(
          logs[0]! - part(w, yes, 0),
          logs[1]! - part(w, yes, 1),
          logs[2]! - part(w, yes, 2),
          logs[3]! - part(w, yes, 3),
          without,
          0,
        );
        const a = humanRight[w]!;
        // the human and LLM likelihoods of the four states, as in `mixed`
        const h0 = yes ? a : 1 - a;
        const h2 = yes ? 1 - a : a;
        const l0 = yes ? b : 1 - b;
        const l1 = yes ? 1 - b : b;
        const pl = 0 + without[0]! * l0 + without[1]! * l1 + without[2]! * l0 + without[3]! * l1;
        const ph = 0 + without[0]! * h0 + without[1]! * h0 + without[2]! * h2 + without[3]! * h2;
        llmLog[w]! += Math.log(pl);
        carefulLog[w]! += Math.log(ph);
      }
    }
    // The fit's rounds weigh LLM user against careful. The last round, whose posteriors are the
    // result, weighs LLM user against careful or not reading, at odds π / (1 − π) to careful
    // (π = `priorNotReading`); as odds, so that a careful worker's factor is what it was where
    // not reading explains nothing. Only there, so that the mean-field fit is the one without
    // the class (its fixed points were tuned to nothing, and a change of its dynamics is a new
    // risk: with the class as a share in every round, a synthetic batch's fit fell into the
    // solution where the LLM class looks careful).
    const last = round === policy.rounds - 1;
    for (let w = 0; w < workers.length; w++) {
      if (!last) {
        shared[w] = llmLog[w]! - carefulLog[w]!;
        continue;
      }
      const c = carefulLog[w]!;
      const n = logNotReading + notReading[w]!;
      const top = Math.max(c, n);
      shared[w] = llmLog[w]! - (top === -Infinity ? 0 : top + Math.log(Math.exp(c - top) + Math.exp(n - top)));
    }
    const cap = Math.log(policy.maxSharedFactor);
    const feedback = Math.log(policy.maxFitFeedback);
    const confident = logit(policy.confidence);
    workers.forEach((_, w) => {
      const evidence = clamp(shared[w]!, -cap, cap);
      const odds = logit(share) + sideLog[w]!;
      // the last round's posteriors are the result: there, every worker's evidence counts in full
      const weight = last || odds + evidence >= confident ? evidence : Math.min(evidence, feedback);
      q[w] = held[w] && !last ? Math.max(policy.confidence, sigmoid(odds + weight)) : sigmoid(odds + weight);
    });
    // parameters
    share = (q.reduce((a, b) => a + b, 0) + policy.priorLlm) / (workers.length + policy.priorLlm + policy.priorCareful);
    share = clamp(share, 0.01, 0.5);
    let followed = 9;
    let total = 10;
    for (let w = 0; w < workers.length; w++) {
      let right = 0;
      for (let i = byWorker.start[w]!; i < byWorker.start[w + 1]!; i++) {
        const p = 4 * byWorker.other[i]!;
        right = right + (byWorker.yes[i] === 1 ? post[p]! + post[p + 1]! : post[p + 2]! + post[p + 3]!);
      }
      acc[w] = (right + 4) / (byWorker.start[w + 1]! - byWorker.start[w]! + 5);
    }
    for (let w = 0; w < workers.length; w++)
      for (let i = byWorker.start[w]!; i < byWorker.start[w + 1]!; i++) {
        const p = 4 * byWorker.other[i]!;
        followed += q[w]! * (byWorker.yes[i] === 1 ? post[p]! + post[p + 2]! : post[p + 1]! + post[p + 3]!);
        total += q[w]!;
      }
    beta = followed / total;
    // α from the items an LLM user answered (elsewhere ℓ is the prior's, which says nothing)
    let agree = 7;
    let weight = 10;
    let yes = 0;
    for (let t = 0; t < items.length; t++) {
      let llm = 0;
      for (let i = byItem.start[t]!; i < byItem.start[t + 1]!; i++) llm = llm + q[byItem.other[i]!]!;
      const llmWeight = Math.min(1, llm);
      agree += llmWeight * (post[4 * t]! + post[4 * t + 3]!);
      weight += llmWeight;
      yes = yes + post[4 * t]! + post[4 * t + 1]!;
    }
    alpha = agree / weight;
    rho = clamp((yes + 1) / (items.length + 2), 0.05, 0.95);
  }
  const cap = Math.log(policy.maxSharedFactor);
  return {
    fit: {
      factors: new Map(workers.map((w, i) => [w, Math.exp(clamp(shared[i]!, -cap, cap))])),
      posteriors: new Map(workers.map((w, i) => [w, q[i]!])),
      alpha,
      beta,
      share,
    },
    outcome: {
      llm: new Set(workers.filter((_, i) => q[i]! >= 0.5)),
      accuracy: new Map(workers.map((w, i) => [w, acc[i]!])),
      alpha,
      beta,
      rho,
    },
  };
}

const without = new Float64Array(4);

/** The votes a fit reads: one per worker and item (the first), their workers and items sorted, and their tables. */
interface FitTables {
  readonly workers: readonly string[];
  readonly items: readonly string[];
  readonly byItem: VoteTable;
  readonly byWorker: VoteTable;
}

function fitTables(votes: readonly Vote[]): FitTables {
  // one vote per worker and item (the first)
  const unique = firstAnswers(votes);
  const workers = [...new Set(unique.map((v) => v.worker))].sort();
  const items = [...new Set(unique.map((v) => v.item))].sort();
  return { workers, items, ...voteTables(unique, workers, items) };
}

/** The votes as two tables of flat arrays: by item (the worker of each vote) and by worker (the item of each vote), in order. */
interface VoteTable {
  /** Row r's votes are at start[r] to start[r + 1]. */
  readonly start: Uint32Array;
  /** The other index of each vote: its worker in the table by item, its item in the table by worker. */
  readonly other: Uint32Array;
  readonly yes: Uint8Array;
}

function voteTables(
  unique: readonly Vote[],
  workers: readonly string[],
  items: readonly string[],
): { byItem: VoteTable; byWorker: VoteTable } {
  const wIndex = new Map(workers.map((w, i) => [w, i]));
  const iIndex = new Map(items.map((t, i) => [t, i]));
  // rows of `n`, each vote of `list` (row, other, yes) in row r in the order of `list`
  const table = (n: number, list: readonly { row: number; other: number; yes: boolean }[]): VoteTable => {
    const start = new Uint32Array(n + 1);
    for (const v of list) start[v.row + 1]!++;
    for (let r = 0; r < n; r++) start[r + 1]! += start[r]!;
    const next = start.slice(0, n);
    const other = new Uint32Array(list.length);
    const yes = new Uint8Array(list.length);
    for (const v of list) {
      const at = next[v.row]!++;
      other[at] = v.other;
      yes[at] = v.yes ? 1 : 0;
    }
    return { start, other, yes };
  };
  const byItem = table(
    items.length,
    unique.map((v) => ({ row: iIndex.get(v.item)!, other: wIndex.get(v.worker)!, yes: v.answer === 'yes' })),
  );
  // a worker's votes in the order of their items
  const flipped: { row: number; other: number; yes: boolean }[] = [];
  for (let t = 0; t < items.length; t++)
    for (let i = byItem.start[t]!; i < byItem.start[t + 1]!; i++)
      flipped.push({ row: byItem.other[i]!, other: t, yes: byItem.yes[i] === 1 });
  return { byItem, byWorker: table(workers.length, flipped) };
}

/** The four log weights as probabilities, written at `into[at..at + 3]`. */
function normaliseInto(l0: number, l1: number, l2: number, l3: number, into: Float64Array, at: number): void {
  const top = Math.max(l0, l1, l2, l3);
  const e0 = Math.exp(l0 - top);
  const e1 = Math.exp(l1 - top);
  const e2 = Math.exp(l2 - top);
  const e3 = Math.exp(l3 - top);
  const s = 0 + e0 + e1 + e2 + e3;
  into[at] = e0 / s;
  into[at + 1] = e1 / s;
  into[at + 2] = e2 / s;
  into[at + 3] = e3 / s;
}
