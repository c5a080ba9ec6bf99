import { createHash } from 'node:crypto';
import { z } from 'zod';
import { formatUsd, parseUsd } from '@qrelay/marketplace/fees';
import { UserError } from '../../errors.js';
import { CrowdCallError } from '../call-error.js';
import type { HostedServices } from '../hosted.js';
import type {
  AssignmentStatus,
  BonusPayment,
  CrowdAssignment,
  CrowdHit,
  CrowdPlatform,
  CrowdTarget,
  HitSpec,
  HitStatus,
  HitTypeSpec,
  NotifyFailure,
  ParticipantGroupCapability,
  WorkerBlock,
} from '../platform.js';
import type { ProlificClient } from './client.js';

/**
 * Prolific behind the crowd contract. A HIT is a study whose external URL is qrelay's task
 * page for that HIT (src/tasks/), with the HIT's places; a participant takes it once, so
 * each HIT's items get as many independent participants as the HIT has places. An
 * assignment is a submission (its id is Prolific's session id), its answer what the
 * participant submitted on the task page. A work type is qrelay's own record (Prolific has
 * none), kept in the platform memory so that a later round posts studies of it too.
 *
 * Idempotency where Prolific has none: a study carries the HIT's request token as its
 * `internal_name` and is looked up by it before one is created; a bonus is recorded in
 * qrelay's database (`bonus:<token>`: the bulk bonus id, then `paying` with the
 * submission's payments counted before) before the pay call, which pays again whenever it
 * is repeated; after a crash the submission's `bonus_payments` say whether it was paid.
 */

const StudyView = z.looseObject({
  id: z.string(),
  status: z.string(),
  internal_name: z.string().nullable().optional(),
  total_available_places: z.number(),
  date_created: z.string().optional(),
  metadata: z.string().nullable().optional(),
});
type StudyView = z.infer<typeof StudyView>;

const SubmissionShort = z.looseObject({
  id: z.string(),
  participant_id: z.string(),
  status: z.string(),
  started_at: z.string().nullable().optional(),
  completed_at: z.string().nullable().optional(),
});

const SubmissionDetail = z.looseObject({
  id: z.string(),
  study_id: z.string(),
  participant: z.string(),
  status: z.string(),
  bonus_payments: z.array(z.number()).default([]),
});

const Results = <T extends z.ZodType>(item: T) => z.looseObject({ results: z.array(item) });

const WorkType = z.object({
  title: z.string(),
  description: z.string(),
  reward: z.string(),
  assignmentDurationSeconds: z.number(),
  estimatedSeconds: z.number().optional(),
  filters: z.array(z.record(z.string(), z.unknown())),
});

const StudyMemo = z.object({ hitTypeId: z.string(), annotation: z.string().optional(), expiresAt: z.string() });

const BonusRecord = z.object({
  bulkId: z.string(),
  submissionId: z.string(),
  cents: z.number(),
  reason: z.string(),
  /** The submission's payments of this amount counted before the pay call. */
  paymentsBefore: z.number().optional(),
  /** When the pay call was sent (ISO time). */
  requestedAt: z.string().optional(),
  state: z.enum(['created', 'paying', 'paid']),
});

/** How long Prolific may take to show a payment it was asked for (it pays in the background). */
const PAYMENT_SHOWS_WITHIN_MS = 30 * 60_000;

/** Prolific's rejection needs a message of at least 100 characters. */
const REJECTION_MIN = 100;
const REJECTION_TAIL =
  ' Your answers to this study did not meet the quality checks described in its instructions, so the submission could not be approved.';

/** The blocklist group every study excludes. */
const BLOCKLIST_NAME = 'qrelay-blocked';

const SUBMITTED = new Set(['AWAITING REVIEW', 'APPROVED', 'REJECTED']);
const TAKEN = new Set(['ACTIVE', 'RESERVED', 'PROCESSING', 'AWAITING REVIEW', 'APPROVED', 'REJECTED']);

function assignmentStatus(status: string): AssignmentStatus | undefined {
  if (status === 'AWAITING REVIEW') return 'Submitted';
  if (status === 'APPROVED') return 'Approved';
  if (status === 'REJECTED') return 'Rejected';
  return undefined;
}

function hitStatus(study: StudyView, available: number): HitStatus {
  if (study.status === 'ACTIVE' && available > 0) return 'Assignable';
  if (study.status === 'AWAITING REVIEW' || study.status === 'COMPLETED') return 'Reviewable';
  return 'Unassignable';
}

