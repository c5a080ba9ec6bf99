import type { Judgment } from '../domain/cases.js';
import type { ScoredAssignment } from './counted-votes.js';
import { baselineFrom, leaveOneOutBaselines, type WorkerSummary } from './loo-baseline.js';
import {
  CANARY_EVIDENCE,
  DEFAULT_LLM_POLICY,
  judgeSignals,
  median,
  workerSignals,
  type AgentBaseline,
  type ItemObservation,
  type LlmAssistedPolicy,
  type LlmAssistedVerdict,
} from './llm-assisted.js';
import {
  carefulEventBound,
  correlatedSideFactor,
  DEFAULT_LLM_EVIDENCE_POLICY,
  eventRateFactor,
  sharedErrorFactors,
  sideFactor,
  type CheckAnswer,
  type LlmEvidencePolicy,
  type Vote,
} from './llm-evidence.js';
import { llmFollowingVerdicts, llmLabelOf, type FollowingAnswer } from './llm-following.js';

/**
 * `llmAssistedVerdict` for every worker of a batch (pure): each worker's answers to real
 * items become observations (the agents' final labels, the answer, time, text length, the
 * page's events), set against the other workers' answers on the same kind of items (the
 * baseline rate of following agent A, leaving the worker out), with every comment the
 * worker wrote and the canary words their pages carried.
 */

export interface LlmItemInfo {
  /** Each debating agent's final label, by agent name (the first two names in order are A and B). */
  readonly agentLabels: Readonly<Record<string, Judgment>>;
  /** Characters the page shows for the item. */
  readonly textLength?: number;
}

export function llmAssistedVerdicts(
  scored: readonly ScoredAssignment[],
  items: ReadonlyMap<string, LlmItemInfo>,
  policy: LlmAssistedPolicy = DEFAULT_LLM_POLICY,
  adjudicatorLabels: ReadonlyMap<string, Judgment> = new Map(),
  evidencePolicy: LlmEvidencePolicy = DEFAULT_LLM_EVIDENCE_POLICY,
): Map<string, LlmAssistedVerdict> {
  // every worker's answer on each real item (the first), and their items with a page event
  const votes: Vote[] = [];
  // every worker's answer on each gold check (the first): the one evidence of accuracy the votes do not set
  const checks: CheckAnswer[] = [];
  const events = new Map<string, { items: number; eventItems: number }>();
  const byWorker = new Map<string, { observations: ItemObservation[]; seen: Set<string>; texts: string[]; canaries: Set<string> }>();
  // per worker, the observations of their assignments the review counts: the careful baseline's
  const counted = new Map<string, ItemObservation[]>();
  // every worker's answers on items with an LLM verdict (the agents' where they agree, else the adjudicator's)
  const following = new Map<string, FollowingAnswer[]>();
  const llmLabels = new Map<string, Judgment>();
  for (const { assignment, hit, counts } of scored) {
    let mine = byWorker.get(assignment.worker);
    if (!mine) byWorker.set(assignment.worker, (mine = { observations: [], seen: new Set(), texts: [], canaries: new Set() }));
    // a HIT has a handful of items: a scan, not a set built per assignment
    const real = hit.items;
    const seen = mine.seen;
    for (const a of assignment.answers) {
      if (a.comment) mine.texts.push(a.comment);
      if (a.canary) mine.canaries.add(a.canary);
      const check = hit.checks.find((c) => c.item === a.item);
      if (check) checks.push({ worker: assignment.worker, item: a.item, answer: a.label, expected: check.expected });
      if (seen.has(a.item) || !real.includes(a.item)) continue;
      seen.add(a.item);
      votes.push({ worker: assignment.worker, item: a.item, answer: a.label });
      const e = events.get(assignment.worker) ?? { items: 0, eventItems: 0 };
      e.items++;
      if ((a.copies ?? 0) + (a.pastes ?? 0) + (a.focusLosses ?? 0) > 0) e.eventItems++;
      events.set(assignment.worker, e);
      const info = items.get(a.item);
      const agents = info && agentsOf(info);
      if (!agents) continue;
      const llm = llmLabelOf(agents, adjudicatorLabels.get(a.item));
      if (llm !== undefined) {
        llmLabels.set(a.item, llm);
        const list = following.get(assignment.worker) ?? [];
        list.push({ item: a.item, answer: a.label, event: (a.copies ?? 0) + (a.pastes ?? 0) + (a.focusLosses ?? 0) > 0 });
        following.set(assignment.worker, list);
      }
      const observation: { -readonly [K in keyof ItemObservation]: ItemObservation[K] } = {
        agents,
        answer: a.label,
        copies: a.copies ?? 0,
        pastes: a.pastes ?? 0,
        focusLosses: a.focusLosses ?? 0,
      };
      if (a.timeMs !== undefined) observation.timeMs = a.timeMs;
      if (info.textLength !== undefined) observation.textLength = info.textLength;
      mine.observations.push(observation);
      if (counts) {
        const list = counted.get(assignment.worker) ?? [];
        list.push(observation);
        counted.set(assignment.worker, list);
      }
    }
  }
  // Each worker is compared with the careful workers of the batch: a first pass against everyone
  // else, then against those the first pass did not flag, so that other LLM users (who follow the
  // same agent, fast, with page events) do not pull the baseline towards themselves.
  // Each worker's counts are summed once; a baseline is then sums over the others (cheap each round).
  // what each worker's verdict reads of their answers, the same in both passes
  const signals = new Map([...byWorker].map(([w, m]) => [w, workerSignals(m.observations, m.texts, [...m.canaries])]));
  // the careful baseline from the work the review counts: a spammer's or a one-button worker's discarded work (fast,
  // unread) and a stopped LLM user's are not what careful people do (a worker with nothing counted adds nothing)
  const summaries = new Map(
    [...byWorker].map(([w, m]) => {
      const mine = counted.get(w) ?? [];
      return [w, summaryOf(mine, mine.length === m.observations.length ? signals.get(w) : undefined)] as const;
    }),
  );
  let verdicts = new Map<string, LlmAssistedVerdict>();
  let excluded = new Set<string>();
  for (let pass = 0; pass < 2; pass++) {
    const next = new Map<string, LlmAssistedVerdict>();
    const baselines = leaveOneOutBaselines(summaries, (w) => !excluded.has(w));
    for (const worker of byWorker.keys()) next.set(worker, judgeSignals(signals.get(worker)!, baselines.get(worker)!, policy));
    verdicts = next;
    excluded = new Set([...next].filter(([, v]) => v.flagged).map(([w]) => w));
  }
  // the per-signal rule no longer flags, but still keeps a worker out of the references below
  const suspected = excluded;
  verdicts = withPosteriors(verdicts, votes, checks, events, evidencePolicy);
  excluded = new Set([...verdicts].filter(([w, v]) => v.flagged || suspected.has(w)).map(([w]) => w));
  if (llmLabels.size === 0) return verdicts;
  // Following the LLM where the crowd says otherwise, against the workers not flagged above.
  const followingVerdicts = llmFollowingVerdicts(following, llmLabels, (w) => !excluded.has(w));
  for (const [worker, f] of followingVerdicts) {
    const v = verdicts.get(worker);
    if (!v || !f.flagged || !f.evidence) continue;
    verdicts.set(worker, { ...v, flagged: true, evidence: [...v.evidence, f.evidence], following: f });
  }
  return verdicts;
}

