import { formatUsd } from '@qrelay/marketplace/fees';
import type { BatchSettings } from '../db/models/index.js';
import type { HitPlan } from '../hits/index.js';
import { describeRequirements } from '../hits/requirements-text.js';

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
  const pad = (label: string) => `  ${label.padEnd(20)}`;
  const lines = [
    `batch ${batch}: ${q.realItems} items in ${q.hits} HITs (${shape}), seed ${JSON.stringify(settings.seed)}${plan.splits ? `, ${plan.splits} split${plan.splits === 1 ? '' : 's'} to fit 65,535 bytes` : ''}`,
    `attention checks: ${plan.checks.total} (${plan.checks.yes} known relevant, ${plan.checks.no} known not relevant), ${(plan.checks.share * 100).toFixed(1)}% of items, at random positions, each with a debate written for its own query and chunk`,
    `preset ${settings.presetName}: ${settings.preset.title}`,
    `target ${settings.target}: ${q.assignmentsPerHit} assignments per HIT, reward ${usd(q.rewardPerAssignment)}, debate ${settings.layout.hideDebate ? 'hidden' : 'shown'}, failed checks: ${settings.review.onFailure}`,
    ...describeRequirements(settings.preset, settings.target),
    'cost quote (every assignment approved; MTurk fees):',
    `${pad('rewards')}${usd(q.rewards).padStart(12)}  (${q.assignments} assignments x ${usd(q.rewardPerAssignment)})`,
    `${pad('fees')}${usd(q.fees).padStart(12)}  (${q.feePercent}% of each reward, at least $0.01: ${usd(q.feePerAssignment)} per assignment${q.masters ? '; Masters +5%' : ''})`,
    `${pad('total')}${usd(q.total).padStart(12)}`,
    `${pad('attention checks')}${usd(q.checkOverhead).padStart(12)}  (part of the total: ${(q.checkShare * 100).toFixed(1)}% of the items shown)`,
    `${pad('per real label')}${usd(q.perLabel).padStart(12)}  (each item judged by ${q.assignmentsPerHit} workers)`,
  ];
  if (settings.budgetCents !== null)
    lines.push(
      `${pad('budget')}${usd(settings.budgetCents).padStart(12)}${q.total > settings.budgetCents ? '  (the quote exceeds it)' : ''}`,
    );
  return `${lines.join('\n')}\n`;
}