/** Minutes Prolific allows at least for an estimated time (2 + 2·ect + 2·√ect). */
const minimumAllowedMinutes = (ect: number) => Math.ceil(2 + 2 * ect + 2 * Math.sqrt(ect));

const EMPTY_ANSWERS =
  '<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd"></QuestionFormAnswers>';

export class ProlificPlatform implements CrowdPlatform {
  readonly platform = 'prolific';
  readonly participantGroups: ParticipantGroupCapability;
  private workspace: string | undefined;
  private blocklist: string | undefined;

  constructor(
    readonly target: CrowdTarget,
    private readonly client: ProlificClient,
    private readonly hosted: HostedServices | undefined,
  ) {
    this.participantGroups = {
      ensureGroup: (name, description) => this.ensureGroup(name, description),
      addMembers: async (groupId, ids) => {
        if (ids.length === 0) return;
        await this.client.call('AddGroupMembers', 'POST', `participant-groups/${groupId}/participants/`, {
          body: { participant_ids: ids },
        });
      },
      removeMembers: async (groupId, ids) => {
        if (ids.length === 0) return;
        await this.client.call('RemoveGroupMembers', 'DELETE', `participant-groups/${groupId}/participants/`, {
          body: { participant_ids: ids },
        });
      },
      members: (groupId) => this.members(groupId),
    };
  }

  private services(operation: string): HostedServices {
    if (!this.hosted) {
      throw new UserError(`${operation} on Prolific needs qrelay's database (task pages and records): run it through qrelay's pipeline`);
    }
    return this.hosted;
  }

  // ---- money

  private async workspaceId(): Promise<string> {
    if (this.workspace) return this.workspace;
    const list = Results(z.looseObject({ id: z.string() })).parse(await this.client.call('ListWorkspaces', 'GET', 'workspaces/'));
    const first = list.results[0];
    if (!first) throw new UserError(`the Prolific account at ${this.target.endpoint} has no workspace: create one on Prolific first`);
    this.workspace = first.id;
    return first.id;
  }

  async accountBalance(): Promise<{ availableCents: number; onHoldCents: number }> {
    const id = await this.workspaceId();
    const b = z
      .looseObject({ total_balance: z.number(), available_balance: z.number() })
      .parse(await this.client.call('GetBalance', 'GET', `workspaces/${id}/balance/`));
    // Prolific's available balance already leaves out what published studies' open places will cost
    return { availableCents: Math.floor(b.available_balance), onHoldCents: Math.max(0, Math.floor(b.total_balance - b.available_balance)) };
  }

  async accountBalanceCents(): Promise<number> {
    return (await this.accountBalance()).availableCents;
  }

  // ---- post work

  async createHitType(spec: HitTypeSpec): Promise<string> {
    const record = {
      title: spec.title,
      description: spec.description,
      reward: spec.reward,
      assignmentDurationSeconds: spec.assignmentDurationSeconds,
      ...(spec.estimatedSeconds !== undefined && { estimatedSeconds: spec.estimatedSeconds }),
      filters: spec.filters ?? [],
    };
    const id = `qrw-${createHash('sha256').update(JSON.stringify(record)).digest('hex').slice(0, 24)}`;
    await this.services('CreateHITType').memory.write(`worktype:${id}`, record);
    return id;
  }

  private async workType(id: string): Promise<z.infer<typeof WorkType>> {
    const found = WorkType.safeParse(await this.services('CreateHIT').memory.read(`worktype:${id}`));
    if (!found.success) throw new UserError(`work type ${id} is not recorded in qrelay's database: publish the batch again to record it`);
    return found.data;
  }

  private async blocklistId(): Promise<string> {
    this.blocklist ??= (await this.ensureGroup(BLOCKLIST_NAME, 'Participants qrelay blocked: every study of qrelay excludes them.')).id;
    return this.blocklist;
  }

  private async listStudies(): Promise<StudyView[]> {
    return Results(StudyView).parse(await this.client.call('ListStudies', 'GET', 'studies/')).results;
  }

