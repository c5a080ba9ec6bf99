import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EscalatedCase, Judgment } from '../domain/cases.js';
import { errorMessage } from '../errors.js';
import { batchReport } from '../export/batch-report.js';
import { loadHumanLabels } from '../export/load-labels.js';
import type { PipelineContext } from '../pipeline/context.js';
import { BatchStateError } from '../pipeline/errors.js';
import { requireBatch } from '../batches/index.js';
import { crowdVsAdjudicator, type CrowdVsAdjudicator } from './agreement.js';
import { parseAgentAnswer, reaskMessage } from './answer.js';
import { Journal, type Usage } from './journal.js';
import { LlmClient, RequestFailed, type LlmSettings } from './llm.js';
import { checkOutFile } from './out-paths.js';
import { jsonl, writeFileAtomic } from './outputs.js';
import { costLine, llmCost, type LlmCost, type PriceTable } from './prices.js';
import { loadTemplates, templateHash, type ChatMessage } from './prompts.js';
import { adjudicatorMessages } from './protocol.js';
import { MAX_REASKS } from './run.js';
import { ADJUDICATOR_SOURCE, llmModels, type AdjudicationDoc } from './store.js';

/**
 * `qrelay adjudicate BATCH --model M`: the LLM adjudicator (Table 29) on the batch's
 * escalated cases. Each label is stored (collection `adjudications`) as soon as it is
 * answered, with provenance `llm-adjudicator` (model, prompt hash, time), beside the
 * crowd's labels and never over them; a second run with the same model and prompt asks
 * only the cases still without a label. The result compares crowd and adjudicator.
 */

export interface AdjudicateOptions {
  batch: string;
  model: string;
  out?: string;
  fillUnresolved?: boolean;
  temperature?: number;
  concurrency?: number;
  promptsDir?: string;
  /** Directory of the request journal (`<data dir>/llm`). */
  journalDir: string;
  llm: Pick<LlmSettings, 'apiKey' | 'baseURL' | 'maxRetries' | 'backoffMs' | 'timeoutMs'>;
  prices: PriceTable;
  onProgress?: (done: number, total: number) => void;
}

export interface AdjudicationResult {
  batch: string;
  model: string;
  promptHash: string;
  /** Escalated cases of the batch. */
  cases: number;
  /** Asked in this run (the others had a label from this model and prompt already). */
  asked: number;
  yes: number;
  no: number;
  /** Cases whose answers could not be read, or whose requests kept failing. */
  failed: number;
  /** Unresolved crowd items given the adjudicator's label (--fill-unresolved). */
  filled: number;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  agreement: CrowdVsAdjudicator;
  /** "LLM debate $X, crowd $Y, adjudicator $Z": null where unknown. */
  cost: { debate: LlmCost | null; crowdCents: number | null; adjudicator: LlmCost };
  out: string | null;
}

async function escalatedCases(ctx: PipelineContext, batch: string): Promise<{ id: string; record: EscalatedCase }[]> {
  const items = await ctx.models.items.find({ batch }).lean();
  items.sort((a, b) => a.order[0]! - b.order[0]! || a.order[1]! - b.order[1]!);
  const cases = [];
  for (const item of items) {
    const text = await ctx.models.itemTexts.findById(item._id).lean();
    if (text) cases.push({ id: item._id, record: text.record });
  }
  return cases;
}

/** The crowd's final label per item (null: unresolved), and the unresolved items; none before publishing. */
async function crowdLabels(ctx: PipelineContext, batch: string) {
  try {
    const human = await loadHumanLabels(ctx, batch);
    const labels = new Map<string, Judgment>();
    for (const l of human.labels) if (l.source === 'human-majority') labels.set(`${l.query_id}\u0000${l.chunk_id}`, l.label);
    return { labels, unresolved: human.unresolved.map((u) => u.item) };
  } catch (err) {
    if (err instanceof BatchStateError) return { labels: new Map<string, Judgment>(), unresolved: [] };
    throw err;
  }
}

async function crowdCostCents(ctx: PipelineContext, batch: string): Promise<number | null> {
  try {
    return (await batchReport(ctx, batch)).report.cost.total;
  } catch {
    // Not published yet, or no report possible: the crowd's cost is unknown, not 0.
    return null;
  }
}

