import type { Marketplace } from '../core.js';
import { isDomainError } from '../domain/errors.js';
import { percentApproved } from '../domain/system-qualifications.js';
import type { WorkerDoc } from '../store/models.js';
import { KeyedMutex } from '../store/mutex.js';
import {
  countSubmissions,
  filterProblems,
  FILTER_IDS,
  hexId,
  isProlificId,
  ledgerCharge,
  MAXIMUM_ALLOWED_TIME,
  minimumAllowedTime,
  newProlificId,
  NO_CODE,
  parseBonusCsv,
  participantIdOf,
  participantUrl,
  passesFilters,
  serviceFee,
  settleStudy,
  transitionStudy,
  type CompletionCode,
  type Participant,
  type StudyFilter,
  type SubmissionCounts,
  type SubmissionStatus,
} from './domain.js';
import { badRequest, notFound, ProlificError, wrongState } from './errors.js';
import type { CreateStudy, SubmissionTransition, UpdateStudy } from './schemas.js';
import { prolificModels, save, type BulkBonusDoc, type GroupDoc, type ProlificModels, type StudyDoc, type SubmissionDoc } from './store.js';

/**
 * The Prolific side of the marketplace (the imperative shell around domain.ts): studies,
 * submissions, participant groups, bonuses and messages for the researcher API (api.ts),
 * and what a participant does (site.ts, drivers). One study changes at a time (its lock);
 * money moves through the marketplace's ledger, whose entries are idempotency keys:
 * an approval is `prolific-approval:<submission>`, posted before the submission is marked
 * APPROVED (a crash between the two is finished when the study is next read); a bonus
 * payment is `prolific-bonus:<bulk id>:<n>`, one entry per pay call, as Prolific pays again
 * on every call.
 */

/** Unreviewed submissions are approved after 21 days. */
const AUTO_APPROVE_MS = 21 * 24 * 3600_000;
const APPROVAL_KEY = 'prolific-approval:';
const BONUS_KEY = 'prolific-bonus:';

