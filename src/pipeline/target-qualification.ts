import type { CrowdBackend } from '../crowd/backend.js';
import type { PipelineContext } from './context.js';

/**
 * A custom qualification type qrelay keeps on a target (`qrelay-blocked`, `qrelay-experience`):
 * created there if missing, its id remembered in target_qualifications like the tests' types.
 */
export async function ensureTargetQualification(
  ctx: PipelineContext,
  target: string,
  backend: CrowdBackend,
  spec: { name: string; description: string; keywords: string },
): Promise<string> {
  const key = `${target}|${spec.name}`;
  const known = await ctx.models.targetQualifications.findById(key).lean();
  if (known) return known.qualificationTypeId;
  const { id, created } = await backend.ensureQualificationType(spec);
  await ctx.models.targetQualifications.updateOne(
    { _id: key },
    { $set: { target, name: spec.name, qualificationTypeId: id, recordedAt: ctx.now() } },
    { upsert: true },
  );
  ctx.progress(`qualification ${spec.name} on ${target}: ${id}${created ? ' (created)' : ''}`);
  return id;
}
