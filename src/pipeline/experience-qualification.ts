import { requireCapability, type CrowdPlatform, type QualificationRequirementSpec } from '../crowd/platform.js';
import type { AssignmentDoc, BatchDoc, BatchSettings } from '../db/models/index.js';
import { UserError } from '../errors.js';
import type { HitAudience } from '../hits/index.js';
import type { PipelineContext } from './context.js';
import { ensureTargetQualification } from './target-qualification.js';

/**
 * The `qrelay-experience` qualification of adaptive attention checks (hits/adaptive-checks.ts,
 * docs/adaptive-checks.md): a custom type per target that qrelay grants a worker in the
 * collection round after their `starterHits`-th submitted HIT of a batch (value: the most
 * HITs they submitted in one batch of that target, raised as they do more). Starter HITs
 * require it NOT to exist (`DoesNotExist`: only workers qrelay has not seen yet), regular
 * HITs require it to exist (`Exists`). MTurk has no "or" between requirements and any
 * comparator other than `DoesNotExist` fails a worker who lacks the qualification, so
 * "fewer than K HITs" is told by not holding it, and the value itself is information only.
 * A worker who earned it in one batch goes straight to the regular HITs of the next.
 */
export const EXPERIENCE_QUALIFICATION = 'qrelay-experience';

const DESCRIPTION =
  'Held by workers who have done their first HITs of this requester (the HITs for new workers carry more attention checks); value: HITs done in one batch.';

/** The platform's qualification types, which adaptive attention checks need. */
export const experienceQualifications = (backend: CrowdPlatform) =>
  requireCapability(backend, 'qualifications', `adaptive attention checks (${EXPERIENCE_QUALIFICATION})`);

export async function ensureExperienceQualification(ctx: PipelineContext, target: string, backend: CrowdPlatform): Promise<string> {
  return ensureTargetQualification(ctx, target, experienceQualifications(backend), {
    name: EXPERIENCE_QUALIFICATION,
    description: DESCRIPTION,
    keywords: 'qrelay, experience',
  });
}

/** The requirement a HIT of this kind carries: starters for workers without the qualification, regular HITs for those with it. */
export const experienceRequirement = (qualificationTypeId: string, audience: HitAudience): QualificationRequirementSpec => ({
  qualificationTypeId,
  comparator: audience === 'starter' ? 'DoesNotExist' : 'Exists',
});

/**
 * Adds the experience requirement of `audience` to a HIT type's requirements when the batch
 * has adaptive checks (no change otherwise). MTurk takes at most 10 requirements.
 */
export async function withExperienceRequirement(
  ctx: PipelineContext,
  settings: BatchSettings,
  backend: CrowdPlatform,
  requirements: QualificationRequirementSpec[],
  audience: HitAudience,
): Promise<QualificationRequirementSpec[]> {
  if (!settings.layout.adaptive) return requirements;
  if (requirements.length >= 10) {
    throw new UserError(
      `preset ${settings.presetName}: adaptive attention checks need a qualification requirement of their own (${EXPERIENCE_QUALIFICATION}), and the HIT type already has MTurk's maximum of 10: drop one, or publish without adaptive checks`,
    );
  }
  const id = await ensureExperienceQualification(ctx, settings.target, backend);
  return [...requirements, experienceRequirement(id, audience)];
}

/**
 * Workers to grant (or raise) `qrelay-experience` now (pure): those with at least
 * `starterHits` submitted HITs in the batch whose held value is lower or missing.
 */
export function experienceGrants(
  submitted: ReadonlyMap<string, number>,
  held: ReadonlyMap<string, number>,
  starterHits: number,
): Array<{ workerId: string; value: number }> {
  return [...submitted]
    .filter(([worker, n]) => n >= starterHits && (held.get(worker) ?? -1) < n)
    .map(([workerId, value]) => ({ workerId, value }))
    .sort((a, b) => (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : 0));
}

/** HITs each worker submitted in the batch (one assignment per HIT and worker). */
export function submittedHits(assignments: readonly Pick<AssignmentDoc, 'workerId'>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const a of assignments) out.set(a.workerId, (out.get(a.workerId) ?? 0) + 1);
  return out;
}

/**
 * A collection round's step: grants `qrelay-experience` to the batch's workers who did their
 * starter HITs (repeat-safe: granting the same value again changes nothing). Returns how
 * many workers it granted or raised.
 */
export async function updateExperience(
  ctx: PipelineContext,
  doc: BatchDoc,
  // the round's copy of the batch's assignments (collect.ts reads the batch once a round)
  assignments: readonly Pick<AssignmentDoc, 'workerId'>[],
): Promise<number> {
  const settings = doc.settings as BatchSettings;
  const adaptive = settings.layout.adaptive;
  if (!adaptive) return 0;
  const backend = ctx.backend(settings.target);
  const id = await ensureExperienceQualification(ctx, settings.target, backend);
  const qualifications = experienceQualifications(backend);
  const grants = experienceGrants(submittedHits(assignments), await qualifications.qualificationScores(id), adaptive.starterHits);
  for (const g of grants) await qualifications.setQualificationScore(id, g.workerId, g.value);
  if (grants.length > 0)
    ctx.progress(
      `batch ${doc._id}: ${grants.length} worker${grants.length === 1 ? '' : 's'} did their ${adaptive.starterHits} starter HITs: regular HITs from now on (${EXPERIENCE_QUALIFICATION})`,
    );
  return grants.length;
}