  async createHit(spec: HitSpec): Promise<{ hitId: string; reused: boolean }> {
    if (!spec.task) throw new UserError('a study on Prolific needs a task page hosted by qrelay: post it from a batch');
    const hosted = this.services('CreateHIT');
    const existing = (await this.listStudies()).find((s) => s.internal_name === spec.uniqueRequestToken);
    if (existing) {
      if (existing.status === 'UNPUBLISHED') await this.publish(existing.id);
      return { hitId: existing.id, reused: true };
    }
    const type = await this.workType(spec.hitTypeId);
    const page = await hosted.pages.page(spec.task);
    const ect = Math.max(1, Math.ceil((type.estimatedSeconds ?? type.assignmentDurationSeconds / 3) / 60));
    const allowed = Math.min(24 * 60 - 1, Math.max(minimumAllowedMinutes(ect), Math.ceil(type.assignmentDurationSeconds / 60)));
    const memo = {
      hitTypeId: spec.hitTypeId,
      ...(spec.requesterAnnotation !== undefined && { annotation: spec.requesterAnnotation }),
      expiresAt: new Date(Date.now() + spec.lifetimeSeconds * 1000).toISOString(),
    };
    const body = {
      name: type.title,
      internal_name: spec.uniqueRequestToken,
      description: type.description,
      external_study_url: page.url,
      prolific_id_option: 'url_parameters',
      completion_codes: [
        { code: page.completionCode, code_type: 'COMPLETED', actions: [{ action: 'MANUALLY_REVIEW' }], actor: 'participant' },
      ],
      total_available_places: spec.maxAssignments,
      estimated_completion_time: ect,
      maximum_allowed_time: allowed,
      reward: parseUsd(type.reward),
      device_compatibility: ['desktop'],
      filters: [...type.filters, { filter_id: 'participant_group_blocklist', selected_values: [await this.blocklistId()] }],
      submissions_config: { max_submissions_per_participant: 1 },
      metadata: JSON.stringify(memo),
    };
    let created: StudyView;
    try {
      // a repeated create would make a second study: no blind retry, the lookup by token is the retry
      created = StudyView.parse(await this.client.call('CreateStudy', 'POST', 'studies/', { body, retry: false }));
    } catch (err) {
      if (!(err instanceof CrowdCallError) || !err.failure.retryable) throw err;
      const made = (await this.listStudies()).find((s) => s.internal_name === spec.uniqueRequestToken);
      if (!made) throw err;
      created = made;
    }
    if (created.status === 'UNPUBLISHED') await this.publish(created.id);
    return { hitId: created.id, reused: false };
  }

  private async publish(studyId: string): Promise<void> {
    await this.client.call('PublishStudy', 'POST', `studies/${studyId}/transition/`, { body: { action: 'PUBLISH' } });
  }

  private async study(studyId: string): Promise<StudyView> {
    return StudyView.parse(await this.client.call('GetStudy', 'GET', `studies/${studyId}/`));
  }

  async extendAssignments(hitId: string, targetMax: number): Promise<void> {
    const study = await this.study(hitId);
    if (study.total_available_places >= targetMax) return; // places only go up: a repeat is a no-op
    await this.client.call('IncreasePlaces', 'PATCH', `studies/${hitId}/`, { body: { total_available_places: targetMax } });
    // more places reopen a COMPLETED study; one stopped while submissions waited stays AWAITING REVIEW until started
    const after = await this.study(hitId);
    if (after.status === 'PAUSED' || after.status === 'AWAITING REVIEW') {
      await this.client.call('StartStudy', 'POST', `studies/${hitId}/transition/`, { body: { action: 'START' } }).catch(() => undefined);
    }
  }

  async expireHit(hitId: string): Promise<void> {
    const study = await this.study(hitId);
    if (study.status === 'COMPLETED' || study.status === 'AWAITING REVIEW' || study.status === 'UNPUBLISHED') return;
    await this.client.call('StopStudy', 'POST', `studies/${hitId}/transition/`, { body: { action: 'STOP' } });
  }

  async deleteHit(hitId: string): Promise<void> {
    const study = await this.study(hitId);
    if (study.status === 'UNPUBLISHED') await this.client.call('DeleteStudy', 'DELETE', `studies/${hitId}/`);
    else await this.expireHit(hitId);
  }

  // ---- read

  private async submissions(studyId: string): Promise<z.infer<typeof SubmissionShort>[]> {
    return Results(SubmissionShort).parse(await this.client.call('ListSubmissions', 'GET', `studies/${studyId}/submissions/`)).results;
  }

  private toHit(study: StudyView, subs: readonly z.infer<typeof SubmissionShort>[]): CrowdHit {
    const memo = StudyMemo.safeParse(study.metadata ? (JSON.parse(study.metadata) as unknown) : undefined);
    const taken = subs.filter((s) => TAKEN.has(s.status)).length;
    const available = Math.max(0, study.total_available_places - taken);
    const pending = subs.filter((s) => s.status === 'ACTIVE' || s.status === 'RESERVED' || s.status === 'PROCESSING').length;
    return {
      hitId: study.id,
      hitTypeId: memo.success ? memo.data.hitTypeId : '',
      status: hitStatus(study, available),
      maxAssignments: study.total_available_places,
      ...(study.date_created && { creationTime: new Date(study.date_created) }),
      ...(memo.success && { expiration: new Date(memo.data.expiresAt) }),
      available: study.status === 'ACTIVE' || study.status === 'PAUSED' ? available : 0,
      pending,
      completed: subs.filter((s) => SUBMITTED.has(s.status)).length,
      ...(memo.success && memo.data.annotation !== undefined && { requesterAnnotation: memo.data.annotation }),
    };
  }

