import { NEUTRAL_REPUTATION } from '../quality/reputation.js';

/** The dry run's line for a preset's `minReputation` (none without one): the requirement qrelay adds to every HIT. */
export function reputationRequirementText(minReputation: number | undefined): string[] {
  if (minReputation === undefined) return [];
  return [
    `  qrelay-reputation GreaterThanOrEqualTo ${minReputation} (cross-batch reputation 0-100; a worker without one is granted ${NEUTRAL_REPUTATION} on asking)`,
  ];
}
