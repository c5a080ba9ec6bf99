import { z } from 'zod';
import { ConsensusLabel, DebateTurn, EscalatedCase, GoldItem, Judgment, Stance } from '../domain/cases.js';
import { normalizeJudgment, normalizeStance } from './labels.js';

/**
 * Input schemas: the canonical schemas of domain/cases.ts, widened only where input
 * files legitimately differ (label spellings, numeric ids, a single answer as a string).
 * Their output is exactly the canonical type.
 */

const integerToString = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v);
const numberToString = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v);
const oneToList = (v: unknown) => (typeof v === 'string' ? [v] : v);
const nullToAbsent = (v: unknown) => (v === null ? undefined : v);

export const judgmentInput = z.preprocess(normalizeJudgment, Judgment);
/** An optional label; `null` counts as absent (common in exports). */
export const optionalJudgmentInput = z.preprocess((v) => normalizeJudgment(nullToAbsent(v)), Judgment.optional());
export const stanceInput = z.preprocess(normalizeStance, Stance);
/** Ids may be strings or whole numbers (BRIDGE's `q_id`); they become strings. */
export const idInput = z.preprocess(integerToString, EscalatedCase.shape.query_id);
/** A list of strings; a lone string is a list of one, numbers become strings. */
const textListInput = z.preprocess(oneToList, z.array(z.preprocess(numberToString, z.string())));
export const answersInput = textListInput.default([]);
export const referencesInput = textListInput.default([]);

export const DebateTurnInput = DebateTurn.extend({
  stance: stanceInput,
  label: judgmentInput,
  references: referencesInput,
});

export const EscalatedCaseInput = EscalatedCase.extend({
  query_id: idInput,
  chunk_id: idInput,
  answers: answersInput,
  debate: z.array(DebateTurnInput).min(1),
  hidden_label: optionalJudgmentInput,
});

export const ConsensusLabelInput = ConsensusLabel.extend({
  query_id: idInput,
  chunk_id: idInput,
  label: judgmentInput,
});

export const GoldItemInput = GoldItem.extend({
  query_id: idInput,
  chunk_id: idInput,
  answers: answersInput,
  label: judgmentInput,
  debate: z.array(DebateTurnInput).min(1).optional(),
});

/** One agent's turn in a BRIDGE round. */
export const BridgeTurnInput = z.object({
  stance: stanceInput,
  label: judgmentInput,
  reasoning: DebateTurn.shape.reasoning,
  references: referencesInput,
});

/** `round_N` of a BRIDGE row: the two agents of DREAM. */
export const BridgeRoundInput = z.object({
  agent_a: BridgeTurnInput,
  agent_b: BridgeTurnInput,
});

/**
 * The fields of a BRIDGE row besides its rounds. `query` and `chunk` are optional here
 * because a consensus row needs neither; an escalation without them is refused later.
 */
export const BridgeRowInput = z.object({
  query_id: idInput,
  chunk_id: idInput,
  query: EscalatedCase.shape.query.optional(),
  chunk: EscalatedCase.shape.chunk.optional(),
  answers: answersInput,
  dataset: EscalatedCase.shape.dataset,
  consensus: z.boolean(),
  final_label: optionalJudgmentInput,
  hidden_label: optionalJudgmentInput,
});
export type BridgeRow = z.output<typeof BridgeRowInput>;
export type BridgeRound = z.output<typeof BridgeRoundInput>;

// The input schemas must produce the canonical types exactly.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<z.output<typeof EscalatedCaseInput>, EscalatedCase>,
  Same<z.output<typeof ConsensusLabelInput>, ConsensusLabel>,
  Same<z.output<typeof GoldItemInput>, GoldItem>,
] = [true, true, true];
void sameShapes;
