import { byCodeUnits } from '../aggregate/votes.js';
import {
  dawidSkene,
  fleissKappa,
  krippendorffAlpha,
  labelsByItem,
  majorityVote,
  type AggregationResult,
  type Vote,
} from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import { balancedAccuracy, labelAccuracy, type PassRate, type WorkerStats } from '../quality/index.js';
import type { ResolvedReportOptions } from './options.js';
import type { BatchFacts } from './prepare.js';
import type { AgentAgreement, QualityReport } from './types.js';

export const CATEGORIES: readonly Judgment[] = ['yes', 'no'];

export interface HumanLabels {
  readonly result: AggregationResult<Judgment>;
  /** Each item's first `voteTarget` valid votes: κ and α are computed from these, and majority labels. */
  readonly used: readonly Vote<Judgment>[];
}

/**
 * Each item's first `target` valid votes in submission order: the protocol is a majority
 * of 3, and extra assignments (which serve every item of their HIT) can bring an item more.
 * The pipeline stores its labels by the same rule, so report and status agree.
 */
export function firstVotes<V extends Vote<Judgment>>(votes: readonly V[], target: number): V[] {
  const taken = new Map<string, number>();
  return votes.filter((v) => {
    const n = taken.get(v.item) ?? 0;
    taken.set(v.item, n + 1);
    return n < target;
  });
}

/** The human labels: majority vote over the first `voteTarget` valid votes, or Dawid–Skene over all of them. */
export function humanLabels(
  facts: BatchFacts,
  options: Pick<ResolvedReportOptions, 'aggregator' | 'tiePolicy' | 'voteTarget'>,
): HumanLabels {
  const used = firstVotes(facts.votes, options.voteTarget);
  const result =
    options.aggregator === 'dawid-skene'
      ? dawidSkene<Judgment>({ tiePolicy: options.tiePolicy }).fit(facts.votes, CATEGORIES)
      : majorityVote<Judgment>({ tiePolicy: options.tiePolicy }).fit(used, CATEGORIES);
  return { result, used };
}

const rate = (total: number, passed: number): PassRate => ({ total, passed, passRate: total === 0 ? null : passed / total });

function attentionChecks(facts: BatchFacts): QualityReport['attentionChecks'] {
  let yesTotal = 0;
  let yesPassed = 0;
  let noTotal = 0;
  let noPassed = 0;
  let assignmentsWithChecks = 0;
  let assignmentsPassedAll = 0;
  for (const { score } of facts.scored) {
    yesTotal += score.byPolarity.yes.total;
    yesPassed += score.byPolarity.yes.passed;
    noTotal += score.byPolarity.no.total;
    noPassed += score.byPolarity.no.passed;
    if (score.checks > 0) {
      assignmentsWithChecks++;
      if (score.passed) assignmentsPassedAll++;
    }
  }
  return {
    ...rate(yesTotal + noTotal, yesPassed + noPassed),
    byPolarity: { yes: rate(yesTotal, yesPassed), no: rate(noTotal, noPassed) },
    assignmentsWithChecks,
    assignmentsPassedAll,
  };
}

function agentAgreement(facts: BatchFacts, labels: ReadonlyMap<string, Judgment | null>): AgentAgreement[] {
  const agents = new Map<string, { compared: number; agreed: number }>();
  for (const item of facts.input.items) {
    const human = labels.get(item.item) ?? null;
    for (const [agent, label] of Object.entries(item.agentLabels)) {
      const a = agents.get(agent) ?? { compared: 0, agreed: 0 };
      if (human !== null) {
        a.compared++;
        if (label === human) a.agreed++;
      }
      agents.set(agent, a);
    }
  }
  return [...agents.keys()].sort(byCodeUnits).map((agent) => {
    const { compared, agreed } = agents.get(agent)!;
    return { agent, compared, agreed, rate: compared === 0 ? null : agreed / compared };
  });
}

function accuracy(facts: BatchFacts, labels: ReadonlyMap<string, Judgment | null>): QualityReport['accuracy'] {
  const truth = new Map<string, Judgment>();
  for (const item of facts.input.items) if (item.hiddenLabel !== undefined) truth.set(item.item, item.hiddenLabel);
  if (truth.size === 0) return null;
  return {
    itemsWithTruth: truth.size,
    accuracy: labelAccuracy(labels, truth),
    balancedAccuracy: balancedAccuracy(labels, truth, CATEGORIES),
  };
}

export function qualityReport(
  facts: BatchFacts,
  human: HumanLabels,
  workers: readonly Pick<WorkerStats, 'flags'>[],
  options: Pick<ResolvedReportOptions, 'aggregator' | 'voteTarget'>,
): QualityReport {
  const labels = labelsByItem(human.result);
  const yesVotes = facts.votes.filter((v) => v.label === 'yes').length;
  const labelled = human.result.items.filter((it) => it.label !== null);
  return {
    voteTarget: options.voteTarget,
    aggregator: options.aggregator,
    agreementVotes: human.used.length,
    fleissKappa: fleissKappa.compute(human.used, CATEGORIES),
    krippendorffAlpha: krippendorffAlpha.compute(human.used, CATEGORIES),
    attentionChecks: attentionChecks(facts),
    votes: { total: facts.votes.length, yes: yesVotes, no: facts.votes.length - yesVotes },
    labels: {
      yes: labelled.filter((it) => it.label === 'yes').length,
      no: labelled.filter((it) => it.label === 'no').length,
      unresolved: human.result.unresolved,
      withoutVotes: facts.input.items.filter((it) => !labels.has(it.item)).length,
    },
    agents: agentAgreement(facts, labels),
    accuracy: accuracy(facts, labels),
    flaggedWorkers: workers.filter((w) => w.flags.length > 0).length,
  };
}
