import { bonusFeeCents, formatUsd } from '@qrelay/marketplace/fees';
import type { HitDoc } from '../db/models/index.js';
import { NotFound, UserError } from '../errors.js';
import { committedCents, priceTerms } from '../pipeline/budget.js';
import { touchBatch } from '../pipeline/revision.js';
import { requireBatch } from '../batches/index.js';
import { recordAudit } from './audit.js';
import { bonusRequestToken, bonusTotalCents, bonusWithinBudget, parseBonusAmount } from './bonus-terms.js';
import type { ActionContext } from './context.js';
import type { BonusDoc } from './models.js';
import { checkText, checkWorkerId } from './scope.js';
import { requireAssignment } from './worker-actions.js';

/**
 * `qrelay worker bonus`: SendBonus for one of a batch's assignments, paid once however
 * often it is asked for. The bonus is recorded under its UniqueRequestToken (`sending`)
 * before the call and marked `paid` after; a repeat finds it paid and calls nothing; a
 * repeat after a crash between the two sends the same token again, which the platform
 * pays at most once. Counted in the batch's spend (with its platform's fee) and held to its budget.
 */

export interface BonusInput {
  workerId: string;
  assignmentId: string;
  /** USD, "0.50". */
  amount: string;
  reason: string;
  token?: string;
  batch?: string;
}

export interface BonusResult {
  batch: string;
  workerId: string;
  assignmentId: string;
  amountCents: number;
  feeCents: number;
  uniqueRequestToken: string;
  /** false: this very bonus had been paid already (by an earlier or a concurrent request); it was paid once. */
  paid: boolean;
  alreadyPaid: boolean;
}

/** Bonuses of a batch (amount + fee), in cents. */
export async function batchBonusCents(ctx: ActionContext, batch: string): Promise<number> {
  const rows = await ctx.models.bonuses.find({ batch }).lean<BonusDoc[]>();
  return rows.reduce((sum, b) => sum + b.amountCents + b.feeCents, 0);
}

export async function payBonus(ctx: ActionContext, input: BonusInput): Promise<BonusResult> {
  const workerId = checkWorkerId(input.workerId);
  const amountCents = parseBonusAmount(input.amount);
  const reason = checkText(input.reason, '--reason');
  const assignment = await requireAssignment(ctx, input.assignmentId, '--assignment');
  if (input.batch !== undefined && assignment.batch !== input.batch) {
    throw new NotFound(`--assignment: ${assignment._id} belongs to batch ${assignment.batch}, not ${input.batch}`);
  }
  if (assignment.workerId !== workerId)
    throw new NotFound(`--assignment: ${assignment._id} was done by worker ${assignment.workerId}, not ${workerId}`);
  const batch = await requireBatch(ctx.pipeline, assignment.batch);
  if (!batch.settings) throw new UserError(`batch ${batch._id} is not published`);
  // the fee is the batch's platform's (MTurk's 20%, Prolific's third)
  const terms = priceTerms(batch.settings);
  const token = bonusRequestToken({
    ...(input.token !== undefined && { token: input.token }),
    workerId,
    assignmentId: assignment._id,
    amountCents,
    reason,
  });
  const base = {
    batch: batch._id,
    workerId,
    assignmentId: assignment._id,
    amountCents,
    feeCents: bonusFeeCents(amountCents, terms.platform),
    uniqueRequestToken: token,
  };

  let record = await ctx.models.bonuses.findById(token).lean<BonusDoc>();
  if (record && (record.workerId !== workerId || record.assignmentId !== assignment._id || record.amountCents !== amountCents)) {
    throw new UserError(
      `--token: ${JSON.stringify(input.token)} was used for another bonus ($${formatUsd(record.amountCents)} to ${record.workerId} for ${record.assignmentId}): choose another token`,
    );
  }
  if (record?.state === 'paid') {
    await recordAudit(ctx, {
      batch: batch._id,
      action: 'bonus',
      subject: workerId,
      reason,
      details: { assignmentId: assignment._id, amountCents, token },
      outcome: 'already-done',
    });
    return { ...base, paid: false, alreadyPaid: true };
  }
  if (!record) {
    const hits = await ctx.pipeline.models.hits.find({ batch: batch._id }, { state: 1, maxAssignments: 1 }).lean<HitDoc[]>();
    const committed = committedCents(hits, terms);
    const bonuses = await batchBonusCents(ctx, batch._id);
    if (!bonusWithinBudget(batch.settings.budgetCents, committed, bonuses, amountCents, terms.platform)) {
      throw new UserError(
        `a bonus of $${formatUsd(amountCents)} ($${formatUsd(bonusTotalCents(amountCents, terms.platform))} with the fee) would take batch ${batch._id} over its budget of $${formatUsd(batch.settings.budgetCents ?? 0)} ` +
          `($${formatUsd(committed)} committed to HITs, $${formatUsd(bonuses)} in bonuses)`,
      );
    }
    const doc: BonusDoc = {
      _id: token,
      batch: batch._id,
      workerId,
      assignmentId: assignment._id,
      amountCents,
      feeCents: base.feeCents,
      reason,
      state: 'sending',
      who: ctx.who,
      recordedAt: ctx.pipeline.now(),
      paidAt: null,
    };
    try {
      await ctx.models.bonuses.create(doc);
    } catch (err) {
      // a concurrent run recorded it first: continue with its record (the token pays once)
      if ((err as { code?: number }).code !== 11000) throw err;
    }
    record = doc;
  }
  await ctx.pipeline.backend(batch.settings.target).sendBonus({
    workerId,
    assignmentId: assignment._id,
    amount: formatUsd(amountCents),
    reason: record.reason,
    uniqueRequestToken: token,
  });
  // requests for the same bonus at once all reach here (the token pays once on the
  // platform); the one whose update turns `sending` into `paid` reports the payment and
  // audits it, the others answer that it was paid already
  const marked = await ctx.models.bonuses.updateOne(
    { _id: token, state: 'sending' },
    { $set: { state: 'paid', paidAt: ctx.pipeline.now() } },
  );
  if (marked.modifiedCount === 0) return { ...base, paid: false, alreadyPaid: true };
  // the batch's spend in its status and report snapshots (src/api/answers.ts) includes bonuses
  await touchBatch(ctx.pipeline, batch._id);
  await recordAudit(ctx, {
    batch: batch._id,
    action: 'bonus',
    subject: workerId,
    reason,
    details: { assignmentId: assignment._id, amountCents, feeCents: base.feeCents, token },
    outcome: 'done',
  });
  return { ...base, paid: true, alreadyPaid: false };
}
