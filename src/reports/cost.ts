import { byCodeUnits } from '../aggregate/votes.js';
import { assignmentFeeCents, bonusFeeCents, feePercent, type FeeTerms } from '@qrelay/marketplace/fees';
import { divideRoundHalfUp } from './arithmetic.js';
import type { BatchFacts } from './prepare.js';
import type { CostReport, FeeTermsRow, QuoteComparison, QuoteDifference } from './types.js';

interface HitLedger {
  /** Reward + fee of one approved assignment of this HIT. */
  readonly unit: number;
  readonly reward: number;
  readonly fee: number;
  readonly offered: number;
  readonly approved: number;
  readonly discarded: number;
  readonly rejected: number;
  readonly pending: number;
  readonly checkOverhead: number;
}

/**
 * What the batch cost, exactly, in cents, by its platform's fee rules (@qrelay/marketplace/fees: MTurk's or Prolific's)
 * at each HIT's own terms: approved assignments pay reward + fee (discarded ones too),
 * rejected ones nothing, pending ones nothing yet; each bonus pays its amount + the platform's fee.
 */
export function costReport(facts: BatchFacts, labels: number): CostReport {
  const byHit = new Map<string, { approved: number; discarded: number; rejected: number; pending: number }>();
  for (const { input: a } of facts.assignments) {
    const counts = byHit.get(a.hitId) ?? { approved: 0, discarded: 0, rejected: 0, pending: 0 };
    if (a.status === 'approved') counts.approved++;
    if (a.discarded) counts.discarded++;
    if (a.status === 'rejected') counts.rejected++;
    if (a.status === 'submitted') counts.pending++;
    byHit.set(a.hitId, counts);
  }

  const ledgers = [...facts.hits.values()]
    .sort((x, y) => byCodeUnits(x.hitId, y.hitId))
    .map((hit): HitLedger => {
      const terms: FeeTerms = { maxAssignments: hit.maxAssignments, masters: hit.masters, platform: facts.input.platform };
      const fee = assignmentFeeCents(hit.rewardCents, terms);
      const unit = hit.rewardCents + fee;
      const counts = byHit.get(hit.hitId) ?? { approved: 0, discarded: 0, rejected: 0, pending: 0 };
      const items = hit.items.length + hit.checks.length;
      return {
        unit,
        reward: hit.rewardCents,
        fee,
        offered: hit.maxAssignments,
        ...counts,
        checkOverhead: divideRoundHalfUp(counts.approved * unit * hit.checks.length, items),
      };
    });
  const sum = (pick: (h: HitLedger) => number) => ledgers.reduce((total, h) => total + pick(h), 0);

  const rewards = sum((h) => h.approved * h.reward);
  const feesOnRewards = sum((h) => h.approved * h.fee);
  const bonuses = facts.input.bonuses.reduce((total, b) => total + b.amountCents, 0);
  const feesOnBonuses = facts.input.bonuses.reduce((total, b) => total + bonusFeeCents(b.amountCents, facts.input.platform), 0);
  const total = rewards + bonuses + feesOnRewards + feesOnBonuses;
  const checkOverhead = sum((h) => h.checkOverhead);
  const holesFound = facts.input.holesFound;
  const perLabel = labels > 0 ? divideRoundHalfUp(total, labels) : null;
  const discardedWork = { assignments: sum((h) => h.discarded), cents: sum((h) => h.discarded * h.unit) };

  let quote: QuoteComparison | null = null;
  if (facts.input.quote) {
    const quoted = facts.input.quote;
    const submitted = (h: HitLedger) => h.approved + h.rejected + h.pending;
    const differences: QuoteDifference[] = [
      {
        reason: 'extra-assignments',
        count: sum((h) => h.offered) - quoted.assignments,
        cents: sum((h) => h.offered * h.unit) - quoted.total,
      },
      { reason: 'not-submitted', count: -sum((h) => h.offered - submitted(h)), cents: -sum((h) => (h.offered - submitted(h)) * h.unit) },
      { reason: 'pending-review', count: -sum((h) => h.pending), cents: -sum((h) => h.pending * h.unit) },
      { reason: 'rejected', count: -sum((h) => h.rejected), cents: -sum((h) => h.rejected * h.unit) },
      { reason: 'bonuses', count: facts.input.bonuses.length, cents: bonuses + feesOnBonuses },
    ];
    quote = {
      quoted,
      actual: total,
      difference: total - quoted.total,
      differences,
      discardedWork,
      checkOverhead: { quoted: quoted.checkOverhead, actual: checkOverhead },
      perLabel: { quoted: quoted.perLabel, actual: perLabel },
    };
  }

  return {
    currency: 'USD',
    unit: 'cents',
    rewards,
    fees: feesOnRewards + feesOnBonuses,
    feesOnRewards,
    bonuses,
    feesOnBonuses,
    total,
    perLabel,
    holesFound,
    perHole: holesFound ? divideRoundHalfUp(total, holesFound) : null,
    paidAssignments: sum((h) => h.approved),
    rejectedAssignments: sum((h) => h.rejected),
    discardedWork,
    pendingReview: {
      assignments: sum((h) => h.pending),
      rewards: sum((h) => h.pending * h.reward),
      fees: sum((h) => h.pending * h.fee),
      total: sum((h) => h.pending * h.unit),
    },
    checkOverhead,
    checkOverheadShare: total > 0 ? checkOverhead / total : null,
    feeTerms: feeTermsRows(facts),
    quote,
  };
}

function feeTermsRows(facts: BatchFacts): FeeTermsRow[] {
  const groups = new Map<string, FeeTermsRow>();
  for (const hit of facts.hits.values()) {
    const key = JSON.stringify([hit.rewardCents, hit.maxAssignments, hit.masters]);
    const known = groups.get(key);
    if (known) {
      groups.set(key, { ...known, hits: known.hits + 1 });
      continue;
    }
    const terms: FeeTerms = { maxAssignments: hit.maxAssignments, masters: hit.masters, platform: facts.input.platform };
    groups.set(key, {
      rewardCents: hit.rewardCents,
      maxAssignments: hit.maxAssignments,
      masters: hit.masters,
      feePercent: feePercent(terms),
      feePerAssignmentCents: assignmentFeeCents(hit.rewardCents, terms),
      hits: 1,
    });
  }
  return [...groups.values()].sort(
    (x, y) => x.rewardCents - y.rewardCents || x.maxAssignments - y.maxAssignments || Number(x.masters) - Number(y.masters),
  );
}
