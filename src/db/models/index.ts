import type { Connection, Model, Schema } from 'mongoose';
import { assignmentAnswerSchema, assignmentSchema, type AssignmentAnswerDoc, type AssignmentDoc } from './assignments.js';
import { batchSchema, type BatchDoc } from './batches.js';
import { hitIdSchema, hitQuestionSchema, hitSchema, type HitDoc, type HitIdDoc, type HitQuestionDoc } from './hits.js';
import { labelSchema, targetQualificationSchema, type LabelDoc, type TargetQualificationDoc } from './labels.js';
import {
  consensusSchema,
  goldSchema,
  goldTextSchema,
  importSchema,
  itemSchema,
  itemTextSchema,
  type GoldTextDoc,
  type ImportDoc,
  type ItemTextDoc,
  type RecordDoc,
} from './records.js';
import { workerDecisionSchema, type WorkerDecisionDoc } from './worker-decisions.js';

/**
 * The escalation pipeline's data model. Shaped by the dev database (FerretDB): a filter on
 * anything but a lone `_id` reads every document of the collection (`$in` on `_id` too), so
 * every document has a meaningful string `_id`, the collections the pipeline filters by
 * batch hold small documents only, and large texts sit in side collections read by `_id`.
 * Writes are single-document and atomic; statistics are computed in TypeScript.
 *
 * | collection | `_id` | holds |
 * |---|---|---|
 * | batches | batch name | state, publishing settings (preset snapshot, target, seed, layout, review policy, budget), plan summary and quote, HIT type, qualification ids, last aggregate |
 * | imports | `imp-<time>-<random>` | one import run: batch, kind, file, `committing` -> `done`, counts |
 * | items, gold, consensus | `${batch}\|${caseKey}` | small record: ids, dataset, page key, label (gold/consensus) or hidden label (items), sha, imports that wrote it, order |
 * | item_texts, gold_texts | as items / gold | the full EscalatedCase / GoldItem (read by `_id` only) |
 * | hits | `${batch}\|${index}` | planned items (positions, kinds, expected answers of checks), MaxAssignments, request token + attempt (recorded before CreateHIT), HITId, state, extension rounds |
 * | hit_questions | as hits | the HTMLQuestion XML |
 * | hit_ids | HITId | -> our HIT and batch (notifications) |
 * | assignments | AssignmentId | worker, accept/submit times, parsed answers per item with ms, review decision (recorded before the platform call) and state |
 * | assignment_answers | AssignmentId | the raw Answer XML |
 * | labels | item id | label, method, votes, workers, posterior |
 * | target_qualifications | `${target}\|${test}` | the custom qualification type id on a target |
 * | worker_decisions | `${batch}\|${worker}` | a worker stopped in a batch: reason, evidence, decided -> sent |
 *
 * Indexes (migrations/0002) serve MongoDB in production; FerretDB keeps them but still
 * evaluates non-`_id` filters document by document.
 */

export type {
  AssignmentAnswerDoc,
  AssignmentDoc,
  ReviewOutcome,
  ReviewOverride,
  ReviewRecord,
  ReviewState,
  StoredAnswer,
} from './assignments.js';
export type { BatchDoc, BatchPlanSummary, BatchSettings, BatchState, BatchSummary, TieChoice } from './batches.js';
export { BATCH_STATES } from './batches.js';
export type { HitDoc, HitIdDoc, HitQuestionDoc, HitState, PendingExtension, PlatformHitView } from './hits.js';
export { HIT_STATES } from './hits.js';
export type { LabelDoc, TargetQualificationDoc } from './labels.js';
export type { WorkerDecisionDoc } from './worker-decisions.js';
export type { GoldTextDoc, ImportCounts, ImportDoc, ImportState, ItemTextDoc, RecordDoc } from './records.js';

export interface PipelineModels {
  batches: Model<BatchDoc>;
  imports: Model<ImportDoc>;
  items: Model<RecordDoc>;
  itemTexts: Model<ItemTextDoc>;
  gold: Model<RecordDoc>;
  goldTexts: Model<GoldTextDoc>;
  consensus: Model<RecordDoc>;
  hits: Model<HitDoc>;
  hitQuestions: Model<HitQuestionDoc>;
  hitIds: Model<HitIdDoc>;
  assignments: Model<AssignmentDoc>;
  assignmentAnswers: Model<AssignmentAnswerDoc>;
  labels: Model<LabelDoc>;
  targetQualifications: Model<TargetQualificationDoc>;
  workerDecisions: Model<WorkerDecisionDoc>;
}

/** The model `name` on this connection, registered on first use. */
export function model<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}

/** The pipeline's models on this connection (registered once per connection). */
export function pipelineModels(connection: Connection): PipelineModels {
  return {
    batches: model(connection, 'Batch', batchSchema),
    imports: model(connection, 'Import', importSchema),
    items: model(connection, 'Item', itemSchema),
    itemTexts: model(connection, 'ItemText', itemTextSchema),
    gold: model(connection, 'Gold', goldSchema),
    goldTexts: model(connection, 'GoldText', goldTextSchema),
    consensus: model(connection, 'Consensus', consensusSchema),
    hits: model(connection, 'Hit', hitSchema),
    hitQuestions: model(connection, 'HitQuestion', hitQuestionSchema),
    hitIds: model(connection, 'HitId', hitIdSchema),
    assignments: model(connection, 'Assignment', assignmentSchema),
    assignmentAnswers: model(connection, 'AssignmentAnswer', assignmentAnswerSchema),
    labels: model(connection, 'Label', labelSchema),
    targetQualifications: model(connection, 'TargetQualification', targetQualificationSchema),
    workerDecisions: model(connection, 'WorkerDecision', workerDecisionSchema),
  };
}
