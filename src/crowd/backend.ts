import type { ResolvedTarget } from './targets.js';

/**
 * What qrelay needs from a crowd platform. The one implementation speaks the MTurk
 * Requester API through @aws-sdk/client-mturk (crowd/mturk/backend.ts), which serves
 * Amazon's endpoints, the bundled marketplace and any MTurk-compatible URL alike.
 * Every method retries throttling, service faults and network errors itself and is safe
 * to repeat: the pipeline calls them again after a crash.
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
}

export interface HitSpec {
  hitTypeId: string;
  question: string;
  maxAssignments: number;
  lifetimeSeconds: number;
  requesterAnnotation?: string;
  /** Recorded by the caller before the call; repeating it returns the same HIT. */
  uniqueRequestToken: string;
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

export interface CrowdBackend {
  readonly target: ResolvedTarget;
  accountBalanceCents(): Promise<number>;
  /** Available balance and the part the platform holds for HITs already created (MTurk holds; the bundled marketplace does not). */
  accountBalance(): Promise<{ availableCents: number; onHoldCents: number }>;
  /** The id of the caller's qualification type with exactly this name, creating it if missing. */
  ensureQualificationType(spec: QualificationTypeSpec): Promise<{ id: string; created: boolean }>;
  createHitType(spec: HitTypeSpec): Promise<string>;
  /** Creates the HIT, or finds the one this request token already created. */
  createHit(spec: HitSpec): Promise<{ hitId: string; reused: boolean }>;
  getHit(hitId: string): Promise<CrowdHit>;
  /** Every HIT of the caller (ListHITs), newest pages first as the platform returns them. */
  listHits(): AsyncIterable<CrowdHit>;
  listReviewableHitIds(hitTypeId?: string): AsyncIterable<string>;
  listAssignments(hitId: string, statuses?: AssignmentStatus[]): Promise<CrowdAssignment[]>;
  /** `overrideRejection`: approve an assignment rejected earlier (MTurk allows it within 30 days). */
  approveAssignment(assignmentId: string, feedback?: string, overrideRejection?: boolean): Promise<'approved' | 'already-approved'>;
  rejectAssignment(assignmentId: string, feedback: string): Promise<'rejected' | 'already-rejected'>;
  /** Raises MaxAssignments to `targetMax`; repeating it once the HIT has that many is a no-op. */
  extendAssignments(hitId: string, targetMax: number, uniqueRequestToken: string): Promise<void>;
  expireHit(hitId: string): Promise<void>;
  deleteHit(hitId: string): Promise<void>;
  sendBonus(spec: { workerId: string; assignmentId: string; amount: string; reason: string; uniqueRequestToken: string }): Promise<void>;
  /** CreateWorkerBlock: the worker can no longer take this requester's HITs (repeating it updates the reason). */
  blockWorker(workerId: string, reason: string): Promise<void>;
  /** DeleteWorkerBlock: succeeds also when the worker is not blocked. */
  unblockWorker(workerId: string, reason?: string): Promise<void>;
  /** Every blocked worker of the requester (ListWorkerBlocks). */
  listWorkerBlocks(): Promise<WorkerBlock[]>;
  /** NotifyWorkers (in pages of 100 workers); returns the workers it could not reach. */
  notifyWorkers(workerIds: readonly string[], subject: string, text: string): Promise<NotifyFailure[]>;
  /** The id of the caller's qualification type with exactly this name, if any. */
  findQualificationTypeId(name: string): Promise<string | undefined>;
  /** AssociateQualificationWithWorker with this score, without a notification. */
  setQualificationScore(qualificationTypeId: string, workerId: string, value: number): Promise<void>;
  /** DisassociateQualificationFromWorker. */
  revokeQualification(qualificationTypeId: string, workerId: string, reason: string): Promise<void>;
  /** worker -> score of every worker holding the type (ListWorkersWithQualificationType, granted only). */
  qualificationScores(qualificationTypeId: string): Promise<Map<string, number>>;
  /** The bonuses paid for an assignment (ListBonusPayments). */
  listBonusPayments(assignmentId: string): Promise<BonusPayment[]>;
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
