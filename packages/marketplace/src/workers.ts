import type { Marketplace } from './core.js';
import { answersXml, formAnswersXml, questionFormAnswerEntries, type FormFields } from './domain/answers-xml.js';
import { DomainError } from './domain/errors.js';
import {
  acceptAssignment,
  countsOf,
  returnAssignment,
  settle,
  statusOf,
  submitAssignment,
  workerAssignment,
  type AssignmentState,
  type HitState,
  type HitTypeProps,
} from './domain/hit.js';
import type { Question } from './domain/question-xml.js';
import type { QuestionForm } from './domain/question-form.js';
import { accessFor, type Access } from './domain/requirements.js';
import { requestTiming } from './domain/retakes.js';
import { baselineFor, systemQualification, SYSTEM_QUALIFICATION_TYPES, type WorkerProfile } from './domain/system-qualifications.js';
import type { AccessAction, Comparator, HitStatus, Locale } from './domain/types.js';
import { hitIdOfAssignment, newWorkerId } from './ids.js';
import { accessTo, requireWorker, workerContext, type WorkerContext } from './services/access.js';
import { parsedQuestion, questionXml } from './services/hits.js';
import { mutateHit, requireHit } from './services/hit-writer.js';
import { hashPassword, verifyPassword } from './services/passwords.js';
import {
  requestQualification,
  submitQualificationTest,
  unrequestableTypes,
  type RequestOutcome,
  type TestAnswers,
  type TestOutcome,
} from './services/qualifications.js';
import {
  isDuplicateKey,
  type MessageDoc,
  type QualificationAttemptDoc,
  type QualificationRequestDoc,
  type WorkerDoc,
} from './store/models.js';

/**
 * The worker side of the marketplace, called in-process by the worker website
 * (site/) and by drivers such as qrelay's simulated workers (src/simulation/ in qrelay). Everything a
 * worker can do goes through here, with MTurk's rules: blocks, qualification
 * requirements (ActionsGuarded: discover / preview / accept), one assignment per worker
 * per HIT, deadlines, qualification tests. A worker only ever sees their own work.
 *
 * Failures are `DomainError`s with a `code` (see domain/errors.ts) and a message meant
 * for the worker: HITNotAvailable, AlreadyWorkedOn, QualificationRequirementsNotMet,
 * WorkerBlocked, AssignmentDoesNotExist (also for other workers' assignments),
 * InvalidAssignmentState, QualificationNotRequestable, QualificationRetryNotAllowed,
 * QualificationTestExpired, WorkerDoesNotExist, WorkerNameTaken, ValidationException.
 *
 * Usage: `const workers = new WorkerApi(marketplace)`; `startMarketplace` returns one as
 * `running.workers`.
 */

export { DomainError, isDomainError } from './domain/errors.js';
export type { FormFields, QuestionForm, Question, RequestOutcome, TestAnswers, TestOutcome, WorkerProfile };

export interface WorkerAccount {
  workerId: string;
  displayName: string;
  profile: WorkerProfile;
  createdAt: Date;
  hasPassword: boolean;
}

/** Profile fields; what is left out keeps its current (or default) value. */
export interface ProfileInput {
  /** ISO 3166 country (and optional ISO 3166-2 subdivision); default US. */
  locale?: Locale;
  /** Confirmed 18 or older (the Adult system qualification); default false. */
  adult?: boolean;
  /** Holds the Masters qualification (sandbox and production ids); default false. */
  masters?: boolean;
  /** Work done elsewhere before this marketplace, added to the work done here (approval rate, approved HITs). */
  baseline?: { submitted?: number; approved?: number };
  /** The same said as NumberHITsApproved and PercentAssignmentsApproved: sets the baseline (baselineFor); not with `baseline`. */
  approvedHits?: number;
  approvalRate?: number;
}

export interface NewWorker {
  displayName: string;
  /** For the worker site's login; a worker without one cannot log in (simulated workers need none). */
  password?: string;
  profile?: ProfileInput;
  /** A chosen id (`^A[A-Z0-9]+$`), e.g. for reproducible simulations; otherwise one is made. */
  workerId?: string;
}

