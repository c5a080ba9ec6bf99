import { z } from 'zod';
import { ACCESS_ACTIONS, COMPARATORS } from '../domain/types.js';
import type {
  BlockDoc,
  HitDoc,
  HitTypeDoc,
  LedgerDoc,
  MessageDoc,
  QualificationAttemptDoc,
  QualificationRequestDoc,
  QualificationTestDoc,
  QualificationTypeDoc,
  RequestTokenDoc,
  TextDoc,
  WorkerDoc,
  WorkerQualificationDoc,
} from '../store/models.js';

/**
 * A requester's records on a marketplace, as one JSON document: what `GET /admin/records`
 * answers and `POST /admin/records` takes (records/import.ts). Each collection is the
 * stored documents themselves (`_id` included, times as ISO strings), so a record means
 * the same on both sides. Not carried: password hashes (an account is imported without
 * its password), sessions, the clock, the lease, notification deliveries.
 */

export const RECORDS_FORMAT = 'qrelay-marketplace-records/1';

const date = z.coerce.date();
const id = z.string().min(1).max(300);
const locale = z.object({ Country: z.string().regex(/^[A-Z]{2}$/), Subdivision: z.string().min(1).max(3).optional() }).strict();
const requirement = z
  .object({
    QualificationTypeId: id,
    Comparator: z.enum(COMPARATORS),
    IntegerValues: z.array(z.number().int()).optional(),
    LocaleValues: z.array(locale).optional(),
    RequiredToPreview: z.boolean().optional(),
    ActionsGuarded: z.enum(ACCESS_ACTIONS).optional(),
  })
  .strict();
const hitTypeProps = z
  .object({
    title: z.string(),
    description: z.string(),
    keywords: z.string().optional(),
    reward: z.string(),
    rewardCents: z.number().int().min(0),
    assignmentDurationSeconds: z.number().int().min(0),
    autoApprovalDelaySeconds: z.number().int().min(0),
    qualificationRequirements: z.array(requirement),
  })
  .strict();
const assignment = z
  .object({
    id,
    workerId: id,
    status: z.enum(['Accepted', 'Submitted', 'Approved', 'Rejected']),
    acceptTime: date,
    deadline: date,
    submitTime: date.optional(),
    autoApprovalTime: date.optional(),
    approvalTime: date.optional(),
    rejectionTime: date.optional(),
    requesterFeedback: z.string().optional(),
  })
  .strict();
const event = z.object({ key: z.string(), type: z.string(), at: date, hitId: id, hitTypeId: id, assignmentId: id.optional() }).strict();

const hit = z
  .object({
    _id: id,
    typeId: id,
    groupId: id,
    creationTime: date,
    props: hitTypeProps,
    maxAssignments: z.number().int().min(1),
    expiration: date,
    requesterAnnotation: z.string().optional(),
    reviewing: z.boolean(),
    disposed: z.boolean(),
    expiredNoticed: z.boolean(),
    reviewableNoticed: z.boolean(),
    nextSeq: z.number().int().min(0),
    eventSeq: z.number().int().min(0),
    extensionTokens: z.array(z.object({ token: z.string(), at: date }).strict()).optional(),
    assignments: z.array(assignment),
    pendingEvents: z.array(event),
    version: z.number().int().optional(),
    uniqueRequestToken: z.string().optional(),
  })
  .strict();

const text = z.object({ _id: id, xml: z.string(), hitId: id.optional() }).strict();

const hitType = z
  .object({
    _id: id,
    groupId: id,
    props: hitTypeProps,
    createdAt: date,
    notification: z
      .object({ Destination: z.string(), Transport: z.string(), Version: z.string(), EventTypes: z.array(z.string()) })
      .strict()
      .optional(),
    notificationActive: z.boolean(),
  })
  .strict();

const qualificationType = z
  .object({
    _id: id,
    id,
    name: z.string().min(1),
    description: z.string(),
    keywords: z.string().optional(),
    status: z.enum(['Active', 'Inactive']),
    creationTime: date,
    retryDelaySeconds: z.number().int().min(0).optional(),
    testDurationSeconds: z.number().int().min(0).optional(),
    hasTest: z.boolean(),
    hasAnswerKey: z.boolean(),
    autoGranted: z.boolean(),
    autoGrantedValue: z.number().int(),
    deleted: z.boolean(),
    retakePolicy: z
      .object({ retakes: z.number().int().min(0), delaySeconds: z.number().int().min(0) })
      .strict()
      .optional(),
  })
  .strict();

