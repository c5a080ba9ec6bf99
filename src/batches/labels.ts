import type { BatchDoc, BatchSettings, BatchSummary, HitDoc, LabelDoc } from '../db/models/index.js';
import { caseKey } from '../ingest/index.js';
import { itemId } from './names.js';
import { completeItems } from './redundancy.js';
import { aggregateStored, type BatchAggregate } from './votes.js';
import type { BatchData } from './repository.js';

/**
 * The batch's labels as read models: computed from its stored HITs and assignments (majority
 * of the first `voteTarget` votes, or Dawid–Skene; κ and α; the summary), without writing.
 * The aggregate stage writes them; status, exports and REST reads compute the same.
 */

/** The batch's real items as planned: item id -> query and chunk ids. */
export function plannedItems(hits: readonly HitDoc[]): Map<string, { queryId: string; chunkId: string }> {
  const items = new Map<string, { queryId: string; chunkId: string }>();
  for (const hit of hits) {
    for (const i of hit.items)
      if (i.kind === 'real') items.set(itemId(hit.batch, caseKey(i.queryId, i.chunkId)), { queryId: i.queryId, chunkId: i.chunkId });
  }
  return items;
}

export interface BatchAggregation {
  aggregate: BatchAggregate;
  labels: LabelDoc[];
  summary: BatchSummary;
}

export function buildLabels(doc: BatchDoc, data: BatchData, now: Date): BatchAggregation {
  const settings = doc.settings as BatchSettings;
  const aggregate = aggregateStored(data.hits, data.assignments, settings);
  const complete = completeItems(settings, aggregate.valid);
  const byItem = new Map(aggregate.result.items.map((it) => [it.item, it]));
  const voters = new Map<string, string[]>();
  for (const v of aggregate.used) voters.set(v.item, [...(voters.get(v.item) ?? []), v.worker]);
  const labels: LabelDoc[] = [...plannedItems(data.hits)].map(([id, ids]) => {
    const it = byItem.get(id);
    const valid = aggregate.validCounts.get(id) ?? 0;
    return {
      _id: id,
      batch: doc._id,
      queryId: ids.queryId,
      chunkId: ids.chunkId,
      label: it?.label ?? null,
      method: settings.aggregator,
      decidedBy: it?.decidedBy ?? 'no-votes',
      votes: { yes: it?.counts.yes ?? 0, no: it?.counts.no ?? 0 },
      validVotes: valid,
      workers: voters.get(id) ?? [],
      probabilities: it ? { yes: it.probabilities.yes, no: it.probabilities.no } : null,
      complete: complete(id, valid),
      updatedAt: now,
    };
  });
  const summary: BatchSummary = {
    at: now,
    items: labels.length,
    itemsComplete: labels.filter((l) => l.complete).length,
    labels: labels.filter((l) => l.label !== null).length,
    unresolved: labels.filter((l) => l.label === null && l.validVotes > 0).length,
    validVotes: aggregate.valid.length,
    fleissKappa: aggregate.fleissKappa.value,
    fleissKappaReason: aggregate.fleissKappa.reason ?? null,
    krippendorffAlpha: aggregate.krippendorffAlpha.value,
    krippendorffAlphaReason: aggregate.krippendorffAlpha.reason ?? null,
    agreementItems: aggregate.agreementItems,
  };
  return { aggregate, labels, summary };
}