export interface UnmetRequirement {
  qualificationTypeId: string;
  /** The qualification's name (system qualifications have MTurk's names). */
  name: string;
  comparator: Comparator;
  integerValues?: number[];
  localeValues?: Locale[];
  actionsGuarded: AccessAction;
  /** The worker can ask for it (an active custom type: test, automatic grant or requester review). */
  requestable: boolean;
}

/** What a worker sees of a HIT: its type's terms (not its requirements, which come as `unmetRequirements`) and its state. */
export interface HitSummary extends Omit<HitTypeProps, 'qualificationRequirements'> {
  hitId: string;
  hitTypeId: string;
  hitGroupId: string;
  creationTime: Date;
  expiration: Date;
  status: HitStatus;
  availableAssignments: number;
  canPreview: boolean;
  canAccept: boolean;
  unmetRequirements: UnmetRequirement[];
}

export interface HitPreview extends HitSummary {
  /** The parsed question and its XML; absent when the worker may not preview. */
  question?: Question;
  questionXml?: string;
  /** The worker's own assignment of this HIT, if they hold one. */
  assignment?: WorkerAssignmentView;
}

/** A worker's own assignment: its state (status `Accepted` while they work on it) with the HIT's id, title and reward. */
export interface WorkerAssignmentView extends Omit<AssignmentState, 'id' | 'workerId'> {
  assignmentId: string;
  hitId: string;
  title: string;
  reward: string;
}

export interface WorkerAssignmentDetail extends WorkerAssignmentView {
  question: Question;
  questionXml: string;
  /** The QuestionFormAnswers the worker submitted. */
  answerXml?: string;
}

export interface WorkerQualificationView {
  qualificationTypeId: string;
  name: string;
  system: boolean;
  status: 'Granted' | 'Revoked';
  integerValue?: number;
  localeValue?: Locale;
  grantTime?: Date;
}

export interface RequestableQualification {
  qualificationTypeId: string;
  name: string;
  description: string;
  keywords?: string;
  hasTest: boolean;
  testDurationSeconds?: number;
  autoGranted: boolean;
  retryDelaySeconds?: number;
  /** The worker's current value, if they hold it. */
  held?: WorkerQualificationView;
  /** A request of theirs waits for the requester. */
  pendingRequest: boolean;
  /** When the worker may request it (again); undefined: now; null: never again (no retries). */
  nextRequestAt?: Date | null;
}

export interface WorkerMessage {
  messageId: string;
  subject: string;
  text: string;
  sentAt: Date;
}

export interface Earnings {
  approvedRewardsCents: number;
  bonusesCents: number;
  /** Rewards of submitted work not yet approved or rejected. */
  pendingRewardsCents: number;
}

const DEFAULT_PROFILE: WorkerProfile = { locale: { Country: 'US' }, adult: false, masters: false, baseline: { submitted: 0, approved: 0 } };
const MAX_ANSWER_BYTES = 512 * 1024;
/** Open HITs looked at per step when listing a page of available ones. */
const LIST_CHUNK = 200;

function checkProfile(p: WorkerProfile): WorkerProfile {
  const bad = (field: string, message: string) => new DomainError('ValidationException', `profile.${field}: ${message}`);
  if (!/^[A-Z]{2}$/.test(p.locale.Country))
    throw bad('locale.Country', `must be an ISO 3166 country code of two capital letters (got "${p.locale.Country}")`);
  if (p.locale.Subdivision !== undefined && !/^[A-Z0-9]{1,3}$/.test(p.locale.Subdivision)) {
    throw bad('locale.Subdivision', `must be an ISO 3166-2 subdivision code such as WA (got "${p.locale.Subdivision}")`);
  }
  const { submitted, approved } = p.baseline;
  if (!Number.isSafeInteger(submitted) || submitted < 0) throw bad('baseline.submitted', `must be a whole number >= 0 (got ${submitted})`);
  if (!Number.isSafeInteger(approved) || approved < 0 || approved > submitted)
    throw bad('baseline.approved', `must be a whole number from 0 to baseline.submitted (got ${approved})`);
  return p;
}