/**
 * Page events, reading speed, agreement with the debate's agents and shared errors combined
 * into one posterior per worker (llm-evidence.ts); a worker is flagged at the policy's
 * confidence, or by the canary (direct evidence). Speed and agent agreement count once where they
 * point the same way (careful people who skim also go with an agent). The per-signal rule
 * of llm-assisted.ts (a combined Bayes factor of 100, a posterior near 92% at the prior's one
 * in ten) no longer flags on its own: its factors are in the posterior.
 */
function withPosteriors(
  verdicts: ReadonlyMap<string, LlmAssistedVerdict>,
  votes: readonly Vote[],
  checks: readonly CheckAnswer[],
  events: ReadonlyMap<string, { items: number; eventItems: number }>,
  policy: LlmEvidencePolicy,
): Map<string, LlmAssistedVerdict> {
  const bound = carefulEventBound([...events.values()], policy);
  const side = new Map<string, number>();
  const eventFactors = new Map<string, number>();
  for (const [worker, v] of verdicts) {
    const e = events.get(worker) ?? { items: 0, eventItems: 0 };
    const ev = eventRateFactor(e.eventItems, e.items, bound, policy);
    eventFactors.set(worker, ev);
    side.set(worker, ev * correlatedSideFactor(v.factors.speed, v.factors.agreement, policy));
  }
  const fit = sharedErrorFactors(votes, side, policy, checks);
  const out = new Map<string, LlmAssistedVerdict>();
  for (const [worker, v] of verdicts) {
    const posterior = fit.posteriors.get(worker) ?? null;
    const shared = fit.factors.get(worker) ?? 1;
    const ev = eventFactors.get(worker) ?? 1;
    const e = events.get(worker) ?? { items: 0, eventItems: 0 };
    const flag = posterior !== null && posterior >= policy.confidence;
    const sentence = flag
      ? `P(LLM-assisted) ${(100 * posterior).toFixed(1)}% ≥ ${(100 * policy.confidence).toFixed(0)}%: ` +
        `copied, pasted or left the page on ${e.eventItems} of ${e.items} items (careful workers at most ${(100 * bound).toFixed(0)}%; Bayes factor ${fmt(ev)}), ` +
        `answers shared with the other LLM-like workers where the others said otherwise (Bayes factor ${fmt(shared)}), ` +
        `reading speed (Bayes factor ${fmt(sideFactor(v.factors.speed, policy))}) and agreement with a debating agent ` +
        `(Bayes factor ${fmt(sideFactor(v.factors.agreement, policy))}) counted as ${fmt(correlatedSideFactor(v.factors.speed, v.factors.agreement, policy))} (they go together in people who skim: the stronger of the two where both point the same way, else their product); ` +
        `the three multiplied with the prior odds; fitted LLM accuracy ${(100 * fit.alpha).toFixed(0)}%, share of LLM users ${(100 * fit.share).toFixed(0)}%` +
        (fit.group
          ? `; the fit was started with ${fit.group.seed.length} workers who agree beyond what their gold checks allow as users of one model, ` +
            `an outcome the gold checks favour ${fmt(fit.group.checkFactor)} to 1 over the fit without it`
          : '')
      : null;
    // the per-signal sentences stand beside the posterior's; without it, only the canary's
    const kept = flag ? v.evidence : v.evidence.filter((e) => e === CANARY_EVIDENCE);
    out.set(worker, {
      ...v,
      flagged: v.canary || flag,
      evidence: sentence ? [...kept, sentence] : kept,
      ...(posterior !== null && { posterior: { probability: posterior, events: ev, shared, eventBound: bound } }),
    });
  }
  return out;
}

