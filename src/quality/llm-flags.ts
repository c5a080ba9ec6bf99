import type { Judgment } from '../domain/cases.js';
import type { ScoredAssignment } from './counted-votes.js';
import {
  DEFAULT_LLM_POLICY,
  llmAssistedVerdict,
  type ItemObservation,
  type LlmAssistedPolicy,
  type LlmAssistedVerdict,
} from './llm-assisted.js';

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
): Map<string, LlmAssistedVerdict> {
  const agentsOf = new Map<string, { A: Judgment; B: Judgment }>();
  for (const [item, info] of items) {
    const names = Object.keys(info.agentLabels).sort();
    if (names.length >= 2) agentsOf.set(item, { A: info.agentLabels[names[0]!]!, B: info.agentLabels[names[1]!]! });
  }
  const byWorker = new Map<string, { observations: ItemObservation[]; seen: Set<string>; texts: string[]; canaries: Set<string> }>();
  for (const { assignment, hit } of scored) {
    let mine = byWorker.get(assignment.worker);
    if (!mine) byWorker.set(assignment.worker, (mine = { observations: [], seen: new Set(), texts: [], canaries: new Set() }));
    const real = new Set(hit.items);
    const seen = mine.seen;
    for (const a of assignment.answers) {
      if (a.comment) mine.texts.push(a.comment);
      if (a.canary) mine.canaries.add(a.canary);
      const agents = agentsOf.get(a.item);
      if (!real.has(a.item) || !agents || seen.has(a.item)) continue;
      seen.add(a.item);
      const observation: ItemObservation = {
        agents,
        answer: a.label,
        ...(a.timeMs !== undefined && { timeMs: a.timeMs }),
        ...(items.get(a.item)?.textLength !== undefined && { textLength: items.get(a.item)!.textLength! }),
        copies: a.copies ?? 0,
        pastes: a.pastes ?? 0,
        focusLosses: a.focusLosses ?? 0,
      };
      mine.observations.push(observation);
    }
  }
  // the batch's rate of following agent A where the agents disagree; each worker is compared with the others'
  const contested = (o: ItemObservation) => o.agents.A !== o.agents.B;
  const followsA = (o: ItemObservation) => o.answer === o.agents.A;
  let items_ = 0;
  let followedA = 0;
  for (const { observations } of byWorker.values()) {
    items_ += observations.filter(contested).length;
    followedA += observations.filter((o) => contested(o) && followsA(o)).length;
  }
  const verdicts = new Map<string, LlmAssistedVerdict>();
  for (const [worker, mine] of byWorker) {
    const own = mine.observations.filter(contested);
    const baseline = { items: items_ - own.length, followedA: followedA - own.filter(followsA).length };
    verdicts.set(worker, llmAssistedVerdict(mine.observations, baseline, mine.texts, [...mine.canaries], policy));
  }
  return verdicts;
}