/** The earlier work a profile input asks for: a baseline as given, or approved HITs and an approval rate (the rejected count kept when only the HITs change). */
function mergeBaseline(base: WorkerProfile['baseline'], input: ProfileInput): WorkerProfile['baseline'] {
  if (input.approvedHits === undefined && input.approvalRate === undefined) {
    return { submitted: input.baseline?.submitted ?? base.submitted, approved: input.baseline?.approved ?? base.approved };
  }
  if (input.baseline !== undefined)
    throw new DomainError('ValidationException', 'profile: give baseline or approvedHits/approvalRate, not both');
  const approvedHits = input.approvedHits ?? base.approved;
  if (input.approvalRate === undefined) return { submitted: approvedHits + (base.submitted - base.approved), approved: approvedHits };
  const r = baselineFor(approvedHits, input.approvalRate);
  if (!r.ok) throw new DomainError('ValidationException', `profile.${r.field}: ${r.message}`);
  return r.baseline;
}

function mergeProfile(base: WorkerProfile, input: ProfileInput = {}): WorkerProfile {
  return checkProfile({
    locale: input.locale
      ? { Country: input.locale.Country, ...(input.locale.Subdivision ? { Subdivision: input.locale.Subdivision } : {}) }
      : base.locale,
    adult: input.adult ?? base.adult,
    masters: input.masters ?? base.masters,
    baseline: mergeBaseline(base.baseline, input),
  });
}

function account(doc: WorkerDoc): WorkerAccount {
  return {
    workerId: doc._id,
    displayName: doc.displayName,
    profile: doc.profile,
    createdAt: doc.createdAt,
    hasPassword: doc.passwordHash !== undefined,
  };
}

function assignmentView(hit: HitState, a: AssignmentState): WorkerAssignmentView {
  return {
    assignmentId: a.id,
    hitId: hit.id,
    title: hit.props.title,
    reward: hit.props.reward,
    status: a.status,
    acceptTime: a.acceptTime,
    deadline: a.deadline,
    ...(a.submitTime ? { submitTime: a.submitTime } : {}),
    ...(a.autoApprovalTime ? { autoApprovalTime: a.autoApprovalTime } : {}),
    ...(a.approvalTime ? { approvalTime: a.approvalTime } : {}),
    ...(a.rejectionTime ? { rejectionTime: a.rejectionTime } : {}),
    ...(a.requesterFeedback !== undefined ? { requesterFeedback: a.requesterFeedback } : {}),
  };
}

const SYSTEM_TYPE_BY_ID = new Map(SYSTEM_QUALIFICATION_TYPES.map((s) => [s.QualificationTypeId, s]));

/** The qualification types no worker may request (unrequestableTypes), found once per answer, when first asked. */
class Unrequestable {
  private types?: Set<string>;
  constructor(private readonly mp: Marketplace) {}
  has(typeId: string): boolean {
    this.types ??= unrequestableTypes(this.mp);
    return this.types.has(typeId);
  }
}

export class WorkerApi {
  constructor(private readonly mp: Marketplace) {}

  // ---- accounts and profiles

