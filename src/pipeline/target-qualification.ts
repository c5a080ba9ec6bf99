import type { QualificationCapability, QualificationTypeSpec } from '../crowd/platform.js';
import type { PipelineContext } from './context.js';

/**
 * A custom qualification type of qrelay's own on a target (`qrelay-blocked`, `qrelay-experience`,
 * `qrelay-reputation`): created on first use and its id remembered per target
 * (target_qualifications, like the qualification tests' types). A platform's qualification
 * types are a capability (src/crowd/platform.ts): callers ask for it with requireCapability.
 * `name` is qrelay's name for it (records, `--qualification`), by default the platform's.
 */
export async function ensureTargetQualification(
  ctx: PipelineContext,
  target: string,
  qualifications: QualificationCapability,
  spec: QualificationTypeSpec,
  name: string = spec.name,
): Promise<string> {
  const key = `${target}|${name}`;
  const known = await ctx.models.targetQualifications.findById(key).lean();
  if (known) return known.qualificationTypeId;
  const { id, created } = await qualifications.ensureQualificationType(spec);
  await ctx.models.targetQualifications.updateOne(
    { _id: key },
    { $set: { target, name, qualificationTypeId: id, recordedAt: ctx.now() } },
    { upsert: true },
  );
  ctx.progress(`qualification ${name}${name === spec.name ? '' : ` ("${spec.name}")`} on ${target}: ${id}${created ? ' (created)' : ''}`);
  return id;
}
