import { z } from 'zod';
import { CONTROL_CHARACTERS, ENTITY_ID_PATTERN, ENTITY_ID_RULE, WORKER_ID_PATTERN, WORKER_ID_RULE } from '../crowd/ids.js';
import { Judgment } from '../domain/cases.js';
import { BatchName } from '../pipeline/names.js';

/**
 * The input shapes of the requester's actions: the REST routes validate with these and
 * /openapi.json describes them; the CLI's options carry the same fields.
 */

/**
 * Free text that reaches the platform (reasons, messages, notes): MTurk refuses ASCII control
 * characters other than tab and line breaks (ValidationException), so they are refused here,
 * as a 400 naming the field, never a 502 from the platform. The document's pattern says the
 * same as the check after trimming: a character that is not a space (no lookahead: the
 * fuzzers that read the pattern generate from it).
 */
const PLATFORM_TEXT = new RegExp(`^\\s*[^\\s${CONTROL_CHARACTERS}][^${CONTROL_CHARACTERS}]*$`);
const OPTIONAL_PLATFORM_TEXT = new RegExp(`^[^${CONTROL_CHARACTERS}]*$`);
const NO_CONTROL = 'no ASCII control characters but tab and line breaks (MTurk refuses them)';
const text = (max: number) =>
  z.string().trim().min(1).max(max).regex(PLATFORM_TEXT, `expected a text with a visible character and ${NO_CONTROL}`);
const optionalText = (max: number) => z.string().trim().max(max).regex(OPTIONAL_PLATFORM_TEXT, `expected ${NO_CONTROL}`).optional();
const optionalBatch = BatchName.optional().openapi({
  description: 'the batch whose audit log and target apply (default: every batch the worker worked in)',
});

export const WorkerParam = z.object({
  worker: z
    .string()
    .regex(WORKER_ID_PATTERN, WORKER_ID_RULE)
    .openapi({ param: { name: 'worker', in: 'path' }, example: 'A1EXAMPLEWORKER' }),
});
export const AssignmentParam = z.object({
  assignment: z
    .string()
    .regex(ENTITY_ID_PATTERN, ENTITY_ID_RULE)
    .openapi({ param: { name: 'assignment', in: 'path' } }),
});
export const WorkersQuery = z.object({ batch: BatchName });

export const BlockBody = z.object({
  reason: text(1024).openapi({ description: 'recorded; MTurk shows it to the worker' }),
  batch: optionalBatch,
});
export const UnblockBody = z.object({ reason: optionalText(1024), batch: optionalBatch });
/**
 * A USD amount of at least one cent, at most 6 digits and 2 decimals (parseBonusAmount's
 * rule, so that the document says "00" is refused), spelled out without a lookahead.
 */
const BONUS_AMOUNT =
  /^\$?(?:(?:[1-9]\d{0,5}|0[1-9]\d{0,4}|00[1-9]\d{0,3}|000[1-9]\d{0,2}|0000[1-9]\d?|00000[1-9])(?:\.\d{1,2})?|0{1,6}\.(?:0[1-9]|[1-9]\d?))$/;
export const BonusBody = z.object({
  assignmentId: z.string().regex(ENTITY_ID_PATTERN, ENTITY_ID_RULE),
  amount: z
    .string()
    .regex(BONUS_AMOUNT, 'expected a USD amount of at least 0.01 such as 0.50 (at most 6 digits and 2 decimals)')
    .openapi({ description: 'USD, at least 0.01, e.g. "0.50"', example: '0.50' }),
  reason: text(1024),
  token: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .openapi({ description: 'idempotency token; default: derived from worker, assignment, amount and reason' }),
  batch: optionalBatch,
});
export const MessageBody = z.object({
  workerIds: z.array(z.string().regex(WORKER_ID_PATTERN, WORKER_ID_RULE)).min(1).max(1000),
  subject: text(200),
  text: text(4096),
  batch: optionalBatch,
});
export const QualifyBody = z
  .object({
    qualification: text(256).openapi({
      description: "the preset's test name (dream-exam), the type's exact name, or its QualificationTypeId",
    }),
    value: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    revoke: z.boolean().default(false),
    reason: optionalText(1024),
    batch: optionalBatch,
  })
  .refine((b) => b.revoke !== (b.value !== undefined), { message: 'give either value or revoke: true', path: ['value'] })
  // the rule above, in the document: a score, or revoke: true without one
  .openapi({
    oneOf: [
      { required: ['value'], properties: { revoke: { const: false } } },
      { required: ['revoke'], properties: { revoke: { const: true } }, not: { required: ['value'] } },
    ],
  });
export const OverrideBody = z.object({ decision: z.enum(['approve', 'reject']), reason: text(1024) });
export const ManualLabelBody = z.object({ queryId: text(512), chunkId: text(512), label: Judgment, note: text(2000) });