  async createWorker(input: NewWorker): Promise<WorkerAccount> {
    const displayName = input.displayName.trim();
    if (displayName === '' || displayName.length > 64)
      throw new DomainError('ValidationException', 'displayName: must be 1 to 64 characters');
    const workerId = input.workerId ?? newWorkerId();
    if (!/^A[A-Z0-9]{1,63}$/.test(workerId))
      throw new DomainError('ValidationException', `workerId: must match ^A[A-Z0-9]+$ (got "${workerId}")`);
    const profile = mergeProfile(DEFAULT_PROFILE, input.profile);
    const passwordHash = input.password !== undefined ? await hashPassword(input.password) : undefined;
    const key = displayName.toLowerCase();
    try {
      await this.mp.models.workerNames.create({ _id: key, target: workerId });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const holder = await this.mp.models.workerNames.findById(key).lean();
      if (holder && (await this.mp.models.workers.exists({ _id: holder.target }))) {
        throw new DomainError('WorkerNameTaken', `The name "${displayName}" is taken; choose another.`);
      }
      await this.mp.models.workerNames.updateOne({ _id: key }, { $set: { target: workerId } });
    }
    const doc: WorkerDoc = {
      _id: workerId,
      displayName,
      ...(passwordHash ? { passwordHash } : {}),
      profile,
      createdAt: this.mp.clock.now(),
    };
    try {
      await this.mp.models.workers.create(doc);
      this.mp.workerRecords.forget(workerId);
    } catch (err) {
      if (isDuplicateKey(err)) throw new DomainError('ValidationException', `workerId: ${workerId} already exists`);
      throw err;
    }
    return account(doc);
  }

  async getWorker(workerId: string): Promise<WorkerAccount | undefined> {
    const doc = await this.mp.models.workers.findById(workerId).lean<WorkerDoc>();
    return doc ? account(doc) : undefined;
  }

  /** The worker with this display name (any case) or id. */
  private async findWorkerDoc(nameOrId: string): Promise<WorkerDoc | undefined> {
    const byName = await this.mp.models.workerNames.findById(nameOrId.trim().toLowerCase()).lean();
    return (await this.mp.models.workers.findById(byName?.target ?? nameOrId.trim()).lean<WorkerDoc>()) ?? undefined;
  }

  async findWorker(nameOrId: string): Promise<WorkerAccount | undefined> {
    const doc = await this.findWorkerDoc(nameOrId);
    return doc ? account(doc) : undefined;
  }

  async listWorkers(): Promise<WorkerAccount[]> {
    return (await this.mp.models.workers.find({}).sort({ _id: 1 }).lean<WorkerDoc[]>()).map(account);
  }

  async updateProfile(workerId: string, input: ProfileInput): Promise<WorkerAccount> {
    const worker = await requireWorker(this.mp, workerId);
    const profile = mergeProfile(worker.profile, input);
    await this.mp.models.workers.updateOne({ _id: workerId }, { $set: { profile } });
    this.mp.workerRecords.forget(workerId);
    return account({ ...worker, profile });
  }

  async setPassword(workerId: string, password: string): Promise<void> {
    await requireWorker(this.mp, workerId);
    await this.mp.models.workers.updateOne({ _id: workerId }, { $set: { passwordHash: await hashPassword(password) } });
    this.mp.workerRecords.forget(workerId);
  }

  /** The worker whose display name (any case) or id and password match; undefined otherwise. */
  async authenticate(nameOrId: string, password: string): Promise<WorkerAccount | undefined> {
    const doc = await this.findWorkerDoc(nameOrId);
    if (!doc?.passwordHash) return undefined;
    return (await verifyPassword(password, doc.passwordHash)) ? account(doc) : undefined;
  }

  // ---- finding, previewing and doing work

  private summary(ctx: WorkerContext | undefined, hit: HitState, now: Date): HitSummary {
    const h = settle(hit, now);
    const access: Access = ctx ? accessTo(ctx, h) : accessFor(h.props.qualificationRequirements, () => undefined);
    return this.describe(ctx, h, now, access, statusOf(h, now), new Unrequestable(this.mp));
  }