const worker = z
  .object({
    _id: z.string().regex(/^A[A-Z0-9]{1,63}$/, 'an MTurk worker id: A followed by capital letters and digits'),
    displayName: z.string().trim().min(1).max(64),
    profile: z
      .object({
        locale,
        adult: z.boolean(),
        masters: z.boolean(),
        baseline: z.object({ submitted: z.number().int().min(0), approved: z.number().int().min(0) }).strict(),
      })
      .strict(),
    createdAt: date,
  })
  .strict();

export const recordsSchema = z
  .object({
    format: z.literal(RECORDS_FORMAT),
    /** The source marketplace's time when the records were read. */
    exportedAt: date,
    qualificationTypes: z.array(qualificationType).default([]),
    qualificationTests: z.array(z.object({ _id: id, test: z.string(), answerKey: z.string().optional() }).strict()).default([]),
    workers: z.array(worker).default([]),
    workerQualifications: z
      .array(
        z
          .object({
            _id: id,
            typeId: id,
            workerId: id,
            integerValue: z.number().int().optional(),
            localeValue: locale.optional(),
            status: z.enum(['Granted', 'Revoked']),
            grantTime: date,
          })
          .strict(),
      )
      .default([]),
    qualificationRequests: z
      .array(
        z
          .object({
            _id: id,
            typeId: id,
            workerId: id,
            answer: z.string().optional(),
            submitTime: date,
            status: z.enum(['Pending', 'Approved', 'Rejected']),
            reason: z.string().optional(),
            score: z.number().optional(),
          })
          .strict(),
      )
      .default([]),
    qualificationAttempts: z
      .array(
        z
          .object({
            _id: id,
            lastRequestAt: date.optional(),
            retakesUsed: z.number().int().min(0).optional(),
            testStartedAt: date.optional(),
            testDeadline: date.optional(),
          })
          .strict(),
      )
      .default([]),
    blocks: z.array(z.object({ _id: id, reason: z.string(), createdAt: date }).strict()).default([]),
    messages: z.array(z.object({ _id: id, workerId: id, subject: z.string(), text: z.string(), sentAt: date }).strict()).default([]),
    hitTypes: z.array(hitType).default([]),
    hits: z.array(hit).default([]),
    questions: z.array(text).default([]),
    answers: z.array(text).default([]),
    ledger: z
      .array(
        z
          .object({
            _id: id,
            kind: z.enum(['deposit', 'approval', 'bonus']),
            amountCents: z.number().int(),
            rewardCents: z.number().int(),
            feeCents: z.number().int(),
            at: date,
            hitId: id.optional(),
            assignmentId: id.optional(),
            workerId: id.optional(),
            reason: z.string().optional(),
          })
          .strict(),
      )
      .default([]),
    requestTokens: z.array(z.object({ _id: id, target: z.string(), at: date }).strict()).default([]),
  })
  .strict();

/** The records with their times as dates (what the export makes and the import takes). */
export interface RequesterRecords {
  format: typeof RECORDS_FORMAT;
  exportedAt: Date;
  qualificationTypes: QualificationTypeDoc[];
  qualificationTests: QualificationTestDoc[];
  workers: Omit<WorkerDoc, 'passwordHash'>[];
  workerQualifications: WorkerQualificationDoc[];
  qualificationRequests: QualificationRequestDoc[];
  qualificationAttempts: QualificationAttemptDoc[];
  blocks: BlockDoc[];
  messages: MessageDoc[];
  hitTypes: HitTypeDoc[];
  /** Stored HITs have no `id` field: their `_id` is the HITId. */
  hits: Omit<HitDoc, 'id'>[];
  questions: TextDoc[];
  answers: TextDoc[];
  ledger: LedgerDoc[];
  requestTokens: RequestTokenDoc[];
}

/** Parses a records document (JSON: times as strings); a ZodError names the first bad fields. */
export function parseRecords(input: unknown): RequesterRecords {
  // the schema mirrors the stored documents field by field; its enums are the domain's
  return recordsSchema.parse(input) as unknown as RequesterRecords;
}
