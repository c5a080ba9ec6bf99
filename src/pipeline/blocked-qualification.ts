import { requireCapability, type CrowdPlatform, type QualificationRequirementSpec } from '../crowd/platform.js';
import type { PipelineContext } from './context.js';
import { ensureTargetQualification } from './target-qualification.js';

/**
 * The soft block (MTurk's recommended practice instead of CreateWorkerBlock, which counts
 * against the worker's account): a custom qualification type per target, `qrelay-blocked`,
 * which every HIT type qrelay creates requires NOT to exist (`DoesNotExist`). Giving it to a
 * worker keeps them from every HIT of qrelay's batches on that target; revoking it lets
 * them back. The type id is remembered like the tests' types (target_qualifications).
 */
export const BLOCKED_QUALIFICATION = 'qrelay-blocked';

const DESCRIPTION =
  'Held by workers whose answers in an earlier batch of this requester did not follow the items; these HITs are not offered to them.';

/** The platform's qualification types, which the soft block needs. */
export const blockedQualifications = (backend: CrowdPlatform) =>
  requireCapability(backend, 'qualifications', `the soft block (${BLOCKED_QUALIFICATION})`);

export async function ensureBlockedQualification(ctx: PipelineContext, target: string, backend: CrowdPlatform): Promise<string> {
  return ensureTargetQualification(ctx, target, blockedQualifications(backend), {
    name: BLOCKED_QUALIFICATION,
    description: DESCRIPTION,
    keywords: 'qrelay, quality control',
  });
}

/** The requirement every HIT type carries: not blocked. */
export const notBlocked = (qualificationTypeId: string): QualificationRequirementSpec => ({
  qualificationTypeId,
  comparator: 'DoesNotExist',
});

/** The workers holding the target's `qrelay-blocked` qualification (ListWorkersWithQualificationType). */
export async function softBlockedWorkers(ctx: PipelineContext, target: string): Promise<Map<string, number>> {
  const known = await ctx.models.targetQualifications.findById(`${target}|${BLOCKED_QUALIFICATION}`).lean();
  if (!known) return new Map();
  return blockedQualifications(ctx.backend(target)).qualificationScores(known.qualificationTypeId);
}