  /** A settled HIT's summary from what the caller has judged of it already (a list judges every HIT of a page). */
  private describe(
    ctx: WorkerContext | undefined,
    h: HitState,
    now: Date,
    access: Access,
    status: HitStatus,
    unrequestable: Unrequestable,
  ): HitSummary {
    return {
      hitId: h.id,
      hitTypeId: h.typeId,
      hitGroupId: h.groupId,
      title: h.props.title,
      description: h.props.description,
      ...(h.props.keywords !== undefined ? { keywords: h.props.keywords } : {}),
      reward: h.props.reward,
      rewardCents: h.props.rewardCents,
      assignmentDurationSeconds: h.props.assignmentDurationSeconds,
      autoApprovalDelaySeconds: h.props.autoApprovalDelaySeconds,
      creationTime: h.creationTime,
      expiration: h.expiration,
      status,
      availableAssignments: countsOf(h).available,
      canPreview: access.preview,
      // an anonymous visitor may look, but only a worker accepts
      canAccept: ctx !== undefined && access.accept && status === 'Assignable' && !workerAssignment(h, ctx.worker._id),
      unmetRequirements: access.unmet.map((r) => this.unmet(r, unrequestable)),
    };
  }

  private unmet(r: HitState['props']['qualificationRequirements'][number], unrequestable: Unrequestable): UnmetRequirement {
    const system = SYSTEM_TYPE_BY_ID.get(r.QualificationTypeId);
    const custom = this.mp.types.qualificationTypes.get(r.QualificationTypeId);
    return {
      qualificationTypeId: r.QualificationTypeId,
      name: system?.Name ?? custom?.name ?? r.QualificationTypeId,
      comparator: r.Comparator,
      ...(r.IntegerValues ? { integerValues: r.IntegerValues } : {}),
      ...(r.LocaleValues ? { localeValues: r.LocaleValues } : {}),
      actionsGuarded: r.ActionsGuarded ?? (r.RequiredToPreview ? 'PreviewAndAccept' : 'Accept'),
      requestable: !!custom && !custom.deleted && custom.status === 'Active' && !unrequestable.has(custom.id),
    };
  }

  /**
   * HITs the worker can find: Assignable, not yet worked on by them, not hidden from them
   * by a DiscoverPreviewAndAccept requirement or a block. Oldest first; `limit` and
   * `afterHitId` page through them.
   */
  async listAvailableHits(workerId: string, opts: { limit?: number; afterHitId?: string } = {}): Promise<HitSummary[]> {
    const now = this.mp.clock.now();
    const limit = opts.limit ?? Infinity;
    const out: HitSummary[] = [];
    // open HITs a chunk at a time, until the page is full: a page costs what it shows, not the whole marketplace
    const chunk = Number.isFinite(limit) ? Math.max(limit, LIST_CHUNK) : Infinity;
    let after = opts.afterHitId;
    for (let first = true; ; first = false) {
      const open = this.mp.hits.openAfter(after, chunk);
      if (open.length === 0 && !first) return out;
      const candidates: { h: HitState; status: HitStatus }[] = [];
      for (const hit of open) {
        if (hit.expiration.getTime() <= now.getTime()) continue;
        // every slot taken and none overdue: settling cannot free one (the common case of a busy marketplace)
        if (
          hit.assignments.length >= hit.maxAssignments &&
          !hit.assignments.some((a) => a.status === 'Accepted' && a.deadline.getTime() <= now.getTime())
        )
          continue;
        const h = settle(hit, now);
        const status = statusOf(h, now);
        if (status === 'Assignable' && !workerAssignment(h, workerId)) candidates.push({ h, status });
      }
      // also with no candidates: an unknown worker is told so
      const ctx = await workerContext(
        this.mp,
        workerId,
        candidates.map((c) => c.h),
      );
      if (ctx.blocked) return [];
      // after the await: a type made meanwhile counts
      const unrequestable = new Unrequestable(this.mp);
      for (const { h, status } of candidates) {
        const access = accessTo(ctx, h);
        if (!access.discover) continue;
        out.push(this.describe(ctx, h, now, access, status, unrequestable));
        if (out.length >= limit) return out;
      }
      if (open.length < chunk) return out;
      after = open[open.length - 1]!.id;
    }
  }

