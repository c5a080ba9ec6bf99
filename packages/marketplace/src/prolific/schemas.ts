import { z } from 'zod';
import { badRequest, type ProlificError } from './errors.js';
import { MAXIMUM_ALLOWED_TIME, REJECTION_CATEGORIES, REJECTION_MESSAGE_MIN } from './domain.js';

/**
 * The request bodies of the researcher API (zod), named and shaped as Prolific documents
 * them. Fields Prolific has and this marketplace does not run are ignored, as unknown
 * fields are by Prolific's API.
 */

const id = z.string().trim().min(1).max(64);
const places = z.number().int().min(1).max(100_000);

const completionAction = z.discriminatedUnion('action', [
  z.object({ action: z.literal('AUTOMATICALLY_APPROVE') }),
  z.object({ action: z.literal('MANUALLY_REVIEW') }),
  z.object({ action: z.literal('ADD_TO_PARTICIPANT_GROUP'), participant_group: id }),
  z.object({ action: z.literal('REMOVE_FROM_PARTICIPANT_GROUP'), participant_group: id }),
  z.object({ action: z.literal('REQUEST_RETURN'), return_reason: z.string().min(1) }),
]);

const completionCode = z.object({
  code: z.string().trim().min(1).max(64).nullable(),
  code_type: z.string().trim().min(1).max(64),
  actions: z.array(completionAction),
  actor: z.enum(['participant', 'researcher']).default('participant'),
});

const filter = z.union([
  z.object({
    filter_id: z.string().min(1),
    selected_values: z.array(z.string()).min(1),
    weightings: z.record(z.string(), z.number()).optional(),
  }),
  z.object({
    filter_id: z.string().min(1),
    selected_range: z
      .object({ lower: z.number().nullable().optional(), upper: z.number().nullable().optional() })
      .refine((r) => r.lower != null || r.upper != null, 'give lower, upper or both'),
  }),
]);

const studyFields = {
  name: z.string().trim().min(1).max(120),
  internal_name: z.string().max(255).nullable().optional(),
  description: z.string().min(1).max(20_000),
  external_study_url: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/\S+$/.test(v), 'Enter a valid URL (http or https).'),
  prolific_id_option: z.enum(['question', 'url_parameters', 'not_required']),
  completion_codes: z
    .array(completionCode)
    .min(1)
    .refine((codes) => new Set(codes.map((c) => c.code)).size === codes.length, 'Each code must be unique within a study.'),
  total_available_places: places,
  estimated_completion_time: z.number().min(1).max(MAXIMUM_ALLOWED_TIME),
  maximum_allowed_time: z.number().int().min(1).max(MAXIMUM_ALLOWED_TIME).optional(),
  reward: z.number().int().min(0),
  device_compatibility: z.array(z.enum(['desktop', 'tablet', 'mobile'])).optional(),
  peripheral_requirements: z.array(z.enum(['audio', 'camera', 'download', 'microphone'])).optional(),
  filters: z.array(filter).nullable().optional(),
  project: id.optional(),
  submissions_config: z
    .object({
      max_submissions_per_participant: z.number().int().min(-1).nullable().optional(),
      max_concurrent_submissions: z.number().int().min(-1).nullable().optional(),
    })
    .optional(),
  study_labels: z.array(z.string()).optional(),
  metadata: z.string().nullable().optional(),
};

/** Legacy clients send `completion_code` (+ `completion_option`) instead of `completion_codes`. */
function withLegacyCode(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const b = body as Record<string, unknown>;
  if (b.completion_codes !== undefined || typeof b.completion_code !== 'string') return b;
  return { ...b, completion_codes: [{ code: b.completion_code, code_type: 'COMPLETED', actions: [{ action: 'MANUALLY_REVIEW' }] }] };
}

export const createStudySchema = z.preprocess(withLegacyCode, z.object(studyFields));
export type CreateStudy = z.infer<typeof createStudySchema>;

export const updateStudySchema = z.preprocess(withLegacyCode, z.object(studyFields).partial());
export type UpdateStudy = z.infer<typeof updateStudySchema>;

export const studyTransitionSchema = z.object({ action: z.string().min(1) });

export const submissionTransitionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('APPROVE') }),
  z.object({
    action: z.literal('REJECT'),
    message: z
      .string({ message: 'This field is required when rejecting a submission.' })
      .refine((m) => m.trim().length >= REJECTION_MESSAGE_MIN, `The message must be at least ${REJECTION_MESSAGE_MIN} characters long.`),
    rejection_category: z.enum(REJECTION_CATEGORIES, {
      message: `This field is required when rejecting a submission: one of ${REJECTION_CATEGORIES.join(', ')}.`,
    }),
  }),
  z.object({ action: z.literal('COMPLETE'), completion_code: z.string().min(1) }),
]);
export type SubmissionTransition = z.infer<typeof submissionTransitionSchema>;

export const bulkApproveSchema = z.union([
  z.object({ submission_ids: z.array(id).min(1) }),
  z.object({ study_id: id, participant_ids: z.array(id).min(1) }),
]);

export const createGroupSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    workspace_id: id.optional(),
    organisation_id: id.optional(),
    /** Deprecated by Prolific for workspace_id; still taken. */
    project_id: id.optional(),
    description: z.string().max(2000).nullable().optional(),
    participant_ids: z.array(id).optional(),
  })
  .refine((g) => g.workspace_id !== undefined || g.organisation_id !== undefined || g.project_id !== undefined, {
    message: 'Either a workspace_id or an organisation_id must be specified.',
    path: ['workspace_id'],
  });

export const updateGroupSchema = z.object({
  name: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(2000).nullable().optional(),
  participant_ids: z.array(id).optional(),
});

export const participantIdsSchema = z.object({ participant_ids: z.array(id) });

export const bonusSchema = z.object({ study_id: id, csv_bonuses: z.string().min(1).max(1_000_000) });

export const messageSchema = z.object({ recipient_id: id, study_id: id, body: z.string().trim().min(1).max(20_000) });
export const bulkMessageSchema = z.object({ ids: z.array(id).min(1), study_id: id, body: z.string().trim().min(1).max(20_000) });
export const groupMessageSchema = z.object({
  participant_group_id: id,
  body: z.string().trim().min(1).max(20_000),
  study_id: id.optional(),
});

/** Parses `body` with `schema`, or a 400 whose detail names each bad field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  throw validationError(parsed.error);
}

function validationError(error: z.ZodError): ProlificError {
  const detail: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : 'non_field_errors';
    const message = issue.code === 'invalid_type' && issue.input === undefined ? 'This field is required.' : issue.message;
    (detail[field] ??= []).push(message);
  }
  return badRequest(detail);
}
