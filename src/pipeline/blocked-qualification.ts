import { requireCapability, type CrowdPlatform, type QualificationRequirementSpec } from '../crowd/platform.js';
import type { PipelineContext } from './context.js';
import { ensureTargetQualification } from './target-qualification.js';

/**
 * The soft block (MTurk's recommended practice instead of CreateWorkerBlock, which counts
 * against the worker's account): a custom qualification type per target, `qrelay-blocked`,
 * which every HIT type qrelay creates requires NOT to exist (`DoesNotExist`). Giving it to a
 * worker keeps them from every HIT of qrelay's batches on that target; revoking it lets
 * them back. The type id is remembered like the tests' types (target_qualifications).
 *
 * `qrelay-blocked` is qrelay's name for it (records, `--qualification`). Workers see the
 * type itself, on the HITs' requirements and among their qualifications: there its name
 * and description are neutral (BLOCKED_TYPE_NAME), and as a type HITs require NOT to exist it
 * is never open to requests (the marketplace's rule; a worker could only shut themselves out).
 */
export const BLOCKED_QUALIFICATION = 'qrelay-blocked';

/** The type's name on the platform, as workers see it. */
export const BLOCKED_TYPE_NAME = 'qrelay-hit-routing';

const DESCRIPTION =
  "Set by this requester to decide which of its HITs are offered to which workers. It is managed by the requester and can't be requested.";

/** The platform's qualification types, which the soft block needs. */
export const blockedQualifications = (backend: CrowdPlatform) =>
  requireCapability(backend, 'qualifications', `the soft block (${BLOCKED_QUALIFICATION})`);

export async function ensureBlockedQualification(ctx: PipelineContext, target: string, backend: CrowdPlatform): Promise<string> {
  return ensureTargetQualification(
    ctx,
    target,
    blockedQualifications(backend),
    { name: BLOCKED_TYPE_NAME, description: DESCRIPTION, keywords: 'qrelay' },
    BLOCKED_QUALIFICATION,
  );
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
