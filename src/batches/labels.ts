import type { BatchDoc, BatchSettings, BatchSummary, HitDoc, LabelDoc } from '../db/models/index.js';
import { caseKey } from '../ingest/index.js';
import { itemId } from './names.js';
import { completeItems } from './redundancy.js';
import type { ScoredAssignment } from '../quality/index.js';
import { aggregateStored, itemsOfChanged, type BatchAggregate } from './votes.js';
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

/** The settings a batch's labels are made under: labels built under others are built anew. */
const labelSettings = (s: BatchSettings) => JSON.stringify([s.aggregator, s.voteTarget, s.tie, s.redundancy ?? null, s.recollect ?? null]);

/** One item's label from the batch's aggregate (pure). */
function itemLabel(
  doc: BatchDoc,
  settings: BatchSettings,
  id: string,
  ids: { queryId: string; chunkId: string },
  aggregate: BatchAggregate,
  it: BatchAggregate['result']['items'][number] | undefined,
  workers: string[] | undefined,
  complete: (item: string, validVotes: number) => boolean,
  now: Date,
): LabelDoc {
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
    workers: workers ?? [],
    probabilities: it ? { yes: it.probabilities.yes, no: it.probabilities.no } : null,
    complete: complete(id, valid),
    updatedAt: now,
  };
}

function summaryOf(aggregate: BatchAggregate, labels: readonly LabelDoc[], now: Date): BatchSummary {
  let itemsComplete = 0;
  let labelled = 0;
  let unresolved = 0;
  for (const l of labels) {
    if (l.complete) itemsComplete++;
    if (l.label !== null) labelled++;
    else if (l.validVotes > 0) unresolved++;
  }
  return {
    at: now,
    items: labels.length,
    itemsComplete,
    labels: labelled,
    unresolved,
    validVotes: aggregate.valid.length,
    fleissKappa: aggregate.fleissKappa.value,
    fleissKappaReason: aggregate.fleissKappa.reason ?? null,
    krippendorffAlpha: aggregate.krippendorffAlpha.value,
    krippendorffAlphaReason: aggregate.krippendorffAlpha.reason ?? null,
    agreementItems: aggregate.agreementItems,
  };
}

export function buildLabels(doc: BatchDoc, data: BatchData, now: Date): BatchAggregation {
  const settings = doc.settings as BatchSettings;
  const aggregate = aggregateStored(data.hits, data.assignments, settings);
  const complete = completeItems(settings, aggregate.valid);
  const byItem = new Map(aggregate.result.items.map((it) => [it.item, it]));
  const voters = new Map<string, string[]>();
  for (const v of aggregate.used) {
    const of = voters.get(v.item);
    if (of) of.push(v.worker);
    else voters.set(v.item, [v.worker]);
  }
  const labels: LabelDoc[] = [...plannedItems(data.hits)].map(([id, ids]) =>
    itemLabel(doc, settings, id, ids, aggregate, byItem.get(id), voters.get(id), complete, now),
  );
  return { aggregate, labels, summary: summaryOf(aggregate, labels, now) };
}

/** What an incremental build of a batch's labels starts from: the last build's scores and labels. */
export interface LastLabels {
  settings: string;
  scored: ReadonlySet<ScoredAssignment>;
  /** Label id -> the label as last built. */
  labels: Map<string, LabelDoc>;
  /** The batch's planned items and the HITs' item lists they were read from (plannedItems). */
  planned: { of: readonly HitDoc['items'][]; items: Map<string, { queryId: string; chunkId: string }> };
}

/** plannedItems(hits), or `kept`'s when the HITs are the same and hold the same item lists. */
function plannedSince(hits: readonly HitDoc[], kept: LastLabels['planned'] | undefined): LastLabels['planned'] {
  if (kept && kept.of.length === hits.length && hits.every((h, i) => h.items === kept.of[i])) return kept;
  return { of: hits.map((h) => h.items), items: plannedItems(hits) };
}

/**
 * buildLabels, building anew only the labels of the items whose votes may have changed since
 * `last` (pure): an item's label is a function of its own votes in submission order (the
 * majority of its first votes, its valid count, whether it is decided), and the scores of
 * unchanged assignments are the very same objects from one build to the next
 * (derived-records.ts), so the items of the assignments scored anew, or gone, are the ones
 * to build again. A label not built again is last time's object, its `updatedAt` when it
 * was built. Dawid-Skene (every label depends on every answer), other settings, or no
 * `last`: every label is built. The labels and summary are those of buildLabels but for
 * the `updatedAt` of labels kept.
 */
export function buildLabelsSince(
  doc: BatchDoc,
  data: BatchData,
  now: Date,
  last: LastLabels | undefined,
): { aggregation: BatchAggregation; next: LastLabels; built: ReadonlySet<string> | undefined } {
  const settings = doc.settings as BatchSettings;
  const key = labelSettings(settings);
  const aggregate = aggregateStored(data.hits, data.assignments, settings);
  const scored = new Set(aggregate.scored);
  const plan = plannedSince(data.hits, last?.planned);
  const planned = plan.items;
  if (!last || last.settings !== key || settings.aggregator !== 'majority') {
    const aggregation = buildLabels(doc, data, now);
    return {
      aggregation,
      next: { settings: key, scored, labels: new Map(aggregation.labels.map((l) => [l._id, l])), planned: plan },
      built: undefined,
    };
  }
  const touched = itemsOfChanged(scored, last.scored);
  for (const id of planned.keys()) if (!last.labels.has(id)) touched.add(id);
  const byItem = new Map<string, BatchAggregate['result']['items'][number]>();
  for (const it of aggregate.result.items) if (touched.has(it.item)) byItem.set(it.item, it);
  const voters = new Map<string, string[]>();
  for (const v of aggregate.used) {
    if (!touched.has(v.item)) continue;
    const of = voters.get(v.item);
    if (of) of.push(v.worker);
    else voters.set(v.item, [v.worker]);
  }
  // whether an item is decided depends on its own valid votes alone
  const complete = completeItems(
    settings,
    aggregate.valid.filter((v) => touched.has(v.item)),
  );
  const built = new Set<string>();
  const next = new Map(last.labels);
  // (forEach: no entry made per item of a large batch's every round)
  const labels: LabelDoc[] = [];
  planned.forEach((ids, id) => {
    const kept = touched.has(id) ? undefined : last.labels.get(id);
    if (kept) {
      labels.push(kept);
      return;
    }
    built.add(id);
    const label = itemLabel(doc, settings, id, ids, aggregate, byItem.get(id), voters.get(id), complete, now);
    next.set(id, label);
    labels.push(label);
  });
  return {
    aggregation: { aggregate, labels, summary: summaryOf(aggregate, labels, now) },
    next: { settings: key, scored, labels: next, planned: plan },
    built,
  };
}