  async getHit(hitId: string): Promise<CrowdHit> {
    const [study, subs] = await Promise.all([this.study(hitId), this.submissions(hitId)]);
    return this.toHit(study, subs);
  }

  async *listHits(): AsyncIterable<CrowdHit> {
    for (const s of await this.listStudies()) {
      if (!s.internal_name?.startsWith('qr')) continue; // not qrelay's
      yield await this.getHit(s.id);
    }
  }

  async *listReviewableHitIds(hitTypeId?: string): AsyncIterable<string> {
    for await (const h of this.listHits()) if (h.status === 'Reviewable' && (!hitTypeId || h.hitTypeId === hitTypeId)) yield h.hitId;
  }

  async listAssignments(hitId: string, statuses?: AssignmentStatus[]): Promise<CrowdAssignment[]> {
    const subs = await this.submissions(hitId);
    const done = subs.filter((s) => assignmentStatus(s.status) !== undefined);
    const answers =
      done.length > 0 ? await this.services('ListAssignments').pages.answers(done.map((s) => s.id)) : new Map<string, string>();
    const out: CrowdAssignment[] = [];
    for (const s of done) {
      const status = assignmentStatus(s.status) as AssignmentStatus;
      if (statuses && !statuses.includes(status)) continue;
      out.push({
        assignmentId: s.id,
        workerId: s.participant_id,
        hitId,
        status,
        ...(s.started_at && { acceptTime: new Date(s.started_at) }),
        ...(s.completed_at && { submitTime: new Date(s.completed_at) }),
        // a participant who reached the completion page without submitting the task page answered nothing
        answer: answers.get(s.id) ?? EMPTY_ANSWERS,
      });
    }
    return out;
  }

  // ---- review

  private async submission(id: string): Promise<z.infer<typeof SubmissionDetail>> {
    return SubmissionDetail.parse(await this.client.call('GetSubmission', 'GET', `submissions/${id}/`));
  }

  async approveAssignment(assignmentId: string): Promise<'approved' | 'already-approved'> {
    const s = await this.submission(assignmentId);
    if (s.status === 'APPROVED') return 'already-approved';
    if (s.status === 'REJECTED') {
      throw new UserError(`submission ${assignmentId} was rejected on Prolific, where a rejection is final: it cannot be approved`);
    }
    await this.client.call('ApproveSubmission', 'POST', `submissions/${assignmentId}/transition/`, { body: { action: 'APPROVE' } });
    return 'approved';
  }

  async rejectAssignment(assignmentId: string, feedback: string): Promise<'rejected' | 'already-rejected'> {
    const s = await this.submission(assignmentId);
    if (s.status === 'REJECTED') return 'already-rejected';
    const message = feedback.trim().length >= REJECTION_MIN ? feedback.trim() : `${feedback.trim()}${REJECTION_TAIL}`;
    await this.client.call('RejectSubmission', 'POST', `submissions/${assignmentId}/transition/`, {
      body: { action: 'REJECT', message, rejection_category: 'FAILED_CHECK' },
    });
    return 'rejected';
  }

  // ---- bonuses

