import { UserError } from '../errors.js';

/**
 * The one crowd contract: what qrelay's pipeline needs from a paid crowd platform. Each
 * platform lives in a folder beside this file (mturk/ today) and is chosen by the target a
 * batch names (registry.ts); the pipeline imports only this file, the registry, and the
 * platform-neutral helpers here (call-error.ts, request-tokens.ts). README.md says how to
 * add a platform.
 *
 * The operations every platform offers: post work (a work type, then tasks of it), read a
 * task and its submissions, approve or reject a submission, add places to a task, close or
 * delete it, pay a bonus (idempotent with a request token), block or allow a worker, message
 * workers, and the account's balance. The names are MTurk's (a HIT is a task, an assignment
 * a submission, a HIT type a work type), because MTurk was the first platform and the
 * pipeline's records carry them. What some platforms lack is a capability, an optional
 * member checked at run time with requireCapability: MTurk's qualification types
 * (`qualifications`), Prolific's participant groups (`participantGroups`), pushed events
 * (`eventNotifications`).
 *
 * Every method retries throttling, service faults and network errors itself, is safe to
 * repeat (the pipeline calls them again after a crash) and throws CrowdCallError
 * (call-error.ts) when it gives up.
 */

export type QualificationComparator =
  | 'LessThan'
  | 'LessThanOrEqualTo'
  | 'GreaterThan'
  | 'GreaterThanOrEqualTo'
  | 'EqualTo'
  | 'NotEqualTo'
  | 'Exists'
  | 'DoesNotExist'
  | 'In'
  | 'NotIn';

export interface QualificationRequirementSpec {
  qualificationTypeId: string;
  comparator: QualificationComparator;
  integerValues?: number[];
  localeValues?: { country: string; subdivision?: string }[];
  actionsGuarded?: 'Accept' | 'PreviewAndAccept' | 'DiscoverPreviewAndAccept';
}

export interface HitTypeSpec {
  title: string;
  description: string;
  keywords: string;
  /** USD string as MTurk takes it, e.g. "0.90". */
  reward: string;
  assignmentDurationSeconds: number;
  autoApprovalDelaySeconds: number;
  qualificationRequirements: QualificationRequirementSpec[];
  /** The time a task is expected to take (Prolific's estimated completion time). */
  estimatedSeconds?: number;
  /** Eligibility for a platform without qualification types: Prolific's filters. */
  filters?: { filter_id: string; selected_values?: string[]; selected_range?: { lower?: number; upper?: number } }[];
}

export interface HitSpec {
  hitTypeId: string;
  question: string;
  maxAssignments: number;
  lifetimeSeconds: number;
  requesterAnnotation?: string;
  /** Recorded by the caller before the call; repeating it returns the same HIT. */
  uniqueRequestToken: string;
  /** The batch's HIT: a platform linking to pages qrelay hosts (Prolific) points the task at its page (src/crowd/hosted.ts). */
  task?: { batch: string; index: number };
}

export type HitStatus = 'Assignable' | 'Unassignable' | 'Reviewable' | 'Reviewing' | 'Disposed';
export type AssignmentStatus = 'Submitted' | 'Approved' | 'Rejected';

export interface CrowdHit {
  hitId: string;
  hitTypeId: string;
  status: HitStatus;
  maxAssignments: number;
  creationTime?: Date;
  expiration?: Date;
  available: number;
  pending: number;
  completed: number;
  requesterAnnotation?: string;
}

export interface CrowdAssignment {
  assignmentId: string;
  workerId: string;
  hitId: string;
  status: AssignmentStatus;
  acceptTime?: Date;
  submitTime?: Date;
  approvalTime?: Date;
  rejectionTime?: Date;
  /** QuestionFormAnswers XML, as MTurk returns it. */
  answer: string;
}

export interface QualificationTypeSpec {
  name: string;
  description: string;
  keywords?: string;
  /** QuestionForm XML; with answerKey and testDurationSeconds for an auto-scored test. */
  test?: string;
  answerKey?: string;
  testDurationSeconds?: number;
  retryDelaySeconds?: number;
  autoGranted?: boolean;
  autoGrantedValue?: number;
}

/** The platform-neutral part of a target: what the pipeline may read of where its work goes. */
export interface CrowdTarget {
  /** `local`, `sandbox`, `production`, or the URL itself. */
  name: string;
  kind: 'local' | 'sandbox' | 'production' | 'url';
  /** The platform's API address. */
  endpoint: string;
  /** Real money moves here: publishing needs --yes and a budget. */
  realMoney: boolean;
}

/**
 * MTurk's qualification types: a requester's own worker attributes with integer scores,
 * granted by qrelay or by a test, that a work type's eligibility can require.
 */
export interface QualificationCapability {
  /** The id of the caller's qualification type with exactly this name, creating it if missing. */
  ensureQualificationType(spec: QualificationTypeSpec): Promise<{ id: string; created: boolean }>;
  /** The id of the caller's qualification type with exactly this name, if any. */
  findQualificationTypeId(name: string): Promise<string | undefined>;
  /** Gives the worker the type with this score, without a notification. */
  setQualificationScore(qualificationTypeId: string, workerId: string, value: number): Promise<void>;
  /** Takes the type away from the worker. */
  revokeQualification(qualificationTypeId: string, workerId: string, reason: string): Promise<void>;
  /** worker -> score of every worker holding the type (granted only). */
  qualificationScores(qualificationTypeId: string): Promise<Map<string, number>>;
}