const fmt = (x: number) => (x >= 1000 || x < 0.01 ? x.toExponential(1) : x.toPrecision(2));

/**
 * Agents A and B of an item (the first two agent names in order), or null with fewer than
 * two agents; kept per info object, since a collection round asks for every item's agents
 * every round and the infos live as long as the process's cache of them (pipeline/llm-flags.ts).
 */
const agentsByInfo = new WeakMap<LlmItemInfo, { A: Judgment; B: Judgment } | null>();

function agentsOf(info: LlmItemInfo): { A: Judgment; B: Judgment } | null {
  let agents = agentsByInfo.get(info);
  if (agents === undefined) {
    const names = Object.keys(info.agentLabels).sort();
    agents = names.length >= 2 ? { A: info.agentLabels[names[0]!]!, B: info.agentLabels[names[1]!]! } : null;
    agentsByInfo.set(info, agents);
  }
  return agents;
}

/** A worker's part of a baseline: the counts of their signals, and their median log reading speed. */
function summaryOf(observations: readonly ItemObservation[], signals = workerSignals(observations)): WorkerSummary {
  const per = observations.flatMap((o) =>
    o.timeMs !== undefined && o.timeMs > 0 && o.textLength ? [Math.log((o.timeMs * 1000) / o.textLength)] : [],
  );
  const { contested, followedA, items, eventItems } = signals;
  return { contested, followedA, items, eventItems, logSpeed: per.length >= 3 ? median(per) : null };
}

/** What careful workers do, from the observations of the workers taken as careful. */
export function baselineOf(workers: readonly (readonly ItemObservation[])[]): AgentBaseline {
  return baselineFrom(workers.map((w) => summaryOf(w)));
}

/**
 * Whether a flag stops the worker, where the preset blocks flagged workers (pure). A flag
 * stops when it rests on something the worker did: the canary, following the LLM where the
 * crowd said otherwise, or page events and reading speed that, together, point towards an LLM
 * (a Bayes factor above 1). A flag from errors shared with other LLM-like workers alone does
 * not stop: that evidence is the fit's reading of who else answers with one model, and on a
 * crowd qrelay did not write the fit has taken careful workers for such a group for a few
 * rounds before later evidence cleared them (decision 0015). Such a worker stays flagged
 * (no reference for the others) and is stopped as soon as their own conduct adds to it.
 */
export function flagStopsTheWorker(v: LlmAssistedVerdict, policy: LlmEvidencePolicy = DEFAULT_LLM_EVIDENCE_POLICY): boolean {
  if (!v.flagged) return false;
  if (v.canary || v.following !== undefined || v.posterior === undefined) return true;
  return v.posterior.events * correlatedSideFactor(v.factors.speed, v.factors.agreement, policy) > 1;
}