  async sendBonus(spec: Parameters<CrowdPlatform['sendBonus']>[0]): Promise<void> {
    const memory = this.services('SendBonus').memory;
    const key = `bonus:${spec.uniqueRequestToken}`;
    const cents = parseUsd(spec.amount);
    let record = BonusRecord.safeParse(await memory.read(key)).data;
    if (record?.state === 'paid') return;
    const submission = await this.submission(spec.assignmentId);
    const paidOfAmount = submission.bonus_payments.filter((c) => Math.round(c) === cents).length;
    if (record?.state === 'paying') {
      // a pay call was sent and its outcome not recorded: the submission says whether it was paid
      if (paidOfAmount > (record.paymentsBefore ?? 0)) {
        await memory.write(key, { ...record, state: 'paid' });
        return;
      }
      const sentAt = record.requestedAt ? Date.parse(record.requestedAt) : 0;
      if (this.target.realMoney && Date.now() - sentAt < PAYMENT_SHOWS_WITHIN_MS) {
        throw new UserError(
          `the bonus for submission ${spec.assignmentId} was sent to Prolific at ${record.requestedAt ?? '?'} and does not show on it yet (Prolific pays in the background): run the command again in half an hour; it is not sent again before then`,
        );
      }
    }
    if (!record) {
      const bulk = z.looseObject({ id: z.string() }).parse(
        await this.client.call('SetUpBonus', 'POST', 'submissions/bonus-payments/', {
          body: { study_id: submission.study_id, csv_bonuses: `${spec.assignmentId},${formatUsd(cents)}` },
        }),
      );
      record = { bulkId: bulk.id, submissionId: spec.assignmentId, cents, reason: spec.reason, state: 'created' };
      await memory.write(key, record);
    }
    // recorded before the call: the pay endpoint pays again whenever it is called
    record = { ...record, state: 'paying', paymentsBefore: paidOfAmount, requestedAt: new Date().toISOString() };
    await memory.write(key, record);
    await this.client.call('PayBonus', 'POST', `bulk-bonus-payments/${record.bulkId}/pay/`, {
      headers: { 'Idempotency-Key': spec.uniqueRequestToken },
      retry: false,
    });
    await memory.write(key, { ...record, state: 'paid' });
  }

  async listBonusPayments(assignmentId: string): Promise<BonusPayment[]> {
    const s = await this.submission(assignmentId);
    return s.bonus_payments.map((cents) => ({ workerId: s.participant, assignmentId, amount: formatUsd(Math.round(cents)), reason: '' }));
  }

  // ---- blocks: a participant group every study excludes

  private async ensureGroup(name: string, description: string): Promise<{ id: string; created: boolean }> {
    const workspace = await this.workspaceId();
    const Group = z.looseObject({ id: z.string(), name: z.string(), is_deleted: z.boolean().optional() });
    const groups = Results(Group).parse(await this.client.call('ListGroups', 'GET', `participant-groups/?workspace_id=${workspace}`));
    const found = groups.results.find((g) => g.name === name && !g.is_deleted);
    if (found) return { id: found.id, created: false };
    const made = Group.parse(
      await this.client.call('CreateGroup', 'POST', 'participant-groups/', { body: { name, workspace_id: workspace, description } }),
    );
    return { id: made.id, created: true };
  }

  private async members(groupId: string): Promise<string[]> {
    const list = Results(z.looseObject({ participant_id: z.string() })).parse(
      await this.client.call('ListGroupMembers', 'GET', `participant-groups/${groupId}/participants/`),
    );
    return list.results.map((m) => m.participant_id);
  }

  async blockWorker(workerId: string, reason: string): Promise<void> {
    const group = await this.blocklistId();
    await this.participantGroups.addMembers(group, [workerId]);
    await this.services('BlockWorker').memory.write(`block:${workerId}`, { reason });
  }

  async unblockWorker(workerId: string): Promise<void> {
    await this.participantGroups.removeMembers(await this.blocklistId(), [workerId]);
  }

  async listWorkerBlocks(): Promise<WorkerBlock[]> {
    const ids = await this.members(await this.blocklistId());
    const memory = this.hosted?.memory;
    return Promise.all(
      ids.map(async (workerId) => {
        const note = z.object({ reason: z.string() }).safeParse(await memory?.read(`block:${workerId}`));
        return { workerId, reason: note.success ? note.data.reason : '' };
      }),
    );
  }

  // ---- messages

  async notifyWorkers(workerIds: readonly string[], subject: string, text: string): Promise<NotifyFailure[]> {
    if (workerIds.length === 0) return [];
    // a message names a study the participant took: the latest of qrelay's studies they took part in
    const studies = (await this.listStudies()).filter((s) => s.internal_name?.startsWith('qr')).reverse();
    const byStudy = new Map<string, string[]>();
    const left = new Set(workerIds);
    for (const s of studies) {
      if (left.size === 0) break;
      for (const sub of await this.submissions(s.id)) {
        if (!left.has(sub.participant_id)) continue;
        left.delete(sub.participant_id);
        byStudy.set(s.id, [...(byStudy.get(s.id) ?? []), sub.participant_id]);
      }
    }
    const failures: NotifyFailure[] = [...left].map((workerId) => ({
      workerId,
      code: 'NoStudy',
      message: 'took part in none of qrelay’s studies on this account, so Prolific cannot message them',
    }));
    for (const [studyId, ids] of byStudy) {
      await this.client.call('SendMessages', 'POST', 'messages/bulk/', { body: { ids, study_id: studyId, body: `${subject}\n\n${text}` } });
    }
    return failures;
  }

  close(): void {}
}
