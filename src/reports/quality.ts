import { byCodeUnits } from '../aggregate/votes.js';
import {
  fleissKappa,
  indexVotes,
  krippendorffAlpha,
  labelsByItem,
  majorityVote,
  pairableVotes,
  type AggregationResult,
  type AggregatorId,
  type Vote,
} from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import {
  balancedAccuracy,
  dawidSkeneWithEvidence,
  labelAccuracy,
  type EvidenceDawidSkene,
  type PassRate,
  type WorkerStats,
} from '../quality/index.js';
import type { ResolvedReportOptions } from './options.js';
import type { BatchFacts } from './prepare.js';
import { agreementIntervals, compareAggregations, tableAccuracy, type ConfusionTable } from './trust.js';
import type { AgentAgreement, QualityReport } from './types.js';

export const CATEGORIES: readonly Judgment[] = ['yes', 'no'];

export interface HumanLabels {
  readonly result: AggregationResult<Judgment>;
  /** Each item's first `voteTarget` valid votes: κ and α are computed from these, and majority labels. */
  readonly used: readonly Vote<Judgment>[];
  /** Both ways of labelling, whichever `result` is: the protocol's majority and Dawid–Skene with the evidence. */
  readonly majority: AggregationResult<Judgment>;
  readonly dawidSkene: EvidenceDawidSkene;
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

/**
 * The human labels: majority vote over the first `voteTarget` valid votes, or Dawid–Skene
 * over every answer with the checks as gold and worker priors from the evidence
 * (quality/evidence-aggregation.ts). Both are computed, so the report can show both.
 */
export function humanLabels(
  facts: BatchFacts,
  options: Pick<ResolvedReportOptions, 'aggregator' | 'tiePolicy' | 'voteTarget'>,
): HumanLabels {
  const used = firstVotes(facts.votes, options.voteTarget);
  const majority = majorityVote<Judgment>({ tiePolicy: options.tiePolicy }).fit(used, CATEGORIES);
  const dawidSkene = dawidSkeneWithEvidence(facts.scored, options.tiePolicy);
  const byAggregator: Record<AggregatorId, AggregationResult<Judgment>> = { majority, 'dawid-skene': dawidSkene.result };
  return { result: byAggregator[options.aggregator], used, majority, dawidSkene };
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

function hiddenTruth(facts: BatchFacts): Map<string, Judgment> {
  const truth = new Map<string, Judgment>();
  for (const item of facts.input.items) if (item.hiddenLabel !== undefined) truth.set(item.item, item.hiddenLabel);
  return truth;
}

function accuracy(facts: BatchFacts, labels: ReadonlyMap<string, Judgment | null>): QualityReport['accuracy'] {
  const truth = hiddenTruth(facts);
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
  gold: ConfusionTable,
): QualityReport {
  const labels = labelsByItem(human.result);
  const yesVotes = facts.votes.filter((v) => v.label === 'yes').length;
  const labelled = human.result.items.filter((it) => it.label !== null);
  const pairable = pairableVotes(human.used);
  // κ and α count the same votes: indexed once for both
  const pairableIndex = indexVotes(pairable, CATEGORIES);
  return {
    voteTarget: options.voteTarget,
    aggregator: options.aggregator,
    agreementVotes: human.used.length,
    agreementItems: pairableIndex.items.length,
    fleissKappa: fleissKappa.computeIndexed(pairableIndex),
    krippendorffAlpha: krippendorffAlpha.computeIndexed(pairableIndex),
    agreementIntervals: agreementIntervals(pairableIndex, facts.input.batch),
    attentionChecks: attentionChecks(facts),
    gold: { ...tableAccuracy(gold), table: gold },
    aggregation: compareAggregations({
      majority: human.majority,
      dawidSkene: human.dawidSkene,
      used: options.aggregator,
      truth: hiddenTruth(facts),
      items: new Map(facts.input.items.map((it) => [it.item, { queryId: it.queryId, chunkId: it.chunkId }])),
    }),
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
