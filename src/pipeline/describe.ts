import { formatUsd } from '@qrelay/marketplace/fees';
import type { BatchSettings } from '../db/models/index.js';
import { describeAdaptive, describeShortfall, prolificEligibility, type HitPlan } from '../hits/index.js';
import { describeCheckSources } from '../hits/check-sources.js';
import { describeRequirements } from '../hits/requirements-text.js';
import { reputationRequirementText } from './reputation-text.js';
import { feePlatform } from './budget.js';
import { adaptiveCostShare, DREAM_AGREEMENT, FIRST_VOTES, pairwiseDisagreement } from '../quality/index.js';

/** The line on HITs of one long case that hold no check (hits/plan.ts). */
/** Who may take the batch's studies on Prolific: its filters, and the requirements that have none. */
function describeProlificEligibility(preset: BatchSettings['preset']): string[] {
  const { filters, unmapped } = prolificEligibility(preset);
  return [
    `eligibility on Prolific: ${filters.length ? filters.map((f) => f.filter_id).join(', ') : 'every participant'}, less qrelay's block list`,
    ...unmapped.map((line) => `  not on Prolific: ${line}`),
  ];
}

export const describeChecklessHits = (n: number): string =>
  `${n} HIT${n === 1 ? '' : 's'} of one long case hold${n === 1 ? 's' : ''} no attention check (no gold item is short enough to fit beside it in 65,535 bytes): ${n === 1 ? 'its checks' : 'their checks'} went to other HITs`;

/** The plan and its exact quote as `qrelay publish --dry-run` prints them (pure). */
export function describePlan(batch: string, settings: BatchSettings, plan: HitPlan): string {
  const q = plan.quote;
  const sizes = new Map<number, number>();
  for (const h of plan.hits) sizes.set(h.realItems, (sizes.get(h.realItems) ?? 0) + 1);
  const shape = [...sizes]
    .sort((a, b) => b[0] - a[0])
    .map(([items, count]) => `${count} x ${items} item${items === 1 ? '' : 's'}`)
    .join(' + ');
  const usd = (cents: number) => `$${formatUsd(cents)}`;
  const prolific = feePlatform(settings.target) === 'prolific';
  const pad = (label: string) => `  ${label.padEnd(20)}`;
  const lines = [
    `batch ${batch}: ${q.realItems} items in ${q.hits} HITs (${shape}), seed ${JSON.stringify(settings.seed)}${plan.splits ? `, ${plan.splits} split${plan.splits === 1 ? '' : 's'} to fit 65,535 bytes` : ''}`,
    `attention checks: ${plan.checks.total} (${plan.checks.yes} known relevant, ${plan.checks.no} known not relevant), ${(plan.checks.share * 100).toFixed(1)}% of items, at random positions, each with a debate written for its own query and chunk`,
    describeCheckSources(plan.checks),
    ...(plan.checklessHits > 0 ? [describeChecklessHits(plan.checklessHits)] : []),
    // never the same check twice: said when the gold pool cannot give it (hits/check-uniqueness.ts)
    ...[describeShortfall(plan.goldNeed), describeAdaptive(plan)].filter((l): l is string => l !== undefined),
    `preset ${settings.presetName}: ${settings.preset.title}`,
    `target ${settings.target}: ${q.assignmentsPerHit} assignments per HIT, reward ${usd(q.rewardPerAssignment)}, debate ${settings.experiment === 'debate' ? 'shown to half of the workers (experiment: docs/experiment.md)' : settings.layout.hideDebate ? 'hidden' : 'shown'}, failed checks: ${settings.review.onFailure}`,
    ...(prolific ? describeProlificEligibility(settings.preset) : describeRequirements(settings.preset, settings.target)),
    ...reputationRequirementText(settings.preset.minReputation),
    `cost quote (every assignment approved; ${prolific ? "Prolific's" : 'MTurk'} fees):`,
    `${pad('rewards')}${usd(q.rewards).padStart(12)}  (${q.assignments} assignments x ${usd(q.rewardPerAssignment)})`,
    prolific
      ? `${pad('fees')}${usd(q.fees).padStart(12)}  (a third of each reward: ${usd(q.feePerAssignment)} per assignment)`
      : `${pad('fees')}${usd(q.fees).padStart(12)}  (${q.feePercent}% of each reward, at least $0.01: ${usd(q.feePerAssignment)} per assignment${q.masters ? '; Masters +5%' : ''})`,
    `${pad('total')}${usd(q.total).padStart(12)}`,
    `${pad('attention checks')}${usd(q.checkOverhead).padStart(12)}  (part of the total: ${(q.checkShare * 100).toFixed(1)}% of the items shown)`,
    `${pad('per real label')}${usd(q.perLabel).padStart(12)}  (each item judged by ${q.assignmentsPerHit} workers)`,
  ];
  if (settings.redundancy === 'adaptive' && q.assignmentsPerHit > FIRST_VOTES) {
    const d = pairwiseDisagreement(DREAM_AGREEMENT.kappa, DREAM_AGREEMENT.yesShare);
    const first = Math.round((q.total * FIRST_VOTES) / q.assignmentsPerHit);
    lines.push(
      `adaptive redundancy: ${FIRST_VOTES} assignments per HIT first (${usd(first)}); a ${q.assignmentsPerHit === FIRST_VOTES + 1 ? 'third' : 'further'} vote only where an item's first two disagree`,
      `${pad('expected total')}${usd(Math.round(q.total * adaptiveCostShare(d, q.assignmentsPerHit))).padStart(12)}  (${(100 * (1 - adaptiveCostShare(d, q.assignmentsPerHit))).toFixed(0)}% less, if ${(100 * d).toFixed(0)}% of items split as at the DREAM study's κ ${DREAM_AGREEMENT.kappa}; the quote above is the most it can cost)`,
    );
  }
  if (settings.budgetCents !== null)
    lines.push(
      `${pad('budget')}${usd(settings.budgetCents).padStart(12)}${q.total > settings.budgetCents ? '  (the quote exceeds it)' : ''}`,
    );
  return `${lines.join('\n')}\n`;
}
