import {
  ApproveAssignmentCommand,
  UpdateNotificationSettingsCommand,
  AssociateQualificationWithWorkerCommand,
  CreateAdditionalAssignmentsForHITCommand,
  CreateWorkerBlockCommand,
  DeleteWorkerBlockCommand,
  DisassociateQualificationFromWorkerCommand,
  ListBonusPaymentsCommand,
  ListWorkerBlocksCommand,
  ListWorkersWithQualificationTypeCommand,
  NotifyWorkersCommand,
  CreateHITTypeCommand,
  CreateHITWithHITTypeCommand,
  CreateQualificationTypeCommand,
  DeleteHITCommand,
  GetAccountBalanceCommand,
  GetAssignmentCommand,
  GetHITCommand,
  ListAssignmentsForHITCommand,
  ListHITsCommand,
  ListQualificationTypesCommand,
  ListReviewableHITsCommand,
  RejectAssignmentCommand,
  MTurkClient,
  SendBonusCommand,
  UpdateExpirationForHITCommand,
  type Assignment,
  type EventType,
  type HIT,
} from '@aws-sdk/client-mturk';
import type {
  AssignmentStatus,
  BonusPayment,
  NotifyFailure,
  WorkerBlock,
  CrowdAssignment,
  CrowdHit,
  CrowdPlatform,
  EventNotificationCapability,
  HitSpec,
  HitStatus,
  HitTypeSpec,
  QualificationCapability,
  QualificationTypeSpec,
} from '../platform.js';
import type { ResolvedTarget } from '../targets.js';
import { DUPLICATE_REQUEST, HIT_ALREADY_EXISTS, hitIdFromAlreadyExists } from './errors.js';
import { parseUsd } from '@qrelay/marketplace/fees';
import { keepAliveSdkHandler } from '../../keep-alive-agents.js';
import { mturkWorkerId, platformId } from '../ids.js';
import { CrowdCallError, type RetryPolicy } from '../call-error.js';
import { DEFAULT_RETRY_POLICY, withRetries, type RetryHooks } from './retry.js';

export interface MturkBackendOptions {
  retry?: RetryPolicy;
  hooks?: RetryHooks;
  /** Per-request socket timeout. */
  requestTimeoutMs?: number;
}

export function createMturkClient(target: ResolvedTarget, requestTimeoutMs = 30_000): MTurkClient {
  return new MTurkClient({
    endpoint: target.endpoint,
    region: target.region,
    credentials: target.credentials,
    // our own retry loop (retry.ts) is the one policy; see there
    maxAttempts: 1,
    requestHandler: keepAliveSdkHandler({ requestTimeout: requestTimeoutMs, connectionTimeout: Math.min(requestTimeoutMs, 10_000) }),
  });
}

function toHit(h: HIT | undefined, hitId: string): CrowdHit {
  if (!h?.HITId) throw new Error(`GetHIT ${hitId} returned no HIT`);
  return {
    hitId: platformId('GetHIT', 'HITId', h.HITId),
    hitTypeId: h.HITTypeId ?? '',
    status: (h.HITStatus ?? 'Assignable') as HitStatus,
    maxAssignments: h.MaxAssignments ?? 0,
    creationTime: h.CreationTime,
    expiration: h.Expiration,
    available: h.NumberOfAssignmentsAvailable ?? 0,
    pending: h.NumberOfAssignmentsPending ?? 0,
    completed: h.NumberOfAssignmentsCompleted ?? 0,
    requesterAnnotation: h.RequesterAnnotation,
  };
}

function toAssignment(a: Assignment): CrowdAssignment {
  return {
    assignmentId: platformId('ListAssignmentsForHIT', 'AssignmentId', a.AssignmentId),
    workerId: platformId('ListAssignmentsForHIT', 'WorkerId', a.WorkerId),
    hitId: platformId('ListAssignmentsForHIT', 'HITId', a.HITId),
    status: (a.AssignmentStatus ?? 'Submitted') as AssignmentStatus,
    acceptTime: a.AcceptTime,
    submitTime: a.SubmitTime,
    approvalTime: a.ApprovalTime,
    rejectionTime: a.RejectionTime,
    answer: a.Answer ?? '',
  };
}