  /**
   * One HIT as the worker (or, without `workerId`, an anonymous visitor) sees it; the
   * question only when they may preview it, or hold an assignment of it.
   */
  async previewHit(workerId: string | undefined, hitId: string): Promise<HitPreview> {
    const now = this.mp.clock.now();
    const hit = this.mp.hits.get(hitId);
    if (!hit || hit.disposed) throw new DomainError('HITNotAvailable', `HIT ${hitId} does not exist or is no longer available.`);
    const h = settle(hit, now);
    const ctx = workerId !== undefined ? await workerContext(this.mp, workerId, [h]) : undefined;
    if (ctx?.blocked) throw new DomainError('WorkerBlocked', 'The requester of this HIT has blocked you from their HITs.');
    const own = ctx ? workerAssignment(h, ctx.worker._id) : undefined;
    const summary = this.summary(ctx, h, now);
    const access = ctx ? accessTo(ctx, h) : accessFor(h.props.qualificationRequirements, () => undefined);
    if (!access.discover && !own) throw new DomainError('HITNotAvailable', `HIT ${hitId} does not exist or is no longer available.`);
    if (!summary.canPreview && !own) return summary;
    const xml = await questionXml(this.mp, hitId);
    const question = await parsedQuestion(this.mp, hitId);
    return {
      ...summary,
      ...(question ? { question } : {}),
      ...(xml !== undefined ? { questionXml: xml } : {}),
      ...(own ? { assignment: assignmentView(h, own) } : {}),
    };
  }

  /** Takes one slot of the HIT: the worker must meet every requirement, not be blocked, not have worked on it. */
  async acceptHit(workerId: string, hitId: string): Promise<WorkerAssignmentView> {
    const hit = this.mp.hits.get(hitId);
    if (!hit || hit.disposed) throw new DomainError('HITNotAvailable', `HIT ${hitId} does not exist or is no longer available.`);
    const ctx = await workerContext(this.mp, workerId, [hit]);
    if (ctx.blocked) throw new DomainError('WorkerBlocked', 'The requester of this HIT has blocked you from their HITs.');
    const access = accessTo(ctx, hit);
    if (!access.accept) {
      const names = access.unmet.map((r) => this.unmet(r, new Unrequestable(this.mp)).name).join(', ');
      throw new DomainError('QualificationRequirementsNotMet', `You do not meet the qualification requirements of this HIT (${names}).`);
    }
    return mutateHit(this.mp, hitId, (current, now) => {
      const { hit: next, assignment } = acceptAssignment(current, workerId, now);
      return { hit: next, result: assignmentView(next, assignment) };
    });
  }

  private ownAssignment(workerId: string, assignmentId: string): { hit: HitState; assignment: AssignmentState } {
    const hitId = hitIdOfAssignment(assignmentId);
    const hit = hitId ? this.mp.hits.get(hitId) : undefined;
    const h = hit ? settle(hit, this.mp.clock.now()) : undefined;
    const a = h?.assignments.find((x) => x.id === assignmentId);
    // another worker's assignment is answered as if it did not exist
    if (!h || !a || a.workerId !== workerId)
      throw new DomainError('AssignmentDoesNotExist', `Assignment ${assignmentId} does not exist, or was returned or abandoned.`);
    return { hit: h, assignment: a };
  }

  /** The worker's own assignments (newest first); returned and abandoned ones are gone. */
  listAssignments(workerId: string, opts: { status?: AssignmentState['status'] } = {}): WorkerAssignmentView[] {
    const now = this.mp.clock.now();
    const out: WorkerAssignmentView[] = [];
    for (const hitId of this.mp.hits.workerHitIds(workerId)) {
      const h = settle(this.mp.hits.get(hitId)!, now);
      const a = workerAssignment(h, workerId);
      if (a && (opts.status === undefined || a.status === opts.status)) out.push(assignmentView(h, a));
    }
    return out.sort((a, b) => b.acceptTime.getTime() - a.acceptTime.getTime());
  }

  async getAssignment(workerId: string, assignmentId: string): Promise<WorkerAssignmentDetail> {
    const { hit, assignment } = this.ownAssignment(workerId, assignmentId);
    const xml = await questionXml(this.mp, hit.id);
    const question = await parsedQuestion(this.mp, hit.id);
    const answer = (await this.mp.answers.of([assignmentId])).get(assignmentId);
    if (xml === undefined || !question) throw new DomainError('HITNotAvailable', `HIT ${hit.id} has no question.`);
    return {
      ...assignmentView(hit, assignment),
      question,
      questionXml: xml,
      ...(answer !== undefined && assignment.status !== 'Accepted' ? { answerXml: answer } : {}),
    };
  }