/**
 * Prolific's participant groups: named sets of workers that a study's eligibility can
 * allow or block. No platform offers it yet; the Prolific platform will.
 */
export interface ParticipantGroupCapability {
  /** The id of the caller's group with exactly this name, creating it if missing. */
  ensureGroup(name: string, description: string): Promise<{ id: string; created: boolean }>;
  /** Adds workers (members already in it are ignored). */
  addMembers(groupId: string, workerIds: readonly string[]): Promise<void>;
  /** Removes workers (non-members are ignored). */
  removeMembers(groupId: string, workerIds: readonly string[]): Promise<void>;
  members(groupId: string): Promise<string[]>;
}

/**
 * Pushed events: the platform POSTs what happens to a work type's tasks (a submission, a
 * return, an expiry) to a URL of the caller's (MTurk's notifications; Prolific's webhooks
 * are the like), so that a round reads only the tasks named since the last one.
 */
export interface EventNotificationCapability {
  /** Sends these events (by the platform's names) of the work type's tasks to `destination`. */
  subscribe(hitTypeId: string, destination: string, events: readonly string[]): Promise<void>;
  /** Stops sending the work type's events. */
  unsubscribe(hitTypeId: string): Promise<void>;
}

/** What a platform may lack; each is an optional member of CrowdPlatform of the same name. */
export interface CrowdCapabilities {
  qualifications: QualificationCapability;
  participantGroups: ParticipantGroupCapability;
  eventNotifications: EventNotificationCapability;
}

const CAPABILITY_NAMES: Record<keyof CrowdCapabilities, string> = {
  qualifications: 'qualification types',
  participantGroups: 'participant groups',
  eventNotifications: 'event notifications',
};

export interface CrowdPlatform extends Partial<Readonly<CrowdCapabilities>> {
  /** Which platform this is (`mturk`), for messages. */
  readonly platform: string;
  readonly target: CrowdTarget;

  // money
  accountBalanceCents(): Promise<number>;
  /** Available balance and the part the platform holds for work already posted (MTurk holds; the bundled marketplace does not). */
  accountBalance(): Promise<{ availableCents: number; onHoldCents: number }>;

  // post work: a work type (reward, durations, eligibility), then tasks of that type
  /** The work type's id; `qualificationRequirements` is its eligibility. */
  createHitType(spec: HitTypeSpec): Promise<string>;
  /** Posts the task, or finds the one this request token already posted. */
  createHit(spec: HitSpec): Promise<{ hitId: string; reused: boolean }>;
  /** Raises the task's places to `targetMax`; repeating it once the task has that many is a no-op. */
  extendAssignments(hitId: string, targetMax: number, uniqueRequestToken: string): Promise<void>;
  /** Closes the task to new workers; submissions already started may still come in. */
  expireHit(hitId: string): Promise<void>;
  deleteHit(hitId: string): Promise<void>;

  // read tasks and their submissions
  getHit(hitId: string): Promise<CrowdHit>;
  /** Every task of the caller, in the platform's order. */
  listHits(): AsyncIterable<CrowdHit>;
  listReviewableHitIds(hitTypeId?: string): AsyncIterable<string>;
  listAssignments(hitId: string, statuses?: AssignmentStatus[]): Promise<CrowdAssignment[]>;

  // review
  /** `overrideRejection`: approve a submission rejected earlier (MTurk allows it within 30 days). */
  approveAssignment(assignmentId: string, feedback?: string, overrideRejection?: boolean): Promise<'approved' | 'already-approved'>;
  rejectAssignment(assignmentId: string, feedback: string): Promise<'rejected' | 'already-rejected'>;

  // bonuses: the request token makes a repeated call pay once
  sendBonus(spec: { workerId: string; assignmentId: string; amount: string; reason: string; uniqueRequestToken: string }): Promise<void>;
  /** The bonuses paid for a submission. */
  listBonusPayments(assignmentId: string): Promise<BonusPayment[]>;

  // block or allow a worker
  /** The worker can no longer take this requester's work (repeating it updates the reason). */
  blockWorker(workerId: string, reason: string): Promise<void>;
  /** Allows the worker again; succeeds also when the worker is not blocked. */
  unblockWorker(workerId: string, reason?: string): Promise<void>;
  /** Every blocked worker of the requester. */
  listWorkerBlocks(): Promise<WorkerBlock[]>;

  // messages
  /** Returns the workers it could not reach. */
  notifyWorkers(workerIds: readonly string[], subject: string, text: string): Promise<NotifyFailure[]>;

  /** Releases the platform's connections (a short-lived platform's owner calls it when done). */
  close(): void;
}

/**
 * The platform's capability, or a UserError naming what needs it and the platform that
 * lacks it (a preset or action asking for qualification types on a platform without them).
 */
export function requireCapability<K extends keyof CrowdCapabilities>(
  platform: CrowdPlatform,
  capability: K,
  purpose: string,
): CrowdCapabilities[K] {
  const found = platform[capability];
  if (found) return found as CrowdCapabilities[K];
  throw new UserError(
    `${purpose} needs ${CAPABILITY_NAMES[capability]}, which ${platform.platform} (target ${platform.target.name}) does not have`,
  );
}

export interface WorkerBlock {
  workerId: string;
  reason: string;
}

export interface NotifyFailure {
  workerId: string;
  code: string;
  message: string;
}

export interface BonusPayment {
  workerId: string;
  assignmentId: string;
  /** USD string, "0.50". */
  amount: string;
  reason: string;
  grantTime?: Date;
}