export interface StudyContext {
  study: StudyDoc;
  submissions: SubmissionDoc[];
}

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export class ProlificService {
  readonly models: ProlificModels;
  private readonly studyLocks = new KeyedMutex();
  private readonly bonusLocks = new KeyedMutex();
  readonly workspaceId: string;
  readonly projectId: string;
  readonly userId: string;

  constructor(readonly mp: Marketplace) {
    this.models = prolificModels(mp.models.settings.db);
    this.workspaceId = hexId(`prolific-workspace:${mp.settings.accessKeyId}`);
    this.projectId = hexId(`prolific-project:${mp.settings.accessKeyId}`);
    this.userId = hexId(`prolific-user:${mp.settings.accessKeyId}`);
  }

  private now(): Date {
    return this.mp.clock.now();
  }

  // ---- account

  async me(): Promise<Record<string, unknown>> {
    const { total_balance: balance, available_balance } = await this.balance();
    return {
      id: this.userId,
      email: 'researcher@marketplace.invalid',
      name: 'Marketplace researcher',
      user_type: 'researcher',
      current_workspace_id: this.workspaceId,
      currency_code: 'USD',
      balance,
      available_balance,
    };
  }

  workspace(): Record<string, unknown> {
    return {
      id: this.workspaceId,
      title: 'Marketplace workspace',
      description: 'The one workspace of this marketplace',
      owner: this.userId,
      users: [{ id: this.userId, name: 'Marketplace researcher', email: 'researcher@marketplace.invalid', roles: ['WORKSPACE_ADMIN'] }],
      projects: [{ id: this.projectId }],
      wallet: this.workspaceId,
      currency_code: 'USD',
    };
  }

  project(): Record<string, unknown> {
    return { id: this.projectId, title: 'Default project', description: '', owner: this.userId, workspace: this.workspaceId, users: [] };
  }

  checkWorkspace(id: string): void {
    if (id !== this.workspaceId) throw notFound('Workspace');
  }

  async balance(): Promise<{ total_balance: number; available_balance: number } & Record<string, unknown>> {
    const total = this.mp.ledger.balanceCents();
    const committed = await this.committedCents();
    const available = total - committed;
    const split = (cents: number) => {
      const rewards = Math.round((cents * 3) / 4);
      return { rewards, fees: cents - rewards, vat: 0 };
    };
    return {
      currency_code: 'USD',
      total_balance: total,
      balance_breakdown: split(total),
      available_balance: available,
      available_balance_breakdown: split(available),
    };
  }

  /** What the open places of published studies will cost (reward and fee), not yet paid. */
  private async committedCents(): Promise<number> {
    const studies = await this.models.studies.find({ status: { $in: ['ACTIVE', 'PAUSED', 'AWAITING REVIEW'] } }).lean<StudyDoc[]>();
    if (studies.length === 0) return 0;
    const submissions = await this.models.submissions.find({ study_id: { $in: studies.map((s) => s._id) } }).lean<SubmissionDoc[]>();
    let cents = 0;
    for (const s of studies) {
      const mine = submissions.filter((x) => x.study_id === s._id);
      const unpaid = mine.filter((x) => x.status === 'ACTIVE' || x.status === 'AWAITING REVIEW').length;
      const open = s.stopped ? 0 : Math.max(0, s.total_available_places - countSubmissions(mine.map((x) => x.status)).taken);
      cents += ledgerCharge(s.reward).totalCents * (unpaid + open);
    }
    return cents;
  }

  // ---- studies

  private async getStudyDoc(id: string): Promise<StudyDoc> {
    const doc = await this.models.studies.findById(id).lean<StudyDoc>();
    if (!doc) throw notFound('Study');
    return doc;
  }

  /**
   * Runs `fn` holding the study's lock, with its submissions brought up to date (overdue
   * ones timed out, 21-day-old ones approved, approvals a crash left half done finished),
   * then applies the automatic moves of the study's status and saves what changed.
   */
  async withStudy<T>(studyId: string, fn: (ctx: StudyContext) => Promise<T>): Promise<T> {
    return this.studyLocks.run(studyId, async () => {
      const study = await this.getStudyDoc(studyId);
      const submissions = await this.models.submissions.find({ study_id: studyId }).lean<SubmissionDoc[]>();
      const ctx: StudyContext = { study, submissions };
      await this.bringUpToDate(ctx);
      const result = await fn(ctx);
      const status = settleStudy(ctx.study, countSubmissions(ctx.submissions.map((s) => s.status)));
      if (status !== ctx.study.status) {
        ctx.study.status = status;
        await save(this.models.studies, ctx.study);
      }
      return result;
    });
  }

  private async bringUpToDate(ctx: StudyContext): Promise<void> {
    const now = this.now().getTime();
    for (const s of ctx.submissions) {
      if ((s.status === 'ACTIVE' || s.status === 'AWAITING REVIEW') && this.mp.ledger.get(APPROVAL_KEY + s._id)) {
        s.status = 'APPROVED';
        await save(this.models.submissions, s);
      } else if (s.status === 'ACTIVE' && s.started_at.getTime() + ctx.study.maximum_allowed_time * 60_000 < now) {
        s.status = 'TIMED-OUT';
        await save(this.models.submissions, s);
      } else if (s.status === 'AWAITING REVIEW' && (s.completed_at?.getTime() ?? now) + AUTO_APPROVE_MS < now) {
        await this.approve(ctx.study, s).catch((err: unknown) => {
          if (!(err instanceof ProlificError)) throw err; // not enough balance: tried again on the next read
        });
      }
    }
  }

  async createStudy(body: CreateStudy): Promise<Record<string, unknown>> {
    if (body.project !== undefined && body.project !== this.projectId) throw badRequest({ project: ['Project not found.'] });
    const now = this.now();
    const study: StudyDoc = {
      _id: newProlificId(now.getTime()),
      name: body.name,
      internal_name: body.internal_name ?? null,
      description: body.description,
      external_study_url: body.external_study_url,
      prolific_id_option: body.prolific_id_option,
      completion_codes: body.completion_codes,
      total_available_places: body.total_available_places,
      estimated_completion_time: body.estimated_completion_time,
      maximum_allowed_time: body.maximum_allowed_time ?? MAXIMUM_ALLOWED_TIME,
      reward: body.reward,
      device_compatibility: body.device_compatibility ?? [],
      peripheral_requirements: body.peripheral_requirements ?? [],
      filters: body.filters ?? [],
      project: this.projectId,
      submissions_config: {
        max_submissions_per_participant: body.submissions_config?.max_submissions_per_participant ?? 1,
        max_concurrent_submissions: body.submissions_config?.max_concurrent_submissions ?? -1,
      },
      study_labels: body.study_labels ?? [],
      metadata: body.metadata ?? null,
      status: 'UNPUBLISHED',
      stopped: false,
      date_created: now,
      published_at: null,
    };
    await this.checkStudy(study);
    await this.models.studies.create(study);
    return this.studyView(study, []);
  }

  private async checkStudy(study: StudyDoc): Promise<void> {
    const detail: Record<string, string[]> = {};
    const least = minimumAllowedTime(study.estimated_completion_time);
    if (study.maximum_allowed_time < least)
      detail.maximum_allowed_time = [
        `Must be at least ${least} minutes for an estimated completion time of ${study.estimated_completion_time}.`,
      ];
    const problems = filterProblems(study.filters);
    const groupIds = new Set<string>();
    for (const f of study.filters)
      if ('selected_values' in f && (f.filter_id === FILTER_IDS.groupAllow || f.filter_id === FILTER_IDS.groupBlock))
        f.selected_values.forEach((g) => groupIds.add(g));
    for (const c of study.completion_codes) for (const a of c.actions) if (a.participant_group) groupIds.add(a.participant_group);
    for (const g of groupIds) {
      const group = isProlificId(g) ? await this.models.groups.findById(g).lean<GroupDoc>() : null;
      if (!group || group.is_deleted) problems.push(`Participant group "${g}" not found.`);
    }
    if (problems.length) detail.filters = problems;
    if (study.completion_codes.filter((c) => c.actor === 'participant' && c.code === null).length > 0 && study.completion_codes.length > 1)
      detail.completion_codes = ['A null code is only allowed as the only participant code.'];
    if (Object.keys(detail).length) throw badRequest(detail);
  }

  async listStudies(state?: string): Promise<Record<string, unknown>> {
    const wanted = state ? new Set(state.split(',').map((s) => s.trim().toUpperCase())) : undefined;
    const studies = (await this.models.studies.find({}).lean<StudyDoc[]>())
      .filter((s) => !wanted || wanted.has(s.status))
      .sort((a, b) => a.date_created.getTime() - b.date_created.getTime());
    const submissions = studies.length
      ? await this.models.submissions.find({ study_id: { $in: studies.map((s) => s._id) } }).lean<SubmissionDoc[]>()
      : [];
    const results = studies.map((s) => {
      const view = this.studyView(
        s,
        submissions.filter((x) => x.study_id === s._id),
      );
      const short = [
        'id',
        'name',
        'internal_name',
        'status',
        'study_type',
        'total_available_places',
        'places_taken',
        'number_of_submissions',
        'reward',
        'total_cost',
        'published_at',
        'publish_at',
        'date_created',
      ];
      return Object.fromEntries(short.map((k) => [k, view[k]]));
    });
    return { results, _links: this.links('/api/v1/studies/'), meta: { count: results.length } };
  }

  links(path: string): Record<string, unknown> {
    return {
      self: { href: path, title: 'Current' },
      next: { href: null, title: 'Next' },
      previous: { href: null, title: 'Previous' },
      last: { href: path, title: 'Last' },
    };
  }

  async getStudy(id: string): Promise<Record<string, unknown>> {
    return this.withStudy(id, async (ctx) => ctx).then((ctx) => this.studyView(ctx.study, ctx.submissions));
  }

  studyView(s: StudyDoc, submissions: readonly SubmissionDoc[]): Record<string, unknown> {
    const counts = countSubmissions(submissions.map((x) => x.status));
    const { _id, stopped, date_created, published_at, ...fields } = s;
    void stopped;
    return {
      id: _id,
      ...fields,
      study_type: 'SINGLE',
      places_taken: counts.taken,
      number_of_submissions: submissions.length,
      total_cost: s.reward * s.total_available_places + serviceFee(s.reward * s.total_available_places),
      published_at: iso(published_at),
      publish_at: null,
      date_created: date_created.toISOString(),
      workspace: this.workspaceId,
      is_custom_screening: false,
      filter_set_id: null,
      filter_set_version: null,
      naivety_distribution_rate: null,
      eligible_participant_count: null,
      has_had_adverse_events: false,
    };
  }

  async updateStudy(id: string, body: UpdateStudy): Promise<Record<string, unknown>> {
    return this.withStudy(id, async (ctx) => {
      const s = ctx.study;
      if (s.status === 'UNPUBLISHED') {
        if (body.project !== undefined && body.project !== this.projectId) throw badRequest({ project: ['Project not found.'] });
        const merged: StudyDoc = { ...s };
        for (const [k, v] of Object.entries(body)) if (v !== undefined) (merged as unknown as Record<string, unknown>)[k] = v;
        if (body.submissions_config)
          merged.submissions_config = {
            max_submissions_per_participant: body.submissions_config.max_submissions_per_participant ?? 1,
            max_concurrent_submissions: body.submissions_config.max_concurrent_submissions ?? -1,
          };
        merged.filters = merged.filters ?? [];
        merged.project = this.projectId;
        await this.checkStudy(merged);
        ctx.study = merged;
      } else {
        const detail: Record<string, string[]> = {};
        for (const [k, v] of Object.entries(body)) {
          if (v === undefined || k === 'internal_name' || k === 'total_available_places') continue;
          if (JSON.stringify(v) !== JSON.stringify((s as unknown as Record<string, unknown>)[k]))
            detail[k] = ['This field cannot be changed once the study has been published.'];
        }
        const places = body.total_available_places;
        if (places !== undefined && places < s.total_available_places)
          detail.total_available_places = [`Places can only be increased (the study has ${s.total_available_places}).`];
        if (Object.keys(detail).length) throw badRequest(detail);
        if (body.internal_name !== undefined) s.internal_name = body.internal_name;
        if (places !== undefined && places > s.total_available_places) {
          s.total_available_places = places;
          // more places reopen a study that was full, stopped or completed
          if (s.status === 'AWAITING REVIEW' || s.status === 'COMPLETED') s.status = 'ACTIVE';
          s.stopped = false;
        }
      }
      await save(this.models.studies, ctx.study);
      return ctx;
    }).then((ctx) => this.studyView(ctx.study, ctx.submissions));
  }

  /** A draft copied from a study; unless told otherwise its participants are blocked (a previous_studies_blocklist filter). */
  async cloneStudy(id: string, blockPrevious: boolean): Promise<Record<string, unknown>> {
    const source = await this.getStudyDoc(id);
    const now = this.now();
    const copy: StudyDoc = {
      ...source,
      _id: newProlificId(now.getTime()),
      filters: [...source.filters, ...(blockPrevious ? [{ filter_id: FILTER_IDS.studiesBlock, selected_values: [id] }] : [])],
      status: 'UNPUBLISHED',
      stopped: false,
      date_created: now,
      published_at: null,
    };
    await this.models.studies.create(copy);
    return this.studyView(copy, []);
  }

  /** What the study has cost so far (approved rewards, paid bonuses), or with `projected` what all its places will. */
  async studyCost(id: string, projected: boolean): Promise<Record<string, unknown>> {
    const ctx = await this.withStudy(id, async (c) => c);
    const approved = ctx.submissions.filter((s) => s.status === 'APPROVED').length;
    const rewards = ctx.study.reward * (projected ? ctx.study.total_available_places : approved);
    const bulks = await this.models.bonuses.find({ study_id: id }).lean<BulkBonusDoc[]>();
    const bonuses = bulks.reduce((sum, b) => sum + this.paysOf(b._id) * b.lines.reduce((t, l) => t + l.cents, 0), 0);
    const money = (amount: number) => ({ amount, currency: 'USD' });
    const breakdown = (cents: number) => ({ rewards: money(cents), fees: money(serviceFee(cents)), tax: money(0) });
    return { rewards: breakdown(rewards), bonuses: breakdown(bonuses), _links: {} };
  }

  async deleteStudy(id: string): Promise<void> {
    await this.withStudy(id, async (ctx) => {
      if (ctx.study.status !== 'UNPUBLISHED') throw wrongState('Published studies cannot be deleted; only drafts (UNPUBLISHED) can.');
      await this.models.studies.deleteOne({ _id: id });
    });
  }

  async transitionStudy(id: string, action: string): Promise<Record<string, unknown>> {
    return this.withStudy(id, async (ctx) => {
      const counts = countSubmissions(ctx.submissions.map((s) => s.status));
      const next = transitionStudy(ctx.study, action, counts);
      if (!next.ok) throw next.detail.includes('valid action') ? badRequest({ action: [next.detail] }) : wrongState(next.detail);
      if (action === 'PUBLISH') {
        const cost = ledgerCharge(ctx.study.reward).totalCents * ctx.study.total_available_places;
        const available = this.mp.ledger.balanceCents() - (await this.committedCents());
        if (cost > available)
          throw new ProlificError(
            400,
            `Insufficient balance: publishing needs ${cost} cents (rewards and fees) and ${available} are available. The study stays UNPUBLISHED.`,
            'balance',
          );
        ctx.study.published_at = this.now();
      }
      ctx.study.status = next.status;
      ctx.study.stopped = next.stopped;
      await save(this.models.studies, ctx.study);
      return ctx;
    }).then((ctx) => this.studyView(ctx.study, ctx.submissions));
  }

  // ---- submissions

  private async getSubmissionDoc(id: string): Promise<SubmissionDoc> {
    const doc = isProlificId(id) ? await this.models.submissions.findById(id).lean<SubmissionDoc>() : null;
    if (!doc) throw notFound('Submission');
    return doc;
  }

  shortView(s: SubmissionDoc): Record<string, unknown> {
    return {
      id: s._id,
      participant_id: s.participant_id,
      status: s.status,
      started_at: s.started_at.toISOString(),
      completed_at: iso(s.completed_at),
      has_siblings: false,
      study_code: s.study_code,
      return_requested: iso(s.return_requested),
    };
  }

  private async detailView(s: SubmissionDoc): Promise<Record<string, unknown>> {
    const bulks = await this.models.bonuses.find({ study_id: s.study_id }).lean<BulkBonusDoc[]>();
    const bonus_payments: number[] = [];
    for (const b of bulks) {
      const pays = this.paysOf(b._id);
      for (const line of b.lines) if (line.submission_id === s._id) for (let i = 0; i < pays; i++) bonus_payments.push(line.cents);
    }
    return {
      id: s._id,
      study_id: s.study_id,
      participant: s.participant_id,
      status: s.status,
      started_at: s.started_at.toISOString(),
      completed_at: iso(s.completed_at),
      entered_code: s.study_code,
      bonus_payments,
      return_requested: iso(s.return_requested),
    };
  }

  async listSubmissions(studyId: string): Promise<Record<string, unknown>> {
    const ctx = await this.withStudy(studyId, async (c) => c);
    const results = [...ctx.submissions].sort((a, b) => a.started_at.getTime() - b.started_at.getTime()).map((s) => this.shortView(s));
    return { results, _links: this.links(`/api/v1/studies/${studyId}/submissions/`), meta: { count: results.length } };
  }

  async listAllSubmissions(query: { study?: string; status?: string }): Promise<Record<string, unknown>> {
    const filter: Record<string, unknown> = {};
    if (query.study) filter.study_id = query.study;
    if (query.status) filter.status = query.status.toUpperCase();
    const docs = (await this.models.submissions.find(filter).lean<SubmissionDoc[]>()).sort(
      (a, b) => a.started_at.getTime() - b.started_at.getTime(),
    );
    const results = docs.map((s) => ({ ...this.shortView(s), study_id: s.study_id }));
    return { results, _links: this.links('/api/v1/submissions/'), meta: { count: results.length } };
  }

  async getSubmission(id: string): Promise<Record<string, unknown>> {
    const doc = await this.getSubmissionDoc(id);
    const ctx = await this.withStudy(doc.study_id, async (c) => c);
    return this.detailView(ctx.submissions.find((s) => s._id === id) ?? doc);
  }

  /** Pays the reward (ledger first, idempotent by key), then marks the submission APPROVED. */
  private async approve(study: StudyDoc, s: SubmissionDoc): Promise<void> {
    const charge = ledgerCharge(study.reward);
    try {
      await this.mp.ledger.post(
        {
          key: APPROVAL_KEY + s._id,
          kind: 'approval',
          amountCents: -charge.totalCents,
          rewardCents: charge.rewardCents,
          feeCents: charge.feeCents,
          at: this.now(),
          workerId: s.worker_id,
          reason: `Prolific study ${study._id}, submission ${s._id}`,
        },
        { requireCover: true },
      );
    } catch (err) {
      if (isDomainError(err) && err.code === 'InsufficientFunds')
        throw new ProlificError(400, `Insufficient balance: ${err.message}`, 'balance');
      throw err;
    }
    s.status = 'APPROVED';
    await save(this.models.submissions, s);
  }

  async transitionSubmission(id: string, body: SubmissionTransition): Promise<Record<string, unknown>> {
    const doc = await this.getSubmissionDoc(id);
    const result = await this.withStudy(doc.study_id, async (ctx) => {
      const s = ctx.submissions.find((x) => x._id === id)!;
      switch (body.action) {
        case 'APPROVE':
          if (s.status === 'APPROVED') return s; // a repeat is ignored
          if (s.status !== 'AWAITING REVIEW')
            throw wrongState(`Cannot approve a submission whose status is ${s.status}: only submissions AWAITING REVIEW can be approved.`);
          await this.approve(ctx.study, s);
          return s;
        case 'REJECT':
          if (s.status === 'REJECTED') return s;
          if (s.status !== 'AWAITING REVIEW')
            throw wrongState(`Cannot reject a submission whose status is ${s.status}: only submissions AWAITING REVIEW can be rejected.`);
          s.status = 'REJECTED';
          s.rejection = { message: body.message, category: body.rejection_category };
          await save(this.models.submissions, s);
          await this.notify(s.worker_id, `Your submission to "${ctx.study.name}" was rejected (${body.rejection_category})`, body.message);
          return s;
        case 'COMPLETE': {
          const code = ctx.study.completion_codes.find((c) => c.code === body.completion_code);
          if (!code || code.actor !== 'researcher')
            throw badRequest({ completion_code: ['The completion code must be one of the study\'s codes whose actor is "researcher".'] });
          if (s.status !== 'ACTIVE') throw wrongState(`Cannot complete a submission whose status is ${s.status}.`);
          await this.complete(ctx, s, code, body.completion_code);
          return s;
        }
      }
    });
    return this.detailView(result);
  }

  /** A submission reaches its completion code: the code's actions run. */
  private async complete(ctx: StudyContext, s: SubmissionDoc, code: CompletionCode | undefined, entered: string): Promise<void> {
    s.status = 'AWAITING REVIEW';
    s.completed_at = this.now();
    s.study_code = entered;
    await save(this.models.submissions, s);
    for (const action of code?.actions ?? []) {
      if (action.action === 'AUTOMATICALLY_APPROVE') {
        await this.approve(ctx.study, s).catch((err: unknown) => {
          if (!(err instanceof ProlificError)) throw err; // not enough balance: it waits for review
        });
      } else if (action.action === 'ADD_TO_PARTICIPANT_GROUP' || action.action === 'REMOVE_FROM_PARTICIPANT_GROUP') {
        const ids = [s.participant_id];
        if (action.participant_group) {
          await (
            action.action === 'ADD_TO_PARTICIPANT_GROUP'
              ? this.addMembers(action.participant_group, ids)
              : this.removeMembers(action.participant_group, ids)
          ).catch((err: unknown) => {
            if (!(err instanceof ProlificError)) throw err; // the group was deleted meanwhile
          });
        }
      } else if (action.action === 'REQUEST_RETURN') {
        s.return_requested = this.now();
        await save(this.models.submissions, s);
        await this.notify(
          s.worker_id,
          `The researcher of "${ctx.study.name}" asks you to return your submission`,
          action.return_reason ?? '',
        );
      }
    }
  }

  async bulkApprove(body: { submission_ids: string[] } | { study_id: string; participant_ids: string[] }): Promise<string> {
    let byStudy: Map<string, (s: SubmissionDoc) => boolean>;
    if ('submission_ids' in body) {
      const docs = await this.models.submissions.find({ _id: { $in: body.submission_ids } }).lean<SubmissionDoc[]>();
      const missing = body.submission_ids.filter((i) => !docs.some((d) => d._id === i));
      if (missing.length) throw badRequest({ submission_ids: missing.map((i) => `Submission ${i} not found.`) });
      byStudy = new Map();
      const wanted = new Set(body.submission_ids);
      for (const d of docs) byStudy.set(d.study_id, (s) => wanted.has(s._id));
    } else {
      await this.getStudyDoc(body.study_id);
      const wanted = new Set(body.participant_ids);
      byStudy = new Map([[body.study_id, (s: SubmissionDoc) => wanted.has(s.participant_id)]]);
    }
    for (const [studyId, chosen] of byStudy) {
      await this.withStudy(studyId, async (ctx) => {
        for (const s of ctx.submissions) if (chosen(s) && s.status === 'AWAITING REVIEW') await this.approve(ctx.study, s);
      });
    }
    return 'The request to bulk approve has been made successfully.';
  }

  async requestReturn(id: string, reasons: string[]): Promise<Record<string, unknown>> {
    const doc = await this.getSubmissionDoc(id);
    const s = await this.withStudy(doc.study_id, async (ctx) => {
      const sub = ctx.submissions.find((x) => x._id === id)!;
      if (sub.status !== 'ACTIVE' && sub.status !== 'AWAITING REVIEW')
        throw wrongState(`Cannot request the return of a submission whose status is ${sub.status}.`);
      sub.return_requested = this.now();
      await save(this.models.submissions, sub);
      await this.notify(sub.worker_id, `The researcher of "${ctx.study.name}" asks you to return your submission`, reasons.join('\n'));
      return sub;
    });
    return { id: s._id, status: s.status, participant: s.participant_id, return_requested: iso(s.return_requested) };
  }

  // ---- participant groups

  groupView(g: GroupDoc, studies: readonly StudyDoc[] = []): Record<string, unknown> {
    const feeder_studies = studies
      .map((s) => ({
        id: s._id,
        name: s.name,
        internal_name: s.internal_name,
        status: s.status,
        feeder_completion_codes: s.completion_codes.flatMap((c) =>
          c.actions.filter((a) => a.participant_group === g._id).map((a) => ({ code: c.code, code_type: c.code_type, action: a.action })),
        ),
      }))
      .filter((s) => s.feeder_completion_codes.length > 0);
    return {
      id: g._id,
      name: g.name,
      project_id: null,
      workspace_id: g.workspace_id,
      organisation_id: null,
      description: g.description,
      participant_count: g.participants.length,
      is_deleted: g.is_deleted,
      feeder_studies,
    };
  }

  async getGroupDoc(id: string, opts: { deletedToo?: boolean } = {}): Promise<GroupDoc> {
    const g = isProlificId(id) ? await this.models.groups.findById(id).lean<GroupDoc>() : null;
    if (!g || (g.is_deleted && !opts.deletedToo)) throw notFound('Participant group');
    return g;
  }

  async createGroup(body: {
    name: string;
    project_id?: string | undefined;
    workspace_id?: string | undefined;
    organisation_id?: string | undefined;
    description?: string | null | undefined;
    participant_ids?: string[] | undefined;
  }): Promise<Record<string, unknown>> {
    if (body.workspace_id !== undefined && body.workspace_id !== this.workspaceId)
      throw badRequest({ workspace_id: ['Workspace not found.'] });
    if (body.project_id !== undefined && body.project_id !== this.projectId) throw badRequest({ project_id: ['Project not found.'] });
    if (body.organisation_id !== undefined)
      throw badRequest({ organisation_id: ['This marketplace has no organisations: give workspace_id.'] });
    const now = this.now();
    const g: GroupDoc = {
      _id: newProlificId(now.getTime()),
      name: body.name,
      workspace_id: this.workspaceId,
      description: body.description ?? null,
      participants: [...new Set(body.participant_ids ?? [])].map((participant_id) => ({ participant_id, datetime_created: now })),
      is_deleted: false,
      date_created: now,
    };
    await this.models.groups.create(g);
    return this.groupView(g);
  }

  async listGroups(query: { workspace_id?: string; active?: string }): Promise<Record<string, unknown>> {
    if (query.workspace_id !== undefined && query.workspace_id !== this.workspaceId) return { results: [] };
    const groups = (await this.models.groups.find({}).lean<GroupDoc[]>()).sort(
      (a, b) => a.date_created.getTime() - b.date_created.getTime(),
    );
    const chosen = groups.filter((g) => (query.active === 'false' ? g.is_deleted : query.active === 'true' ? !g.is_deleted : true));
    const studies = await this.models.studies.find({}).lean<StudyDoc[]>();
    return { results: chosen.map((g) => this.groupView(g, studies)) };
  }

  async getGroup(id: string): Promise<Record<string, unknown>> {
    const g = await this.getGroupDoc(id, { deletedToo: true });
    return this.groupView(g, await this.models.studies.find({}).lean<StudyDoc[]>());
  }

  async updateGroup(
    id: string,
    body: { name?: string | undefined; description?: string | null | undefined; participant_ids?: string[] | undefined },
  ): Promise<Record<string, unknown>> {
    return this.studyLocks.run(`group:${id}`, async () => {
      const g = await this.getGroupDoc(id);
      if (body.name !== undefined) g.name = body.name;
      if (body.description !== undefined) g.description = body.description;
      if (body.participant_ids !== undefined) {
        const now = this.now();
        const kept = new Map(g.participants.map((m) => [m.participant_id, m]));
        g.participants = [...new Set(body.participant_ids)].map((p) => kept.get(p) ?? { participant_id: p, datetime_created: now });
      }
      await save(this.models.groups, g);
      return this.groupView(g);
    });
  }

  /** Soft deletion, as Prolific: the group keeps its id and is listed with `is_deleted`. */
  async deleteGroup(id: string): Promise<void> {
    await this.studyLocks.run(`group:${id}`, async () => {
      const g = await this.getGroupDoc(id);
      g.is_deleted = true;
      await save(this.models.groups, g);
    });
  }

  membersView(g: GroupDoc): Record<string, unknown> {
    return {
      results: g.participants.map((m) => ({ participant_id: m.participant_id, datetime_created: m.datetime_created.toISOString() })),
    };
  }

  async members(id: string): Promise<Record<string, unknown>> {
    return this.membersView(await this.getGroupDoc(id));
  }

  /** Adds participants (members already there are left as they are). */
  async addMembers(id: string, ids: string[]): Promise<Record<string, unknown>> {
    return this.studyLocks.run(`group:${id}`, async () => {
      const g = await this.getGroupDoc(id);
      const now = this.now();
      const have = new Set(g.participants.map((m) => m.participant_id));
      for (const p of ids) {
        if (have.has(p)) continue;
        have.add(p);
        g.participants.push({ participant_id: p, datetime_created: now });
      }
      await save(this.models.groups, g);
      return this.membersView(g);
    });
  }

  /** Removes participants (ids not in the group are ignored). */
  async removeMembers(id: string, ids: string[]): Promise<Record<string, unknown>> {
    return this.studyLocks.run(`group:${id}`, async () => {
      const g = await this.getGroupDoc(id);
      const gone = new Set(ids);
      g.participants = g.participants.filter((m) => !gone.has(m.participant_id));
      await save(this.models.groups, g);
      return this.membersView(g);
    });
  }

  // ---- bonuses

  private paysOf(bulkId: string): number {
    const prefix = `${BONUS_KEY}${bulkId}:`;
    return this.mp.ledger.all().filter((e) => e.key.startsWith(prefix)).length;
  }

  private bonusView(b: BulkBonusDoc): Record<string, unknown> {
    const amount = b.lines.reduce((sum, l) => sum + l.cents, 0);
    const fees = serviceFee(amount);
    return { id: b._id, study: b.study_id, amount, fees, vat: 0, total_amount: Math.round((amount + fees) * 100) / 100 };
  }

  /** Sets bonuses up (nothing is paid): every id must be a participant or submission of the study. */
  async createBonuses(studyId: string, csv: string): Promise<Record<string, unknown>> {
    const parsed = parseBonusCsv(csv);
    if (!parsed.ok) throw badRequest({ csv_bonuses: parsed.problems });
    const ctx = await this.withStudy(studyId, async (c) => c).catch((err: unknown) => {
      if (err instanceof ProlificError && err.status === 404) throw badRequest({ study_id: ['Study not found.'] });
      throw err;
    });
    const lines = [];
    const unknown: string[] = [];
    for (const l of parsed.lines) {
      const sub = ctx.submissions.find((s) => s._id === l.id) ?? ctx.submissions.find((s) => s.participant_id === l.id);
      if (sub) lines.push({ participant_id: sub.participant_id, submission_id: sub._id, cents: l.cents });
      else unknown.push(l.id);
    }
    if (unknown.length) throw badRequest({ csv_bonuses: [`These ids did not take part in study ${studyId}: ${unknown.join(', ')}`] });
    const now = this.now();
    const doc: BulkBonusDoc = { _id: newProlificId(now.getTime()), study_id: studyId, lines, created_at: now };
    await this.models.bonuses.create(doc);
    return this.bonusView(doc);
  }

  /**
   * Pays a bulk bonus: one ledger entry for its amount and fees. As on Prolific, every
   * call pays again (the n-th call posts `prolific-bonus:<id>:<n>`); a client that sends
   * `Idempotency-Key` (this marketplace's addition) pays once per key instead. A crash
   * leaves the payment wholly posted or not at all.
   */
  async payBonuses(id: string, idempotencyKey?: string): Promise<string> {
    const b = isProlificId(id) ? await this.models.bonuses.findById(id).lean<BulkBonusDoc>() : null;
    if (!b) throw notFound('Bulk bonus payment');
    await this.bonusLocks.run(id, async () => {
      const amount = b.lines.reduce((sum, l) => sum + l.cents, 0);
      const charge = ledgerCharge(amount);
      const suffix = idempotencyKey !== undefined ? `key:${idempotencyKey}` : String(this.paysOf(id) + 1);
      try {
        await this.mp.ledger.post(
          {
            key: `${BONUS_KEY}${id}:${suffix}`,
            kind: 'bonus',
            amountCents: -charge.totalCents,
            rewardCents: charge.rewardCents,
            feeCents: charge.feeCents,
            at: this.now(),
            reason: `Prolific bulk bonus ${id} (study ${b.study_id}): ${b.lines.map((l) => `${l.participant_id} ${l.cents}`).join(', ')}`,
          },
          { requireCover: true },
        );
      } catch (err) {
        if (isDomainError(err) && err.code === 'InsufficientFunds')
          throw new ProlificError(400, `Insufficient balance: ${err.message}`, 'balance');
        throw err;
      }
    });
    return 'The bonuses will be paid shortly.';
  }

  // ---- messages

  private async notify(workerId: string, subject: string, text: string): Promise<void> {
    await this.mp.models.messages.create({
      _id: `prolific:${newProlificId(this.now().getTime())}`,
      workerId,
      subject,
      text,
      sentAt: this.now(),
    });
  }

  /** Sends a message to participants of the study (they see it in their inbox on the worker site). */
  async sendMessages(recipients: string[], studyId: string, body: string): Promise<void> {
    const study = await this.getStudyDoc(studyId).catch(() => {
      throw badRequest({ study_id: ['Study not found.'] });
    });
    const submissions = await this.models.submissions.find({ study_id: studyId }).lean<SubmissionDoc[]>();
    const workers = new Map<string, string>();
    const strangers: string[] = [];
    for (const r of recipients) {
      const sub = submissions.find((s) => s.participant_id === r);
      if (sub) workers.set(r, sub.worker_id);
      else strangers.push(r);
    }
    if (strangers.length) throw badRequest({ recipient_id: [`Not a participant of study ${studyId}: ${strangers.join(', ')}`] });
    await this.deliver(workers, studyId, body, `A message about the study "${study.name}"`);
  }

  /** Keeps each message for GET /messages/ and puts it in the worker's inbox on the worker site. */
  private async deliver(recipients: Map<string, string>, studyId: string | null, body: string, subject: string): Promise<void> {
    for (const [participantId, workerId] of recipients) {
      const now = this.now();
      await this.models.messages.create({
        _id: newProlificId(now.getTime()),
        sender_id: this.userId,
        recipient_id: participantId,
        study_id: studyId,
        body,
        sent_at: now,
      });
      await this.notify(workerId, subject, body);
    }
  }

  async messageGroup(groupId: string, body: string, studyId?: string): Promise<void> {
    const g = await this.getGroupDoc(groupId).catch(() => {
      throw badRequest({ participant_group_id: ['Participant group not found.'] });
    });
    const members = new Set(g.participants.map((m) => m.participant_id));
    const submissions = (await this.models.submissions.find({}).lean<SubmissionDoc[]>()).filter((s) => members.has(s.participant_id));
    const reached = new Map(submissions.map((s) => [s.participant_id, s.worker_id]));
    await this.deliver(reached, studyId ?? null, body, `A message from the researcher of group "${g.name}"`);
  }

  async listMessages(query: { user_id?: string; created_after?: string }): Promise<Record<string, unknown>> {
    if (query.user_id === undefined && query.created_after === undefined)
      throw badRequest({ non_field_errors: ['Give user_id or created_after.'] });
    let after = 0;
    if (query.created_after !== undefined) {
      after = Date.parse(query.created_after);
      if (Number.isNaN(after)) throw badRequest({ created_after: ['Enter a valid ISO 8601 date and time.'] });
    }
    const docs = await this.models.messages.find(query.user_id !== undefined ? { recipient_id: query.user_id } : {}).lean();
    const results = docs
      .filter((m) => m.sent_at.getTime() > after)
      .sort((a, b) => a.sent_at.getTime() - b.sent_at.getTime())
      .map((m) => ({
        id: m._id,
        sender_id: m.sender_id,
        recipient_id: m.recipient_id,
        body: m.body,
        sent_at: m.sent_at.toISOString(),
        type: 'message',
        channel_id: hexId(`channel:${m.sender_id}:${m.recipient_id}`, 64),
        data: { study_id: m.study_id },
      }));
    return { results };
  }

  // ---- the participant's side

  /** What eligibility reads of a worker: approvals here (HITs and studies) and before, country, groups. */
  async participant(workerId: string): Promise<Participant | undefined> {
    const worker = await this.mp.models.workers.findById(workerId).lean<WorkerDoc>();
    if (!worker) return undefined;
    const participantId = participantIdOf(workerId);
    const stats = { ...this.mp.hits.statsFor(workerId) };
    const mine = await this.models.submissions.find({ participant_id: participantId }).lean<SubmissionDoc[]>();
    for (const s of mine) {
      if (s.status === 'APPROVED' || s.status === 'REJECTED') stats.submitted++;
      if (s.status === 'APPROVED') stats.approved++;
      if (s.status === 'REJECTED') stats.rejected++;
    }
    const groups = (await this.models.groups.find({}).lean<GroupDoc[]>())
      .filter((g) => !g.is_deleted && g.participants.some((m) => m.participant_id === participantId))
      .map((g) => g._id);
    return {
      participantId,
      studies: new Set(mine.filter((s) => s.status !== 'RETURNED' && s.status !== 'TIMED-OUT').map((s) => s.study_id)),
      approvalRate: percentApproved(worker.profile, stats),
      approvals: worker.profile.baseline.approved + stats.approved,
      country: worker.profile.locale.Country,
      groups: new Set(groups),
    };
  }

  /** Why `p` may not start the study now, or undefined when they may. */
  private whyNot(p: Participant, ctx: StudyContext): string | undefined {
    const { study, submissions } = ctx;
    if (study.status !== 'ACTIVE') return 'This study is not taking participants now.';
    const counts: SubmissionCounts = countSubmissions(submissions.map((s) => s.status));
    if (counts.taken >= study.total_available_places) return 'All places of this study are taken.';
    const max = study.submissions_config.max_concurrent_submissions;
    if (max > 0 && counts.active >= max) return 'This study has as many participants at work as it allows; try again later.';
    const own = submissions.filter((s) => s.participant_id === p.participantId).length;
    const perParticipant = study.submissions_config.max_submissions_per_participant;
    if (perParticipant !== -1 && own >= perParticipant) return 'You have already taken part in this study.';
    if (!passesFilters(p, study.filters)) return 'You are not eligible for this study.';
    return undefined;
  }

  /** The studies a worker may start now, newest first. */
  async availableStudies(workerId: string): Promise<Array<{ study: Record<string, unknown>; placesLeft: number }>> {
    const p = await this.participant(workerId);
    if (!p) return [];
    const studies = await this.models.studies.find({ status: 'ACTIVE' }).lean<StudyDoc[]>();
    const out = [];
    for (const s of studies.sort((a, b) => (b.published_at?.getTime() ?? 0) - (a.published_at?.getTime() ?? 0))) {
      const ctx = await this.withStudy(s._id, async (c) => c);
      if (this.whyNot(p, ctx) !== undefined) continue;
      const view = this.studyView(ctx.study, ctx.submissions);
      out.push({
        study: view,
        placesLeft: ctx.study.total_available_places - countSubmissions(ctx.submissions.map((x) => x.status)).taken,
      });
    }
    return out;
  }

  /**
   * A worker starts a study: a submission (ACTIVE) takes a place, and the worker goes to
   * the study's URL with PROLIFIC_PID, STUDY_ID and SESSION_ID (the submission id). A
   * worker whose submission of this study is still ACTIVE is sent back to it.
   */
  async startStudy(workerId: string, studyId: string): Promise<{ submissionId: string; url: string }> {
    const p = await this.participant(workerId);
    if (!p) throw new ProlificError(403, 'Unknown worker.');
    return this.withStudy(studyId, async (ctx) => {
      const url = (sessionId: string) =>
        participantUrl(ctx.study.external_study_url, ctx.study.prolific_id_option, { participantId: p.participantId, studyId, sessionId });
      const open = ctx.submissions.find((s) => s.participant_id === p.participantId && s.status === 'ACTIVE');
      if (open) return { submissionId: open._id, url: url(open._id) };
      const why = this.whyNot(p, ctx);
      if (why !== undefined) throw new ProlificError(403, why, 'state');
      const now = this.now();
      const s: SubmissionDoc = {
        _id: newProlificId(now.getTime()),
        study_id: studyId,
        participant_id: p.participantId,
        worker_id: workerId,
        status: 'ACTIVE',
        started_at: now,
        completed_at: null,
        study_code: null,
        return_requested: null,
      };
      await this.models.submissions.create(s);
      ctx.submissions.push(s);
      return { submissionId: s._id, url: url(s._id) };
    });
  }

  /**
   * The participant's browser reached the completion URL with `code` (none: NOCODE): their
   * ACTIVE submission of the study that has this code (else their latest ACTIVE one) is
   * completed and the code's actions run. Undefined when they have no ACTIVE submission.
   */
  async completeStudy(workerId: string, code: string | undefined): Promise<{ submission: SubmissionDoc; study: StudyDoc } | undefined> {
    const participantId = participantIdOf(workerId);
    const open = (await this.models.submissions.find({ participant_id: participantId, status: 'ACTIVE' }).lean<SubmissionDoc[]>()).sort(
      (a, b) => b.started_at.getTime() - a.started_at.getTime(),
    );
    if (open.length === 0) return undefined;
    const entered = code?.trim() || NO_CODE;
    const studies = await this.models.studies.find({ _id: { $in: open.map((s) => s.study_id) } }).lean<StudyDoc[]>();
    const matching = open.find((s) =>
      studies.find((st) => st._id === s.study_id)?.completion_codes.some((c) => c.code === entered && c.actor === 'participant'),
    );
    const target = matching ?? open[0]!;
    return this.withStudy(target.study_id, async (ctx) => {
      const s = ctx.submissions.find((x) => x._id === target._id)!;
      if (s.status !== 'ACTIVE') return { submission: s, study: ctx.study }; // timed out meanwhile
      const codeDef = ctx.study.completion_codes.find((c) => c.code === entered && c.actor === 'participant');
      await this.complete(ctx, s, codeDef, entered);
      return { submission: s, study: ctx.study };
    });
  }

  /** Returning: the participant gives the place back (RETURNED). */
  async returnSubmission(workerId: string, submissionId: string): Promise<void> {
    const doc = await this.getSubmissionDoc(submissionId);
    if (doc.worker_id !== workerId) throw notFound('Submission');
    await this.withStudy(doc.study_id, async (ctx) => {
      const s = ctx.submissions.find((x) => x._id === submissionId)!;
      if (s.status !== 'ACTIVE' && s.status !== 'AWAITING REVIEW') throw wrongState(`A submission ${s.status} cannot be returned.`);
      s.status = 'RETURNED';
      await save(this.models.submissions, s);
    });
  }

  /** A worker's own submissions, newest first, with their studies' names. */
  async mySubmissions(workerId: string): Promise<Array<{ submission: SubmissionDoc; studyName: string; reward: number }>> {
    const mine = await this.models.submissions.find({ participant_id: participantIdOf(workerId) }).lean<SubmissionDoc[]>();
    const studies = mine.length
      ? await this.models.studies.find({ _id: { $in: [...new Set(mine.map((s) => s.study_id))] } }).lean<StudyDoc[]>()
      : [];
    return mine
      .sort((a, b) => b.started_at.getTime() - a.started_at.getTime())
      .map((s) => {
        const st = studies.find((x) => x._id === s.study_id);
        return { submission: s, studyName: st?.name ?? s.study_id, reward: st?.reward ?? 0 };
      });
  }
}

export type { StudyFilter, SubmissionStatus };
