import {
  agreementIntervalIndexed,
  indexVotes,
  labelsByItem,
  type AgreementInterval,
  type AggregationResult,
  type AggregatorId,
  type DawidSkeneResult,
  type ItemCounts,
  type Vote,
} from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import { seededRng } from '../hits/random.js';
import { balancedAccuracy, labelAccuracy, labelDifferences, type LabelDifference, type ScoredAssignment } from '../quality/index.js';

/**
 * The parts of the report a reviewer needs to trust the labels (pure): accuracy and balanced
 * accuracy on the gold (the attention checks' known answers), κ and α with 95% bootstrap
 * intervals, per-worker confusion tables, and the protocol's majority next to Dawid–Skene
 * with the items on which they differ.
 */

const CATEGORIES: readonly Judgment[] = ['yes', 'no'];

/** counts[truth][answer]: rows are the reference (known answer or final label), columns the worker's answer. */
export type ConfusionTable = Record<Judgment, Record<Judgment, number>>;

const emptyTable = (): ConfusionTable => ({ yes: { yes: 0, no: 0 }, no: { yes: 0, no: 0 } });

/** Accuracy and balanced accuracy of a set of answers against references, from its confusion table. */
export interface TableAccuracy {
  readonly answers: number;
  readonly correct: number;
  /** correct / answers; null without answers. */
  readonly accuracy: number | null;
  /** Mean over the references present of the share answered right; null without answers. */
  readonly balancedAccuracy: number | null;
}

export function tableAccuracy(t: ConfusionTable): TableAccuracy {
  const correct = t.yes.yes + t.no.no;
  const answers = correct + t.yes.no + t.no.yes;
  const recalls = CATEGORIES.flatMap((c) => {
    const support = t[c].yes + t[c].no;
    return support === 0 ? [] : [t[c][c] / support];
  });
  return {
    answers,
    correct,
    accuracy: answers === 0 ? null : correct / answers,
    balancedAccuracy: recalls.length === 0 ? null : recalls.reduce((a, b) => a + b, 0) / recalls.length,
  };
}

export interface WorkerConfusion {
  /** Answers to attention checks against their known answers (every submitted assignment). */
  readonly vsGold: ConfusionTable & { readonly summary: TableAccuracy };
  /** Answers to real items against the batch's final labels (items without a label left out). */
  readonly vsFinal: ConfusionTable & { readonly summary: TableAccuracy };
}

/** Per worker: confusion tables against the gold and against the final labels; and the crowd's gold table. */
export function confusionTables(
  scored: readonly ScoredAssignment[],
  finalLabels: ReadonlyMap<string, Judgment | null>,
): { byWorker: Map<string, WorkerConfusion>; gold: ConfusionTable } {
  const gold = emptyTable();
  const tables = new Map<string, { vsGold: ConfusionTable; vsFinal: ConfusionTable }>();
  for (const { assignment, hit } of scored) {
    let t = tables.get(assignment.worker);
    if (!t) tables.set(assignment.worker, (t = { vsGold: emptyTable(), vsFinal: emptyTable() }));
    const expected = new Map(hit.checks.map((c) => [c.item, c.expected]));
    for (const answer of assignment.answers) {
      const known = expected.get(answer.item);
      if (known !== undefined) {
        t.vsGold[known][answer.label]++;
        gold[known][answer.label]++;
        continue;
      }
      const label = finalLabels.get(answer.item);
      if (label) t.vsFinal[label][answer.label]++;
    }
  }
  const byWorker = new Map(
    [...tables].map(([worker, t]) => [
      worker,
      {
        vsGold: { ...t.vsGold, summary: tableAccuracy(t.vsGold) },
        vsFinal: { ...t.vsFinal, summary: tableAccuracy(t.vsFinal) },
      },
    ]),
  );
  return { byWorker, gold };
}

/** The crowd on the gold: every answer to an attention check, by polarity. */
export interface GoldAccuracy extends TableAccuracy {
  readonly table: ConfusionTable;
}

export interface AgreementIntervals {
  readonly fleissKappa: AgreementInterval;
  readonly krippendorffAlpha: AgreementInterval;
}