export async function adjudicateBatch(ctx: PipelineContext, opts: AdjudicateOptions): Promise<AdjudicationResult> {
  // before any token is spent: the labels are written at the end
  if (opts.out) checkOutFile(opts.out);
  await requireBatch(ctx, opts.batch);
  const templates = await loadTemplates(opts.promptsDir);
  const promptHash = templateHash(templates.adjudicator);
  const temperature = opts.temperature ?? 0;
  const { adjudications, llmRuns } = llmModels(ctx.models.batches.db);
  const cases = await escalatedCases(ctx, opts.batch);
  const existing = new Map((await adjudications.find({ batch: opts.batch }).lean()).map((a) => [a._id, a]));
  const todo = cases.filter(({ id }) => {
    const a = existing.get(id);
    return !(a && a.label !== null && a.provenance.model === opts.model && a.provenance.promptHash === promptHash);
  });

  mkdirSync(opts.journalDir, { recursive: true });
  const journal = new Journal(join(opts.journalDir, `adjudicator-${encodeURIComponent(opts.batch)}.jsonl`));
  const llm = new LlmClient({ ...opts.llm, concurrency: opts.concurrency ?? 8, modelOption: () => '--model' }, journal);
  try {
    let done = 0;
    opts.onProgress?.(0, todo.length);
    const ask = async ({ id, record }: { id: string; record: EscalatedCase }) => {
      let conversation: ChatMessage[] = adjudicatorMessages(templates, record);
      const tokens = { promptTokens: 0, completionTokens: 0 };
      let doc: Omit<AdjudicationDoc, 'provenance' | 'filledUnresolved' | 'tokens'> = {
        _id: id,
        batch: opts.batch,
        queryId: record.query_id,
        chunkId: record.chunk_id,
        label: null,
        reasoning: '',
        references: [],
        reason: null,
      };
      try {
        for (let attempt = 0; attempt <= MAX_REASKS; attempt += 1) {
          const { content, usage } = await llm.answer({ model: opts.model, temperature, messages: conversation });
          tokens.promptTokens += usage.promptTokens;
          tokens.completionTokens += usage.completionTokens;
          const parsed = parseAgentAnswer(content);
          if (parsed.ok) {
            doc = {
              ...doc,
              label: parsed.value.label,
              reasoning: parsed.value.reasoning,
              references: parsed.value.references,
              reason: null,
            };
            break;
          }
          doc = { ...doc, reason: `${attempt + 1} answers could not be read; the last: ${parsed.reason}` };
          conversation = [...conversation, { role: 'assistant', content }, { role: 'user', content: reaskMessage(parsed.reason) }];
        }
      } catch (err) {
        if (!(err instanceof RequestFailed)) throw err;
        doc = { ...doc, reason: errorMessage(err) };
      }
      const provenance = { source: ADJUDICATOR_SOURCE, model: opts.model, promptHash, at: ctx.now() };
      await adjudications.replaceOne({ _id: id }, { ...doc, provenance, filledUnresolved: false, tokens }, { upsert: true });
      done += 1;
      opts.onProgress?.(done, todo.length);
    };
    // A pool of `concurrency` workers over the cases; a fatal error stops the others' next case.
    let next = 0;
    let fatal: { error: unknown } | undefined;
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 8, todo.length)) }, async () => {
        while (!fatal && next < todo.length) {
          const c = todo[next]!;
          next += 1;
          try {
            await ask(c);
          } catch (error) {
            fatal ??= { error };
          }
        }
      }),
    );
    if (fatal) throw fatal.error;
  } finally {
    journal.close();
  }

  const stored = new Map((await adjudications.find({ batch: opts.batch }).lean()).map((a) => [a._id, a]));
  const crowd = await crowdLabels(ctx, opts.batch);
  let filled = 0;
  if (opts.fillUnresolved) {
    for (const item of crowd.unresolved) {
      const a = stored.get(item);
      if (!a || a.label === null || a.filledUnresolved) continue;
      await adjudications.updateOne({ _id: item }, { $set: { filledUnresolved: true } });
      filled += 1;
    }
  }
  const current = cases.map(({ id, record }) => ({ id, record, adjudication: stored.get(id) }));
  const agreement = crowdVsAdjudicator(
    current.map(({ record, adjudication }) => ({
      crowd: crowd.labels.get(`${record.query_id}\u0000${record.chunk_id}`) ?? null,
      adjudicator: adjudication?.label ?? null,
      truth: record.hidden_label,
    })),
  );
  // The adjudicator's cost: the tokens of every stored label of the batch, whichever run asked it.
  const tokensByModel: Record<string, Usage> = {};
  for (const a of stored.values()) {
    const t = (tokensByModel[a.provenance.model] ??= { promptTokens: 0, completionTokens: 0 });
    t.promptTokens += a.tokens?.promptTokens ?? 0;
    t.completionTokens += a.tokens?.completionTokens ?? 0;
  }
  const adjudicatorCost = llmCost(tokensByModel, opts.prices);
  const debateRun = await llmRuns.findById(`${opts.batch}|debate`).lean();
  const labelled = current.filter((c) => c.adjudication?.label);
  const result: AdjudicationResult = {
    batch: opts.batch,
    model: opts.model,
    promptHash,
    cases: cases.length,
    asked: todo.length,
    yes: labelled.filter((c) => c.adjudication!.label === 'yes').length,
    no: labelled.filter((c) => c.adjudication!.label === 'no').length,
    failed: current.filter((c) => !c.adjudication || c.adjudication.label === null).length,
    filled,
    requests: llm.stats.requests,
    promptTokens: llm.stats.promptTokens,
    completionTokens: llm.stats.completionTokens,
    agreement,
    cost: { debate: debateRun?.cost ?? null, crowdCents: await crowdCostCents(ctx, opts.batch), adjudicator: adjudicatorCost },
    out: opts.out ?? null,
  };
  const total = Object.values(tokensByModel).reduce(
    (n, t) => ({ promptTokens: n.promptTokens + t.promptTokens, completionTokens: n.completionTokens + t.completionTokens }),
    { promptTokens: 0, completionTokens: 0 },
  );
  await llmRuns.replaceOne(
    { _id: `${opts.batch}|adjudicator` },
    {
      _id: `${opts.batch}|adjudicator`,
      batch: opts.batch,
      step: 'adjudicator',
      models: Object.keys(tokensByModel),
      promptHash,
      requests: llm.stats.requests,
      ...total,
      tokensByModel,
      cost: adjudicatorCost,
      counts: { cases: result.cases, yes: result.yes, no: result.no, failed: result.failed, filled: result.filled },
      at: ctx.now(),
    },
    { upsert: true },
  );
  if (opts.out) {
    const lines = current
      .filter((c) => c.adjudication)
      .map(({ record, adjudication: a }) => ({
        query_id: record.query_id,
        chunk_id: record.chunk_id,
        dataset: record.dataset,
        label: a!.label,
        reasoning: a!.reasoning,
        references: a!.references,
        ...(a!.reason !== null && { reason: a!.reason }),
        crowd_label: crowd.labels.get(`${record.query_id}\u0000${record.chunk_id}`) ?? null,
        filled_unresolved: a!.filledUnresolved || (opts.fillUnresolved === true && crowd.unresolved.includes(a!._id) && a!.label !== null),
        provenance: { ...a!.provenance, at: new Date(a!.provenance.at).toISOString() },
      }));
    writeFileAtomic(opts.out, jsonl(lines));
  }
  return result;
}

