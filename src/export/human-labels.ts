import { AGGREGATORS } from '../aggregate/index.js';
import type { BatchDoc, HitDoc, LabelDoc } from '../db/models/index.js';
import type { Judgment } from '../domain/cases.js';
import { caseKey } from '../ingest/index.js';
import { itemId } from '../pipeline/names.js';
import { quote, type HumanLabel } from '../qrels/index.js';

/**
 * A batch's labels as qrels input (pure). A label is final when the item has its vote
 * target of valid votes, or when the batch takes no more work (complete, expired, closed)
 * and its votes gave a label; every other item is unresolved and listed, never written.
 */

export type UnresolvedReason = 'tie' | 'no-votes' | 'votes-pending';

export interface UnresolvedItem {
  item: string;
  query_id: string;
  chunk_id: string;
  dataset: string;
  reason: UnresolvedReason;
  votes: { yes: number; no: number };
  validVotes: number;
  voteTarget: number;
}

export interface BatchHumanLabels {
  batch: string;
  state: BatchDoc['state'];
  labels: HumanLabel[];
  /** Sorted by item id. */
  unresolved: UnresolvedItem[];
}

/** States in which a batch still asks for votes: a label short of its target may still change. */
const COLLECTING: ReadonlySet<BatchDoc['state']> = new Set(['draft', 'publishing', 'collecting']);

/** Item id -> dataset, from the HITs' planned items. */
export function datasetsOf(hits: readonly Pick<HitDoc, 'batch' | 'items'>[]): Map<string, string> {
  const datasets = new Map<string, string>();
  for (const hit of hits) {
    for (const i of hit.items) if (i.kind === 'real') datasets.set(itemId(hit.batch, caseKey(i.queryId, i.chunkId)), i.dataset);
  }
  return datasets;
}

export interface HumanLabelsInput {
  batch: string;
  state: BatchDoc['state'];
  voteTarget: number;
  labels: readonly (Pick<LabelDoc, '_id' | 'queryId' | 'chunkId' | 'label' | 'votes' | 'validVotes' | 'workers' | 'complete'> &
    Partial<Pick<LabelDoc, 'method'>>)[];
  datasets: ReadonlyMap<string, string>;
}

export function toHumanLabels(input: HumanLabelsInput): BatchHumanLabels {
  const takesVotes = COLLECTING.has(input.state);
  const labels: HumanLabel[] = [];
  const unresolved: UnresolvedItem[] = [];
  for (const l of [...input.labels].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))) {
    const dataset = input.datasets.get(l._id) ?? 'default';
    const label: Judgment | null = l.label;
    if (label !== null && l.workers.length > 0 && (l.complete || !takesVotes)) {
      labels.push({
        query_id: l.queryId,
        chunk_id: l.chunkId,
        label,
        votes: { yes: l.votes.yes, no: l.votes.no },
        workers: l.workers.length,
        batch: input.batch,
        dataset,
        source: AGGREGATORS[l.method ?? 'majority'].labelSource,
      });
      continue;
    }
    const reason: UnresolvedReason = l.validVotes === 0 ? 'no-votes' : label === null ? 'tie' : 'votes-pending';
    unresolved.push({
      item: l._id,
      query_id: l.queryId,
      chunk_id: l.chunkId,
      dataset,
      reason,
      votes: { yes: l.votes.yes, no: l.votes.no },
      validVotes: l.validVotes,
      voteTarget: input.voteTarget,
    });
  }
  return { batch: input.batch, state: input.state, labels, unresolved };
}

const REASON_TEXT: Record<UnresolvedReason, (u: UnresolvedItem) => string> = {
  tie: (u) => `votes tied ${u.votes.yes}-${u.votes.no}`,
  'no-votes': () => 'no valid vote',
  'votes-pending': (u) => `${u.validVotes} of ${u.voteTarget} valid votes so far`,
};

/** `query q1 chunk d7 (msmarco): votes tied 1-1`. */
export function describeUnresolved(u: UnresolvedItem): string {
  return `query ${quote(u.query_id)} chunk ${quote(u.chunk_id)} (dataset ${quote(u.dataset)}): ${REASON_TEXT[u.reason](u)}`;
}

/** Human-tier labels that say relevant where the base qrels have no judgment: the holes the crowd found. */
export function holesFound(
  base: ReadonlyMap<string, ReadonlyMap<string, number>>,
  labels: readonly Pick<HumanLabel, 'query_id' | 'chunk_id' | 'label'>[],
): number {
  return labels.filter((l) => l.label === 'yes' && base.get(l.query_id)?.get(l.chunk_id) === undefined).length;
}

/** A decision taken by hand on one item (src/actions/manual-labels.ts). */
export interface ManualDecision {
  item: string;
  queryId: string;
  chunkId: string;
  label: Judgment;
}

/**
 * Manual decisions over the crowd's labels (pure): each decided item leaves the
 * unresolved list and gets the person's label with source `manual`, keeping the crowd's
 * votes for the record.
 */
export function applyManualLabels(
  human: BatchHumanLabels,
  manual: readonly ManualDecision[],
  datasets: ReadonlyMap<string, string>,
): BatchHumanLabels {
  if (manual.length === 0) return human;
  const decided = new Map(manual.map((m) => [caseKey(m.queryId, m.chunkId), m]));
  const crowd = new Map(human.labels.map((l) => [caseKey(l.query_id, l.chunk_id), l]));
  const unresolved = new Map(human.unresolved.map((u) => [caseKey(u.query_id, u.chunk_id), u]));
  const manualLabels: HumanLabel[] = [...decided].map(([key, m]) => {
    const before = crowd.get(key);
    const open = unresolved.get(key);
    return {
      query_id: m.queryId,
      chunk_id: m.chunkId,
      label: m.label,
      votes: before?.votes ?? open?.votes ?? { yes: 0, no: 0 },
      workers: before?.workers ?? 0,
      batch: human.batch,
      dataset: before?.dataset ?? open?.dataset ?? datasets.get(m.item) ?? 'default',
      source: 'manual',
    };
  });
  return {
    ...human,
    labels: [...human.labels.filter((l) => !decided.has(caseKey(l.query_id, l.chunk_id))), ...manualLabels],
    unresolved: human.unresolved.filter((u) => !decided.has(caseKey(u.query_id, u.chunk_id))),
  };
}