  /**
   * Submits the worker's answers. For HTMLQuestion and ExternalQuestion HITs, `answers` is
   * the submitted form (field -> value; a repeated field -> its values), recorded as MTurk
   * does: one FreeText Answer per field, multiple values joined by `|`, `assignmentId`
   * left out. For QuestionForm HITs: question id -> selection id(s) or text.
   */
  async submitAssignment(workerId: string, assignmentId: string, answers: FormFields): Promise<WorkerAssignmentView> {
    const { hit } = this.ownAssignment(workerId, assignmentId);
    // the state is checked before anything is stored: a refused resubmission (already
    // submitted, approved or rejected) must leave the first answer as it is
    submitAssignment(hit, assignmentId, workerId, this.mp.clock.now());
    // and two submissions of one assignment at once: the second is refused, not stored over the first
    if (this.submitting.has(assignmentId))
      throw new DomainError('InvalidAssignmentState', `Assignment ${assignmentId} is being submitted already.`);
    this.submitting.add(assignmentId);
    try {
      return await this.storeSubmission(workerId, assignmentId, hit, answers);
    } finally {
      this.submitting.delete(assignmentId);
    }
  }

  /** Assignments whose submission is under way (this process is the marketplace's only writer). */
  private readonly submitting = new Set<string>();

  private async storeSubmission(workerId: string, assignmentId: string, hit: HitState, answers: FormFields): Promise<WorkerAssignmentView> {
    const question = await parsedQuestion(this.mp, hit.id);
    const xml = question?.kind === 'QuestionForm' ? answersXml(questionFormAnswerEntries(question.form, answers)) : formAnswersXml(answers);
    if (Buffer.byteLength(xml) > MAX_ANSWER_BYTES)
      throw new DomainError('ValidationException', `answers: at most ${MAX_ANSWER_BYTES} bytes can be submitted`);
    // the answer is stored first: the assignment only becomes Submitted once it is there
    await this.mp.answers.store(assignmentId, hit.id, xml);
    return mutateHit(this.mp, hit.id, (current, now) => {
      const next = submitAssignment(current, assignmentId, workerId, now);
      return { hit: next, result: assignmentView(next, workerAssignment(next, workerId)!) };
    });
  }

  /** Gives the assignment back: its slot returns to the HIT. */
  async returnAssignment(workerId: string, assignmentId: string): Promise<void> {
    const { hit } = this.ownAssignment(workerId, assignmentId);
    await mutateHit(this.mp, hit.id, (current, now) => ({
      hit: returnAssignment(current, assignmentId, workerId, now),
      result: undefined,
    }));
  }

  // ---- qualifications

  /** The worker's qualifications: custom ones granted or revoked, and the system ones computed for them. */
  async listQualifications(workerId: string): Promise<WorkerQualificationView[]> {
    const worker = await requireWorker(this.mp, workerId);
    const stats = this.mp.hits.statsFor(workerId);
    const system: WorkerQualificationView[] = SYSTEM_QUALIFICATION_TYPES.flatMap((s) => {
      const held = systemQualification(s.QualificationTypeId, worker.profile, stats);
      return held ? [{ qualificationTypeId: s.QualificationTypeId, name: s.Name, system: true, status: 'Granted' as const, ...held }] : [];
    });
    const custom = await this.mp.workerQualifications.find({ workerId });
    return [
      ...system,
      ...custom.map((q) => ({
        qualificationTypeId: q.typeId,
        name: this.mp.types.qualificationTypes.get(q.typeId)?.name ?? q.typeId,
        system: false,
        status: q.status,
        ...(q.integerValue !== undefined ? { integerValue: q.integerValue } : {}),
        grantTime: q.grantTime,
      })),
    ];
  }