/**
 * 95% percentile-bootstrap intervals of κ and α over the same votes, 1,000 resamples of items,
 * seeded by the batch name. `votes` may come indexed already (`indexVotes(votes, ['yes', 'no'])`,
 * as the report indexes them for κ and α): then they are not indexed again for each interval.
 */
export function agreementIntervals(votes: readonly Vote<Judgment>[] | ItemCounts<Judgment>, seed: string): AgreementIntervals {
  const data = 'counts' in votes ? votes : indexVotes(votes, CATEGORIES);
  const interval = (measure: 'fleissKappa' | 'krippendorffAlpha') => {
    const rng = seededRng(`report-agreement-interval|${seed}|${measure}`);
    return agreementIntervalIndexed(measure, data, { random: () => rng.next(), replicates: 1000, level: 0.95 });
  };
  return { fleissKappa: interval('fleissKappa'), krippendorffAlpha: interval('krippendorffAlpha') };
}

/** One way of labelling: how many labels, and against the truth when known. */
export interface AggregateSummary {
  readonly labels: number;
  readonly unresolved: number;
  /** Against the hidden truth; null when no item has one. */
  readonly accuracy: number | null;
  readonly balancedAccuracy: number | null;
  /** Labelled items with a truth, and of those right, per true class (for intervals); null without a truth. */
  readonly perClass: Record<Judgment, { readonly support: number; readonly correct: number }> | null;
}

export interface AggregationComparison {
  /** The DREAM protocol's label: majority of each item's first `voteTarget` valid votes. */
  readonly protocol: 'majority';
  /** Which one the report's labels (`labels`, `itemRows`, κ and α aside) use: the batch's aggregator. */
  readonly used: AggregatorId;
  readonly majority: AggregateSummary;
  /** Over every answer, checks as gold items, worker priors from the evidence (quality/evidence-aggregation.ts). */
  readonly dawidSkene: AggregateSummary & {
    readonly iterations: number;
    readonly converged: boolean;
    readonly goldItems: number;
    readonly answersUsed: number;
  };
  /** Items whose labels differ, sorted by item id, with their query and chunk. */
  readonly differences: readonly (LabelDifference & { readonly queryId: string; readonly chunkId: string })[];
}

function summarize(result: AggregationResult<Judgment>, truth: ReadonlyMap<string, Judgment>): AggregateSummary {
  const labels = labelsByItem(result);
  const balanced = truth.size === 0 ? null : balancedAccuracy(labels, truth, CATEGORIES);
  return {
    labels: result.items.filter((it) => it.label !== null).length,
    unresolved: result.unresolved,
    accuracy: truth.size === 0 ? null : labelAccuracy(labels, truth).value,
    balancedAccuracy: balanced?.value ?? null,
    perClass: balanced
      ? {
          yes: { support: balanced.perClass.yes.support, correct: balanced.perClass.yes.correct },
          no: { support: balanced.perClass.no.support, correct: balanced.perClass.no.correct },
        }
      : null,
  };
}

export function compareAggregations(input: {
  majority: AggregationResult<Judgment>;
  dawidSkene: { result: DawidSkeneResult<Judgment>; goldItems: number; votesUsed: number };
  used: AggregatorId;
  truth: ReadonlyMap<string, Judgment>;
  items: ReadonlyMap<string, { queryId: string; chunkId: string }>;
}): AggregationComparison {
  const ds = input.dawidSkene;
  return {
    protocol: 'majority',
    used: input.used,
    majority: summarize(input.majority, input.truth),
    dawidSkene: {
      ...summarize(ds.result, input.truth),
      iterations: ds.result.iterations,
      converged: ds.result.converged,
      goldItems: ds.goldItems,
      answersUsed: ds.votesUsed,
    },
    differences: labelDifferences(input.majority, ds.result).map((d) => ({
      ...d,
      queryId: input.items.get(d.item)?.queryId ?? d.item,
      chunkId: input.items.get(d.item)?.chunkId ?? d.item,
    })),
  };
}
