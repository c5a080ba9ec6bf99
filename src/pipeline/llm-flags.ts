import { writeFileSync } from 'node:fs';
import type { BatchData } from '../batches/repository.js';
import type { Judgment } from '../domain/cases.js';
import { llmModels } from '../debate/store.js';
import type { AssignmentDoc, HitDoc } from '../db/models/index.js';
import { caseKey } from '../ingest/index.js';
import type { LlmAssistedVerdict } from '../quality/llm-assisted.js';
import { llmAssistedVerdicts, type LlmItemInfo } from '../quality/llm-flags.js';
import type { WorkerStats } from '../quality/worker-stats.js';
import { reportItemFromCase } from '../reports/input.js';
import type { PipelineContext } from './context.js';
import { itemId } from './names.js';
import { itemCases } from './records.js';
import { scoreStored } from './votes.js';

/**
 * The batch's worker statistics with the `llm-assisted` flag and its evidence: the
 * detection needs the items' debates (the agents' final labels) and texts, which the
 * aggregate does not load; `qrelay workers` and the console's workers table call this.
 */
export async function withLlmFlags(ctx: PipelineContext, data: BatchData, stats: readonly WorkerStats[]): Promise<WorkerStats[]> {
  const verdicts = await llmAssistedVerdictsOf(ctx, data);
  return stats.map((s) => {
    const v = verdicts.get(s.worker);
    if (!v?.flagged || s.flags.includes('llm-assisted')) return s;
    return { ...s, flags: [...s.flags, 'llm-assisted'], llmEvidence: v.evidence };
  });
}

/**
 * The items' infos (the agents' final labels, the text's length) as read once in this
 * process: the collection round judges LLM-assisted answers every round, and reading every
 * item's text each round would grow with the batch. An entry is keyed by the item and the
 * sha-256 of a HIT page that shows it: the page holds the item's debate and chunk, so a batch
 * deleted and imported again with other texts misses the cache instead of reading stale infos.
 */
const itemInfos = new Map<string, LlmItemInfo>();
const ITEM_INFO_LIMIT = 200_000;

/**
 * A HIT's real items with their cache keys (the item and its page's hash), built once per
 * HIT document rather than for every HIT every round (the round keeps its documents from one
 * round to the next: round-memory.ts). Rebuilt when the document's batch, items or page change.
 */
const pageKeysOf = new WeakMap<HitDoc, { items: HitDoc['items']; batch: string; sha: string; keys: { id: string; key: string }[] }>();

function pageKeys(hit: HitDoc): readonly { id: string; key: string }[] {
  const known = pageKeysOf.get(hit);
  if (known && known.items === hit.items && known.batch === hit.batch && known.sha === hit.questionSha256) return known.keys;
  const keys = hit.items.flatMap((i) => {
    if (i.kind !== 'real') return [];
    const id = itemId(hit.batch, caseKey(i.queryId, i.chunkId));
    return [{ id, key: `${id}\u0000${hit.questionSha256}` }];
  });
  pageKeysOf.set(hit, { items: hit.items, batch: hit.batch, sha: hit.questionSha256, keys });
  return keys;
}

/**
 * Every worker's `llm-assisted` verdict in the batch, with the items' debates and texts loaded.
 * With QRELAY_LLM_RECORD set (a file path), each call writes its inputs and verdicts there, the
 * last call's kept: how bench/quality-matrix.ts keeps a run's last fit to be replayed.
 */
export async function llmAssistedVerdictsOf(
  ctx: PipelineContext,
  data: { readonly hits: readonly HitDoc[]; readonly assignments: readonly AssignmentDoc[] },
): Promise<Map<string, LlmAssistedVerdict>> {
  // each real item with the key of a page that shows it (the same items, in the same order, as plannedItems)
  const keyOf = new Map<string, string>();
  for (const hit of data.hits) for (const { id, key } of pageKeys(hit)) keyOf.set(id, key);
  const missing = [...keyOf].filter(([, key]) => !itemInfos.has(key));
  if (missing.length > 0) {
    const cases = await itemCases(
      ctx,
      missing.map(([_id]) => ({ _id })),
    );
    if (itemInfos.size + missing.length > ITEM_INFO_LIMIT) itemInfos.clear();
    missing.forEach(([id, key], i) => {
      const it = reportItemFromCase(id, cases[i]!);
      itemInfos.set(key, { agentLabels: it.agentLabels ?? {}, ...(it.textLength !== undefined && { textLength: it.textLength }) });
    });
  }
  const infos = new Map([...keyOf].map(([id, key]) => [id, itemInfos.get(key) as LlmItemInfo]));
  const scored = scoreStored(data.hits, data.assignments);
  const adjudicator = await adjudicatorLabelsOf(ctx, data.hits);
  const verdicts = llmAssistedVerdicts(scored, infos, undefined, adjudicator);
  const record = process.env.QRELAY_LLM_RECORD;
  if (record) writeFileSync(record, JSON.stringify({ scored, infos: [...infos], adjudicator: [...adjudicator], verdicts: [...verdicts] }));
  return verdicts;
}

/** The adjudicator's stored labels for the batch's items (`qrelay adjudicate`), by item id; empty when it has not run. */
export async function adjudicatorLabelsOf(ctx: PipelineContext, hits: readonly Pick<HitDoc, 'batch'>[]): Promise<Map<string, Judgment>> {
  const batch = hits[0]?.batch;
  if (batch === undefined) return new Map();
  const { adjudications } = llmModels(ctx.models.batches.db);
  const docs = await adjudications.find({ batch, label: { $ne: null } }, { label: 1 }).lean();
  return new Map(docs.flatMap((d) => (d.label === null ? [] : [[d._id, d.label] as const])));
}