  /** Active custom qualification types a worker can ask for, with where the worker stands. */
  async listRequestableQualifications(workerId: string): Promise<RequestableQualification[]> {
    await requireWorker(this.mp, workerId);
    const closed = unrequestableTypes(this.mp);
    const types = [...this.mp.types.qualificationTypes.values()]
      .filter((t) => !t.deleted && t.status === 'Active' && !closed.has(t.id))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const held = new Map((await this.listQualifications(workerId)).filter((q) => !q.system).map((q) => [q.qualificationTypeId, q]));
    const pending = await this.mp.models.qualificationRequests.find({ workerId, status: 'Pending' }).lean<QualificationRequestDoc[]>();
    const out: RequestableQualification[] = [];
    for (const t of types) {
      const attempt = await this.mp.models.qualificationAttempts.findById(`${t.id}:${workerId}`).lean<QualificationAttemptDoc>();
      const timing = requestTiming(t, attempt ?? {}, this.mp.clock.now());
      const nextRequestAt = timing.allowed ? undefined : timing.nextAt;
      const h = held.get(t.id);
      out.push({
        qualificationTypeId: t.id,
        name: t.name,
        description: t.description,
        ...(t.keywords !== undefined ? { keywords: t.keywords } : {}),
        hasTest: t.hasTest,
        ...(t.testDurationSeconds !== undefined ? { testDurationSeconds: t.testDurationSeconds } : {}),
        autoGranted: t.autoGranted,
        ...(t.retryDelaySeconds !== undefined ? { retryDelaySeconds: t.retryDelaySeconds } : {}),
        ...(h ? { held: h } : {}),
        pendingRequest: pending.some((p) => p.typeId === t.id),
        ...(nextRequestAt !== undefined ? { nextRequestAt } : {}),
      });
    }
    return out;
  }

  /**
   * Asks for a qualification: `granted` (AutoGranted types), `pending` (the requester
   * decides), or `test` (the QuestionForm to answer before `deadline`; asking again while
   * the test is open returns the same test).
   */
  requestQualification(workerId: string, qualificationTypeId: string): Promise<RequestOutcome> {
    return requestQualification(this.mp, workerId, qualificationTypeId);
  }

  /**
   * Submits a started test (question id -> selection id(s) or text). With an AnswerKey it
   * is scored and the qualification granted with the score at once; without, it waits
   * for the requester (AcceptQualificationRequest).
   */
  submitQualificationTest(workerId: string, qualificationTypeId: string, answers: TestAnswers): Promise<TestOutcome> {
    return submitQualificationTest(this.mp, workerId, qualificationTypeId, answers);
  }

  // ---- inbox and earnings

  /** Messages from requesters (NotifyWorkers) and qualification notices, newest first. */
  async listMessages(workerId: string): Promise<WorkerMessage[]> {
    const docs = await this.mp.models.messages.find({ workerId }).lean<MessageDoc[]>();
    return docs
      .sort((a, b) => b.sentAt.getTime() - a.sentAt.getTime() || (a._id < b._id ? 1 : -1))
      .map((m) => ({ messageId: m._id, subject: m.subject, text: m.text, sentAt: m.sentAt }));
  }

  earnings(workerId: string): Earnings {
    let approvedRewardsCents = 0;
    let bonusesCents = 0;
    for (const e of this.mp.ledger.all()) {
      if (e.workerId !== workerId) continue;
      if (e.kind === 'approval') approvedRewardsCents += e.rewardCents;
      if (e.kind === 'bonus') bonusesCents += e.rewardCents;
    }
    let pendingRewardsCents = 0;
    for (const hitId of this.mp.hits.workerHitIds(workerId)) {
      const hit = requireHit(this.mp, hitId);
      if (workerAssignment(hit, workerId)?.status === 'Submitted') pendingRewardsCents += hit.props.rewardCents;
    }
    return { approvedRewardsCents, bonusesCents, pendingRewardsCents };
  }
}
