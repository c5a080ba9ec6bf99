import { z } from 'zod';

/**
 * The canonical shapes of what qrelay works on (docs/input-formats.md). Parsers
 * in ingest/ turn every accepted input format into these; everything downstream (HIT
 * planning, aggregation, qrels) reads only these.
 */

/** The crowd question's answer: does the chunk hold enough evidence for an answer? */
export const Judgment = z.enum(['yes', 'no']);
export type Judgment = z.infer<typeof Judgment>;

/** The stance an agent was told to start from. */
export const Stance = z.enum(['relevant', 'irrelevant']);
export type Stance = z.infer<typeof Stance>;

export const DebateTurn = z.object({
  round: z.number().int().min(1),
  agent: z.string().min(1),
  stance: Stance,
  label: Judgment,
  reasoning: z.string(),
  /** Sentences the agent quoted from the chunk as evidence. */
  references: z.array(z.string()).default([]),
});
export type DebateTurn = z.infer<typeof DebateTurn>;

const id = z.string().trim().min(1).max(512);

export const EscalatedCase = z.object({
  query_id: id,
  query: z.string().min(1),
  answers: z.array(z.string()).default([]),
  chunk_id: id,
  chunk: z.string().min(1),
  dataset: z.string().min(1).default('default'),
  debate: z.array(DebateTurn).min(1),
  /**
   * The true label, when known (simulations, gold studies). Never shown to workers;
   * only the simulated population and accuracy reports read it.
   */
  hidden_label: Judgment.optional(),
});
export type EscalatedCase = z.infer<typeof EscalatedCase>;

/** A (query, chunk) pair the debating agents agreed on. */
export const ConsensusLabel = z.object({
  query_id: id,
  chunk_id: id,
  label: Judgment,
  dataset: z.string().min(1).default('default'),
});
export type ConsensusLabel = z.infer<typeof ConsensusLabel>;

/** A case with an objectively known answer, usable as an attention check. */
export const GoldItem = z.object({
  query_id: id,
  query: z.string().min(1),
  answers: z.array(z.string()).default([]),
  chunk_id: id,
  chunk: z.string().min(1),
  label: Judgment,
  dataset: z.string().min(1).default('default'),
  /**
   * Optional: the item's own debate (e.g. `qrelay debate` run on the gold items, or DREAM's
   * debate record for the chunk). A check then shows it as it is; without it, the check's
   * debate is adapted from the batch's real debates (src/hits/check-debate-donor.ts).
   */
  debate: z.array(DebateTurn).min(1).optional(),
});
export type GoldItem = z.infer<typeof GoldItem>;

export const judgmentToRelevance = (j: Judgment): 0 | 1 => (j === 'yes' ? 1 : 0);
export const relevanceToJudgment = (rel: number): Judgment => (rel > 0 ? 'yes' : 'no');

/** The final label of each agent: its label in the last round it spoke. */
export function finalLabels(debate: readonly DebateTurn[]): Map<string, Judgment> {
  const last = new Map<string, DebateTurn>();
  for (const turn of debate) {
    const prev = last.get(turn.agent);
    if (!prev || turn.round >= prev.round) last.set(turn.agent, turn);
  }
  return new Map([...last].map(([agent, turn]) => [agent, turn.label]));
}