/**
 * The MTurk platform: the Requester API through @aws-sdk/client-mturk, which serves
 * Amazon's endpoints, the bundled marketplace and any MTurk-compatible URL alike. It has
 * qualification types (its own methods, offered as the `qualifications` capability).
 */
export class MturkBackend implements CrowdPlatform, QualificationCapability {
  readonly platform = 'mturk';
  readonly qualifications: QualificationCapability = this;
  readonly eventNotifications: EventNotificationCapability = {
    subscribe: (hitTypeId, destination, events) => this.updateNotifications(hitTypeId, destination, events),
    unsubscribe: (hitTypeId) => this.updateNotifications(hitTypeId),
  };
  readonly client: MTurkClient;
  private readonly retry: RetryPolicy;
  private readonly hooks: RetryHooks;

  constructor(
    readonly target: ResolvedTarget,
    opts: MturkBackendOptions = {},
  ) {
    this.client = createMturkClient(target, opts.requestTimeoutMs);
    this.retry = opts.retry ?? DEFAULT_RETRY_POLICY;
    this.hooks = opts.hooks ?? {};
  }

  private call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return withRetries(operation, fn, this.retry, this.hooks);
  }

  close(): void {
    this.client.destroy();
  }

  /** UpdateNotificationSettings: the HIT type's events to `destination`, or (without one) none any more. */
  private async updateNotifications(hitTypeId: string, destination?: string, events: readonly string[] = []): Promise<void> {
    await this.call('UpdateNotificationSettings', () =>
      this.client.send(
        new UpdateNotificationSettingsCommand(
          destination === undefined
            ? { HITTypeId: hitTypeId, Active: false }
            : {
                HITTypeId: hitTypeId,
                // the version asked for is MTurk's current one
                Notification: { Destination: destination, Transport: 'SQS', Version: '2014-08-15', EventTypes: events as EventType[] },
                Active: true,
              },
        ),
      ),
    );
  }

  async accountBalance(): Promise<{ availableCents: number; onHoldCents: number }> {
    const res = await this.call('GetAccountBalance', () => this.client.send(new GetAccountBalanceCommand({})));
    return { availableCents: parseUsd(res.AvailableBalance ?? '0'), onHoldCents: parseUsd(res.OnHoldBalance ?? '0') };
  }

  async accountBalanceCents(): Promise<number> {
    const res = await this.call('GetAccountBalance', () => this.client.send(new GetAccountBalanceCommand({})));
    return parseUsd(res.AvailableBalance ?? '0');
  }

  async ensureQualificationType(spec: QualificationTypeSpec): Promise<{ id: string; created: boolean }> {
    const existing = await this.findQualificationType(spec.name);
    if (existing) return { id: existing, created: false };
    try {
      const res = await this.call('CreateQualificationType', () =>
        this.client.send(
          new CreateQualificationTypeCommand({
            Name: spec.name,
            Description: spec.description,
            Keywords: spec.keywords,
            QualificationTypeStatus: 'Active',
            Test: spec.test,
            AnswerKey: spec.answerKey,
            TestDurationInSeconds: spec.testDurationSeconds,
            RetryDelayInSeconds: spec.retryDelaySeconds,
            AutoGranted: spec.autoGranted,
            AutoGrantedValue: spec.autoGranted ? spec.autoGrantedValue : undefined,
          }),
        ),
      );
      const id = res.QualificationType?.QualificationTypeId;
      if (!id) throw new Error('CreateQualificationType returned no id');
      return { id, created: true };
    } catch (err) {
      // a name is unique per requester: a concurrent or earlier creation wins
      const again = err instanceof CrowdCallError ? await this.findQualificationType(spec.name) : undefined;
      if (again) return { id: again, created: false };
      throw err;
    }
  }

  findQualificationTypeId(name: string): Promise<string | undefined> {
    return this.findQualificationType(name);
  }

  private async findQualificationType(name: string): Promise<string | undefined> {
    let nextToken: string | undefined;
    do {
      const page = await this.call('ListQualificationTypes', () =>
        this.client.send(
          new ListQualificationTypesCommand({
            Query: name,
            MustBeRequestable: false,
            MustBeOwnedByCaller: true,
            MaxResults: 100,
            NextToken: nextToken,
          }),
        ),
      );
      const hit = page.QualificationTypes?.find((q) => q.Name === name);
      if (hit?.QualificationTypeId) return hit.QualificationTypeId;
      nextToken = page.NextToken;
    } while (nextToken);
    return undefined;
  }

  async createHitType(spec: HitTypeSpec): Promise<string> {
    const res = await this.call('CreateHITType', () =>
      this.client.send(
        new CreateHITTypeCommand({
          Title: spec.title,
          Description: spec.description,
          Keywords: spec.keywords,
          Reward: spec.reward,
          AssignmentDurationInSeconds: spec.assignmentDurationSeconds,
          AutoApprovalDelayInSeconds: spec.autoApprovalDelaySeconds,
          QualificationRequirements: spec.qualificationRequirements.map((q) => ({
            QualificationTypeId: q.qualificationTypeId,
            Comparator: q.comparator,
            IntegerValues: q.integerValues,
            LocaleValues: q.localeValues?.map((l) => ({ Country: l.country, Subdivision: l.subdivision })),
            ActionsGuarded: q.actionsGuarded,
          })),
        }),
      ),
    );
    if (!res.HITTypeId) throw new Error('CreateHITType returned no HITTypeId');
    return res.HITTypeId;
  }

  async createHit(spec: HitSpec): Promise<{ hitId: string; reused: boolean }> {
    try {
      const res = await this.call('CreateHITWithHITType', () =>
        this.client.send(
          new CreateHITWithHITTypeCommand({
            HITTypeId: spec.hitTypeId,
            Question: spec.question,
            MaxAssignments: spec.maxAssignments,
            LifetimeInSeconds: spec.lifetimeSeconds,
            RequesterAnnotation: spec.requesterAnnotation,
            UniqueRequestToken: spec.uniqueRequestToken,
          }),
        ),
      );
      if (!res.HIT?.HITId) throw new Error('CreateHITWithHITType returned no HITId');
      return { hitId: platformId('CreateHITWithHITType', 'HITId', res.HIT.HITId), reused: false };
    } catch (err) {
      // Our token already made this HIT (a retry after a lost response, or a restart
      // after a crash): that is success, and MTurk names the HIT in the message.
      if (err instanceof CrowdCallError && err.failure.turkErrorCode === HIT_ALREADY_EXISTS) {
        const hitId = hitIdFromAlreadyExists(err.failure.message);
        if (hitId) return { hitId, reused: true };
      }
      throw err;
    }
  }

  async getHit(hitId: string): Promise<CrowdHit> {
    const res = await this.call('GetHIT', () => this.client.send(new GetHITCommand({ HITId: hitId })));
    return toHit(res.HIT, hitId);
  }

  async *listHits(): AsyncIterable<CrowdHit> {
    let nextToken: string | undefined;
    do {
      const page = await this.call('ListHITs', () => this.client.send(new ListHITsCommand({ MaxResults: 100, NextToken: nextToken })));
      for (const h of page.HITs ?? []) if (h.HITId) yield toHit(h, h.HITId);
      nextToken = page.NextToken;
    } while (nextToken);
  }

  async *listReviewableHitIds(hitTypeId?: string): AsyncIterable<string> {
    let nextToken: string | undefined;
    do {
      const page = await this.call('ListReviewableHITs', () =>
        this.client.send(
          new ListReviewableHITsCommand({ HITTypeId: hitTypeId, Status: 'Reviewable', MaxResults: 100, NextToken: nextToken }),
        ),
      );
      for (const h of page.HITs ?? []) if (h.HITId) yield platformId('ListReviewableHITs', 'HITId', h.HITId);
      nextToken = page.NextToken;
    } while (nextToken);
  }

  async listAssignments(hitId: string, statuses?: AssignmentStatus[]): Promise<CrowdAssignment[]> {
    const out: CrowdAssignment[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.call('ListAssignmentsForHIT', () =>
        this.client.send(
          new ListAssignmentsForHITCommand({ HITId: hitId, AssignmentStatuses: statuses, MaxResults: 100, NextToken: nextToken }),
        ),
      );
      for (const a of page.Assignments ?? []) out.push(toAssignment(a));
      nextToken = page.NextToken;
    } while (nextToken);
    return out;
  }

  private async assignmentStatus(assignmentId: string): Promise<AssignmentStatus | undefined> {
    const res = await this.call('GetAssignment', () => this.client.send(new GetAssignmentCommand({ AssignmentId: assignmentId })));
    return res.Assignment?.AssignmentStatus as AssignmentStatus | undefined;
  }

  async approveAssignment(assignmentId: string, feedback?: string, overrideRejection?: boolean): Promise<'approved' | 'already-approved'> {
    try {
      await this.call('ApproveAssignment', () =>
        this.client.send(
          new ApproveAssignmentCommand({
            AssignmentId: assignmentId,
            RequesterFeedback: feedback,
            ...(overrideRejection && { OverrideRejection: true }),
          }),
        ),
      );
      return 'approved';
    } catch (err) {
      // a repeat after a crash or a lost response: the first call did it
      if (
        err instanceof CrowdCallError &&
        err.failure.kind === 'request-error' &&
        (await this.assignmentStatus(assignmentId)) === 'Approved'
      ) {
        return 'already-approved';
      }
      throw err;
    }
  }

  async rejectAssignment(assignmentId: string, feedback: string): Promise<'rejected' | 'already-rejected'> {
    try {
      await this.call('RejectAssignment', () =>
        this.client.send(new RejectAssignmentCommand({ AssignmentId: assignmentId, RequesterFeedback: feedback })),
      );
      return 'rejected';
    } catch (err) {
      if (
        err instanceof CrowdCallError &&
        err.failure.kind === 'request-error' &&
        (await this.assignmentStatus(assignmentId)) === 'Rejected'
      ) {
        return 'already-rejected';
      }
      throw err;
    }
  }

  async extendAssignments(hitId: string, targetMax: number, uniqueRequestToken: string): Promise<void> {
    const hit = await this.getHit(hitId);
    const missing = targetMax - hit.maxAssignments;
    if (missing <= 0) return;
    try {
      await this.call('CreateAdditionalAssignmentsForHIT', () =>
        this.client.send(
          new CreateAdditionalAssignmentsForHITCommand({
            HITId: hitId,
            NumberOfAdditionalAssignments: missing,
            UniqueRequestToken: uniqueRequestToken,
          }),
        ),
      );
    } catch (err) {
      // the same token already raised it (lost response): check rather than guess
      if (err instanceof CrowdCallError && err.failure.kind === 'request-error' && (await this.getHit(hitId)).maxAssignments >= targetMax)
        return;
      throw err;
    }
  }

  async expireHit(hitId: string): Promise<void> {
    // a time in the past expires the HIT at once (MTurk semantics)
    await this.call('UpdateExpirationForHIT', () =>
      this.client.send(new UpdateExpirationForHITCommand({ HITId: hitId, ExpireAt: new Date(0) })),
    );
  }

  async deleteHit(hitId: string): Promise<void> {
    await this.call('DeleteHIT', () => this.client.send(new DeleteHITCommand({ HITId: hitId })));
  }

  async sendBonus(spec: {
    workerId: string;
    assignmentId: string;
    amount: string;
    reason: string;
    uniqueRequestToken: string;
  }): Promise<void> {
    try {
      await this.sendBonusOnce(spec);
    } catch (err) {
      // our token is only ever reused for this very bonus: a duplicate means it was paid
      if (err instanceof CrowdCallError && err.failure.turkErrorCode === DUPLICATE_REQUEST) return;
      throw err;
    }
  }

  private async sendBonusOnce(spec: {
    workerId: string;
    assignmentId: string;
    amount: string;
    reason: string;
    uniqueRequestToken: string;
  }): Promise<void> {
    await this.call('SendBonus', () =>
      this.client.send(
        new SendBonusCommand({
          WorkerId: spec.workerId,
          AssignmentId: spec.assignmentId,
          BonusAmount: spec.amount,
          Reason: spec.reason,
          UniqueRequestToken: spec.uniqueRequestToken,
        }),
      ),
    );
  }

  async blockWorker(workerId: string, reason: string): Promise<void> {
    mturkWorkerId(workerId);
    await this.call('CreateWorkerBlock', () => this.client.send(new CreateWorkerBlockCommand({ WorkerId: workerId, Reason: reason })));
  }

  async unblockWorker(workerId: string, reason?: string): Promise<void> {
    mturkWorkerId(workerId);
    await this.call('DeleteWorkerBlock', () => this.client.send(new DeleteWorkerBlockCommand({ WorkerId: workerId, Reason: reason })));
  }

  async listWorkerBlocks(): Promise<WorkerBlock[]> {
    const out: WorkerBlock[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.call('ListWorkerBlocks', () =>
        this.client.send(new ListWorkerBlocksCommand({ MaxResults: 100, NextToken: nextToken })),
      );
      for (const b of page.WorkerBlocks ?? [])
        if (b.WorkerId) out.push({ workerId: platformId('ListWorkerBlocks', 'WorkerId', b.WorkerId), reason: b.Reason ?? '' });
      nextToken = page.NextToken;
    } while (nextToken);
    return out;
  }

  async notifyWorkers(workerIds: readonly string[], subject: string, text: string): Promise<NotifyFailure[]> {
    workerIds.forEach(mturkWorkerId);
    const failures: NotifyFailure[] = [];
    // NotifyWorkers takes at most 100 workers per call
    for (let i = 0; i < workerIds.length; i += 100) {
      const ids = workerIds.slice(i, i + 100);
      const res = await this.call('NotifyWorkers', () =>
        this.client.send(new NotifyWorkersCommand({ WorkerIds: ids, Subject: subject, MessageText: text })),
      );
      for (const f of res.NotifyWorkersFailureStatuses ?? []) {
        failures.push({
          workerId: f.WorkerId ?? '',
          code: f.NotifyWorkersFailureCode ?? 'HardFailure',
          message: f.NotifyWorkersFailureMessage ?? '',
        });
      }
    }
    return failures;
  }

  async setQualificationScore(qualificationTypeId: string, workerId: string, value: number): Promise<void> {
    mturkWorkerId(workerId);
    await this.call('AssociateQualificationWithWorker', () =>
      this.client.send(
        new AssociateQualificationWithWorkerCommand({
          QualificationTypeId: qualificationTypeId,
          WorkerId: workerId,
          IntegerValue: value,
          SendNotification: false,
        }),
      ),
    );
  }

  async revokeQualification(qualificationTypeId: string, workerId: string, reason: string): Promise<void> {
    mturkWorkerId(workerId);
    await this.call('DisassociateQualificationFromWorker', () =>
      this.client.send(
        new DisassociateQualificationFromWorkerCommand({ QualificationTypeId: qualificationTypeId, WorkerId: workerId, Reason: reason }),
      ),
    );
  }

  async qualificationScores(qualificationTypeId: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    let nextToken: string | undefined;
    do {
      const page = await this.call('ListWorkersWithQualificationType', () =>
        this.client.send(
          new ListWorkersWithQualificationTypeCommand({
            QualificationTypeId: qualificationTypeId,
            Status: 'Granted',
            MaxResults: 100,
            NextToken: nextToken,
          }),
        ),
      );
      for (const q of page.Qualifications ?? [])
        if (q.WorkerId) out.set(platformId('ListWorkersWithQualificationType', 'WorkerId', q.WorkerId), q.IntegerValue ?? 0);
      nextToken = page.NextToken;
    } while (nextToken);
    return out;
  }

  async listBonusPayments(assignmentId: string): Promise<BonusPayment[]> {
    const out: BonusPayment[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.call('ListBonusPayments', () =>
        this.client.send(new ListBonusPaymentsCommand({ AssignmentId: assignmentId, MaxResults: 100, NextToken: nextToken })),
      );
      for (const b of page.BonusPayments ?? []) {
        out.push({
          workerId: platformId('ListBonusPayments', 'WorkerId', b.WorkerId),
          assignmentId: platformId('ListBonusPayments', 'AssignmentId', b.AssignmentId ?? assignmentId),
          amount: b.BonusAmount ?? '0.00',
          reason: b.Reason ?? '',
          ...(b.GrantTime && { grantTime: b.GrantTime }),
        });
      }
      nextToken = page.NextToken;
    } while (nextToken);
    return out;
  }
}
