import { finalLabels, type EscalatedCase, type Judgment } from '../domain/cases.js';
import type { OracleEntry } from './decide.js';
import type { PopulationProfile } from './population.js';
import { hashUniform } from './random.js';

/**
 * What the simulated workers of `qrelay simulate` know (pure): per page key, the item's
 * truth and the label an LLM gave it (the first debating agent's final label: an
 * LLM-assisted worker's pasted LLM sides with one of the agents), and which keys are
 * attention checks. Without a true label (no truth file, or an item the file lacks) the
 * truth is drawn from the population's per-item model: relevant with `items.relevantShare`,
 * the same draw for the same seed and item.
 */

export interface OracleCase {
  key: string;
  truth: Judgment | null;
  record: Pick<EscalatedCase, 'debate'>;
}

export interface OracleCheck {
  key: string;
  label: Judgment;
}

export function latentTruth(seed: string, key: string, relevantShare: number): Judgment {
  return hashUniform(seed, 'truth', key) < relevantShare ? 'yes' : 'no';
}

export function simulationOracle(
  cases: readonly OracleCase[],
  checks: readonly OracleCheck[],
  profile: Pick<PopulationProfile, 'seed' | 'items'>,
): Record<string, OracleEntry> {
  const entries: Record<string, OracleEntry> = {};
  for (const c of cases) {
    const model = finalLabels(c.record.debate).get('A') ?? [...finalLabels(c.record.debate).values()][0];
    entries[c.key] = { truth: c.truth ?? latentTruth(profile.seed, c.key, profile.items.relevantShare), ...(model && { model }) };
  }
  for (const g of checks) entries[g.key] = { truth: g.label, check: true };
  return entries;
}