const pct = (v: number | null) => (v === null ? 'n/a' : `${(v * 100).toFixed(1)}%`);

/** The report for a person. */
export function renderAdjudication(r: AdjudicationResult): string {
  const a = r.agreement;
  const c = a.confusion;
  const kappa = a.kappa === null ? 'n/a' : a.kappa.toFixed(3);
  return [
    `adjudicator ${r.model} on batch ${r.batch}: ${r.cases} escalated cases, ${r.asked} asked now; yes ${r.yes}, no ${r.no}, failed ${r.failed}${r.filled ? `; ${r.filled} unresolved crowd items filled` : ''}`,
    `crowd vs adjudicator: ${a.pairs} items labelled by both, agreement ${pct(a.observedAgreement)}, Cohen's κ ${kappa}`,
    '                 adjudicator yes   adjudicator no',
    `  crowd yes      ${String(c.yes.yes).padStart(15)}   ${String(c.yes.no).padStart(14)}`,
    `  crowd no       ${String(c.no.yes).padStart(15)}   ${String(c.no.no).padStart(14)}`,
    `accuracy against the true labels: crowd ${pct(a.accuracy.crowd.value)} (${a.accuracy.crowd.correct}/${a.accuracy.crowd.total}), adjudicator ${pct(a.accuracy.adjudicator.value)} (${a.accuracy.adjudicator.correct}/${a.accuracy.adjudicator.total})`,
    `cost: ${costLine(r.cost)}`,
    `tokens: ${r.promptTokens} prompt + ${r.completionTokens} completion in ${r.requests} requests${r.out ? `; wrote ${r.out}` : ''}`,
  ].join('\n');
}
