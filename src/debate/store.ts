import { Schema, type Connection, type Model } from 'mongoose';
import { collections } from '../db/collections.js';
import type { Judgment } from '../domain/cases.js';
import type { Usage } from './journal.js';
import type { LlmCost } from './prices.js';
import { required } from '../db/fields.js';

/**
 * What the LLM steps leave in the database, beside the crowd's data (never in it):
 *
 * | collection | `_id` | holds |
 * |---|---|---|
 * | llm_runs | `${batch}\|debate`, `${batch}\|adjudicator` | models, prompt hash, requests, tokens per model, cost, when |
 * | adjudications | `${batch}\|${caseKey}` | the LLM adjudicator's label with its reasoning and provenance `llm-adjudicator` (model, prompt hash, time) |
 */

export type LlmStep = 'debate' | 'adjudicator';

export interface LlmRunDoc {
  _id: string;
  batch: string;
  step: LlmStep;
  models: string[];
  promptHash: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  tokensByModel: Record<string, Usage>;
  cost: LlmCost;
  /** The step's own counts (debate: candidates, consensus, escalated...; adjudicator: cases, yes, no, failed). */
  counts: Record<string, number>;
  at: Date;
}

const llmRunSchema = new Schema<LlmRunDoc>(
  {
    ...required(String, '_id', 'batch', 'step'),
    models: { type: [String], default: [] },
    promptHash: { type: String, required: true },
    ...required(Number, 'requests', 'promptTokens', 'completionTokens'),
    tokensByModel: { type: Schema.Types.Mixed, required: true },
    cost: { type: Schema.Types.Mixed, required: true },
    counts: { type: Schema.Types.Mixed, required: true },
    at: { type: Date, required: true },
  },
  { collection: collections.llmRuns, versionKey: false, minimize: false },
);

export const ADJUDICATOR_SOURCE = 'llm-adjudicator';

export interface AdjudicationDoc {
  /** The item id, `${batch}|${caseKey}` (as labels). */
  _id: string;
  batch: string;
  queryId: string;
  chunkId: string;
  /** null: the adjudicator's answer could not be read (reason says why). */
  label: Judgment | null;
  reasoning: string;
  references: string[];
  reason: string | null;
  provenance: { source: typeof ADJUDICATOR_SOURCE; model: string; promptHash: string; at: Date };
  /** Set when --fill-unresolved used this label for an item the crowd left unresolved. */
  filledUnresolved: boolean;
  /** Tokens of the requests that produced this label (re-asks included). */
  tokens: Usage;
}

const adjudicationSchema = new Schema<AdjudicationDoc>(
  {
    ...required(String, '_id', 'batch', 'queryId', 'chunkId'),
    label: { type: String, default: null },
    reasoning: { type: String, default: '' },
    references: { type: [String], default: [] },
    reason: { type: String, default: null },
    provenance: { type: Schema.Types.Mixed, required: true },
    filledUnresolved: { type: Boolean, default: false },
    tokens: { type: Schema.Types.Mixed, required: true },
  },
  { collection: collections.adjudications, versionKey: false, minimize: false },
);

export interface LlmModels {
  llmRuns: Model<LlmRunDoc>;
  adjudications: Model<AdjudicationDoc>;
}

export function llmModels(connection: Connection): LlmModels {
  return {
    llmRuns: (connection.models.LlmRun as Model<LlmRunDoc> | undefined) ?? connection.model<LlmRunDoc>('LlmRun', llmRunSchema),
    adjudications:
      (connection.models.Adjudication as Model<AdjudicationDoc> | undefined) ??
      connection.model<AdjudicationDoc>('Adjudication', adjudicationSchema),
  };
}

/** The batch's recorded LLM costs (debate, adjudicator), each null when that step has not run for it. */
export async function llmCostsOf(connection: Connection, batch: string): Promise<{ debate: LlmCost | null; adjudicator: LlmCost | null }> {
  const { llmRuns } = llmModels(connection);
  const [debate, adjudicator] = await Promise.all([
    llmRuns.findById(`${batch}|debate`).lean(),
    llmRuns.findById(`${batch}|adjudicator`).lean(),
  ]);
  return { debate: debate?.cost ?? null, adjudicator: adjudicator?.cost ?? null };
}
