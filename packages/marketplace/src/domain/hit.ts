import { assignmentIdFor } from '../ids.js';
import { DomainError } from './errors.js';
import { DAY_MS, type AssignmentStatus, type EventType, type HitStatus, type Requirement } from './types.js';

/**
 * The HIT and assignment lifecycles, as pure functions of (state, now). Every change
 * returns a new state whose `pendingEvents` carry the notifications it causes, so the
 * state change and its events are written in one atomic document write.
 *
 * HIT: Assignable -> Unassignable (every slot taken) -> Reviewable (nothing in progress,
 * and every slot submitted or the HIT expired) <-> Reviewing -> Disposed.
 * Assignment: Accepted -> Submitted -> Approved | Rejected (a Rejected one may still be
 * approved with OverrideRejection within 30 days); Accepted work that passes its
 * deadline is abandoned and its slot returns, as does returned work.
 */

export interface HitTypeProps {
  title: string;
  description: string;
  keywords?: string;
  /** The reward as given ("0.5"); `rewardCents` is what is paid. */
  reward: string;
  rewardCents: number;
  assignmentDurationSeconds: number;
  autoApprovalDelaySeconds: number;
  qualificationRequirements: Requirement[];
}

export interface AssignmentState {
  id: string;
  workerId: string;
  status: AssignmentStatus;
  acceptTime: Date;
  deadline: Date;
  submitTime?: Date;
  autoApprovalTime?: Date;
  approvalTime?: Date;
  rejectionTime?: Date;
  requesterFeedback?: string;
}

export interface HitEvent {
  key: string;
  type: EventType;
  at: Date;
  hitId: string;
  hitTypeId: string;
  assignmentId?: string;
}

export interface HitState {
  id: string;
  typeId: string;
  groupId: string;
  creationTime: Date;
  props: HitTypeProps;
  maxAssignments: number;
  expiration: Date;
  requesterAnnotation?: string;
  reviewing: boolean;
  disposed: boolean;
  /** HITExpired was emitted for the current expiration. */
  expiredNoticed: boolean;
  /** HITReviewable was emitted since the HIT last became reviewable. */
  reviewableNoticed: boolean;
  nextSeq: number;
  eventSeq: number;
  /** UniqueRequestTokens of CreateAdditionalAssignmentsForHIT calls in the last 24 hours. */
  extensionTokens?: { token: string; at: Date }[];
  /** Assignments that hold a slot: in progress, submitted, approved or rejected. */
  assignments: AssignmentState[];
  pendingEvents: HitEvent[];
}

export const OVERRIDE_REJECTION_WINDOW_MS = 30 * DAY_MS;

const submittedish = (a: AssignmentState) => a.status !== 'Accepted';

function emit(hit: HitState, type: EventType, at: Date, assignmentId?: string): HitState {
  const event: HitEvent = {
    key: `${hit.id}:${hit.eventSeq}:${type}`,
    type,
    at,
    hitId: hit.id,
    hitTypeId: hit.typeId,
    ...(assignmentId ? { assignmentId } : {}),
  };
  return { ...hit, eventSeq: hit.eventSeq + 1, pendingEvents: [...hit.pendingEvents, event] };
}

export interface HitCounts {
  pending: number;
  available: number;
  completed: number;
  awaitingReview: number;
}

export function countsOf(hit: HitState): HitCounts {
  let pending = 0;
  let completed = 0;
  let awaitingReview = 0;
  for (const a of hit.assignments) {
    if (a.status === 'Accepted') pending++;
    else if (a.status === 'Submitted') awaitingReview++;
    else completed++;
  }
  return { pending, available: Math.max(0, hit.maxAssignments - hit.assignments.length), completed, awaitingReview };
}

function statusIgnoringReview(hit: HitState, now: Date): Exclude<HitStatus, 'Reviewing' | 'Disposed'> {
  const { pending, available } = countsOf(hit);
  const expired = now.getTime() >= hit.expiration.getTime();
  if (!expired && available > 0) return 'Assignable';
  if (pending > 0) return 'Unassignable';
  return 'Reviewable';
}

/** The HIT's status at `now` (for a settled state; see `settle`). */
export function statusOf(hit: HitState, now: Date): HitStatus {
  if (hit.disposed) return 'Disposed';
  if (hit.reviewing) return 'Reviewing';
  return statusIgnoringReview(hit, now);
}

/**
 * Applies what time alone changes: overdue work is abandoned (its slot returns), the
 * HIT expires, it becomes reviewable. Every other transition calls this first and last.
 */
export function settle(hit: HitState, now: Date): HitState {
  if (hit.disposed) return hit;
  let h = hit;
  const overdue = h.assignments.filter((a) => a.status === 'Accepted' && a.deadline.getTime() <= now.getTime());
  if (overdue.length > 0) {
    h = { ...h, assignments: h.assignments.filter((a) => !overdue.includes(a)) };
    for (const a of overdue) h = emit(h, 'AssignmentAbandoned', a.deadline, a.id);
  }
  if (h.reviewing && statusIgnoringReview(h, now) !== 'Reviewable') h = { ...h, reviewing: false };
  if (!h.expiredNoticed && now.getTime() >= h.expiration.getTime()) {
    h = emit({ ...h, expiredNoticed: true }, 'HITExpired', h.expiration);
  }
  const status = statusOf(h, now);
  if (status === 'Reviewable' || status === 'Reviewing') {
    if (!h.reviewableNoticed) h = emit({ ...h, reviewableNoticed: true }, 'HITReviewable', now);
  } else if (h.reviewableNoticed) {
    h = { ...h, reviewableNoticed: false };
  }
  return h;
}

/** The next moment time alone changes this HIT (deadline, expiry, auto-approval). */
export function dueAt(hit: HitState): Date | undefined {
  if (hit.disposed) return undefined;
  let due = hit.expiredNoticed ? Infinity : hit.expiration.getTime();
  for (const a of hit.assignments) {
    if (a.status === 'Accepted') due = Math.min(due, a.deadline.getTime());
    else if (a.status === 'Submitted' && a.autoApprovalTime) due = Math.min(due, a.autoApprovalTime.getTime());
  }
  return Number.isFinite(due) ? new Date(due) : undefined;
}

/** Submitted assignments whose auto-approval time has come. */
export function autoApprovalsDue(hit: HitState, now: Date): string[] {
  return hit.assignments
    .filter((a) => a.status === 'Submitted' && a.autoApprovalTime && a.autoApprovalTime.getTime() <= now.getTime())
    .map((a) => a.id);
}

export interface NewHit {
  id: string;
  typeId: string;
  groupId: string;
  props: HitTypeProps;
  maxAssignments: number;
  lifetimeSeconds: number;
  requesterAnnotation?: string;
}

export function createHit(params: NewHit, now: Date): HitState {
  const hit: HitState = {
    id: params.id,
    typeId: params.typeId,
    groupId: params.groupId,
    creationTime: now,
    props: params.props,
    maxAssignments: params.maxAssignments,
    expiration: new Date(now.getTime() + params.lifetimeSeconds * 1000),
    ...(params.requesterAnnotation !== undefined ? { requesterAnnotation: params.requesterAnnotation } : {}),
    reviewing: false,
    disposed: false,
    expiredNoticed: false,
    reviewableNoticed: false,
    nextSeq: 1,
    eventSeq: 1,
    assignments: [],
    pendingEvents: [],
  };
  return settle(emit(hit, 'HITCreated', now), now);
}

function assignmentOf(hit: HitState, assignmentId: string): AssignmentState | undefined {
  return hit.assignments.find((a) => a.id === assignmentId);
}

function replaceAssignment(hit: HitState, next: AssignmentState): HitState {
  return { ...hit, assignments: hit.assignments.map((a) => (a.id === next.id ? next : a)) };
}

function requireVisible(hit: HitState, assignmentId: string): AssignmentState {
  const a = assignmentOf(hit, assignmentId);
  // work in progress is invisible to the requester API, as on MTurk
  if (!a || a.status === 'Accepted') throw new DomainError('AssignmentDoesNotExist', `Assignment ${assignmentId} does not exist.`);
  return a;
}

function requireLive(hit: HitState): void {
  if (hit.disposed)
    throw new DomainError(
      'InvalidHITState',
      `This HIT is currently in the state 'Disposed'. This operation can be called with a status of: Assignable, Unassignable, Reviewable, Reviewing`,
    );
}

/** A worker takes a slot. Qualification and block checks are the caller's (they need the worker). */
export function acceptAssignment(hit: HitState, workerId: string, now: Date): { hit: HitState; assignment: AssignmentState } {
  const h = settle(hit, now);
  const status = statusOf(h, now);
  if (status !== 'Assignable') {
    throw new DomainError(
      'HITNotAvailable',
      `This HIT is no longer available to accept (status ${status}${now.getTime() >= h.expiration.getTime() ? ', expired' : ''}).`,
    );
  }
  const existing = h.assignments.find((a) => a.workerId === workerId);
  if (existing) throw new DomainError('AlreadyWorkedOn', `You have already worked on this HIT (assignment ${existing.id}).`);
  const assignment: AssignmentState = {
    id: assignmentIdFor(h.id, h.nextSeq),
    workerId,
    status: 'Accepted',
    acceptTime: now,
    deadline: new Date(now.getTime() + h.props.assignmentDurationSeconds * 1000),
  };
  const next = emit(
    { ...h, nextSeq: h.nextSeq + 1, assignments: [...h.assignments, assignment] },
    'AssignmentAccepted',
    now,
    assignment.id,
  );
  return { hit: settle(next, now), assignment };
}

function requireOwnInProgress(hit: HitState, assignmentId: string, workerId: string): AssignmentState {
  const a = assignmentOf(hit, assignmentId);
  if (!a) throw new DomainError('AssignmentDoesNotExist', `Assignment ${assignmentId} does not exist, or was returned or abandoned.`);
  if (a.workerId !== workerId) throw new DomainError('AssignmentNotOwned', `Assignment ${assignmentId} belongs to another worker.`);
  if (a.status !== 'Accepted')
    throw new DomainError('InvalidAssignmentState', `Assignment ${assignmentId} was already submitted (status ${a.status}).`);
  return a;
}

export function submitAssignment(hit: HitState, assignmentId: string, workerId: string, now: Date): HitState {
  const h = settle(hit, now);
  const a = requireOwnInProgress(h, assignmentId, workerId);
  const submitted: AssignmentState = {
    ...a,
    status: 'Submitted',
    submitTime: now,
    autoApprovalTime: new Date(now.getTime() + h.props.autoApprovalDelaySeconds * 1000),
  };
  return settle(emit(replaceAssignment(h, submitted), 'AssignmentSubmitted', now, a.id), now);
}

export function returnAssignment(hit: HitState, assignmentId: string, workerId: string, now: Date): HitState {
  const h = settle(hit, now);
  const a = requireOwnInProgress(h, assignmentId, workerId);
  const next = { ...h, assignments: h.assignments.filter((x) => x.id !== a.id) };
  return settle(emit(next, 'AssignmentReturned', now, a.id), now);
}

export interface ApproveOptions {
  feedback?: string;
  overrideRejection?: boolean;
}

/** Checks that an approval may happen (before any money moves) and returns the approved state. */
export function approveAssignment(hit: HitState, assignmentId: string, opts: ApproveOptions, now: Date): HitState {
  const h = settle(hit, now);
  const a = requireVisible(h, assignmentId);
  if (a.status === 'Rejected' && opts.overrideRejection) {
    if (h.disposed)
      throw new DomainError('InvalidAssignmentState', `Assignment ${assignmentId} cannot be approved: its HIT has been deleted.`);
    if (now.getTime() - (a.submitTime ?? a.acceptTime).getTime() > OVERRIDE_REJECTION_WINDOW_MS) {
      throw new DomainError(
        'InvalidAssignmentState',
        `Assignment ${assignmentId} cannot be approved: a rejection can only be overridden within 30 days of submission.`,
      );
    }
  } else if (a.status !== 'Submitted') {
    throw new DomainError('InvalidAssignmentState', 'This operation can be called with a status of: Submitted');
  }
  const approved: AssignmentState = {
    ...a,
    status: 'Approved',
    approvalTime: now,
    ...(opts.feedback !== undefined ? { requesterFeedback: opts.feedback } : {}),
  };
  delete approved.rejectionTime;
  return settle(emit(replaceAssignment(h, approved), 'AssignmentApproved', now, a.id), now);
}

export function rejectAssignment(hit: HitState, assignmentId: string, feedback: string, now: Date): HitState {
  const h = settle(hit, now);
  const a = requireVisible(h, assignmentId);
  if (a.status !== 'Submitted') throw new DomainError('InvalidAssignmentState', 'This operation can be called with a status of: Submitted');
  const rejected: AssignmentState = { ...a, status: 'Rejected', rejectionTime: now, requesterFeedback: feedback };
  return settle(emit(replaceAssignment(h, rejected), 'AssignmentRejected', now, a.id), now);
}

export const MAX_ASSIGNMENTS = 1_000_000;
export const LARGE_HIT_ASSIGNMENTS = 10;

/**
 * CreateAdditionalAssignmentsForHIT: a HIT under 10 assignments cannot reach 10 or more.
 * A UniqueRequestToken seen in the last 24 hours is refused (the extension happened once);
 * it is recorded in the same write as the extension.
 */
export function addAssignments(hit: HitState, count: number, now: Date, token?: string): HitState {
  const h = settle(hit, now);
  requireLive(h);
  const recent = (h.extensionTokens ?? []).filter((t) => now.getTime() - t.at.getTime() < DAY_MS);
  if (token !== undefined && recent.some((t) => t.token === token)) {
    throw new DomainError(
      'DuplicateRequest',
      `The idempotency token "${token}" has already been processed (HIT ${h.id} was extended with it).`,
    );
  }
  if (!Number.isInteger(count) || count < 1) {
    throw new DomainError('ValidationException', `NumberOfAdditionalAssignments: must be at least 1 (got ${count})`);
  }
  const total = h.maxAssignments + count;
  if (h.maxAssignments < LARGE_HIT_ASSIGNMENTS && total >= LARGE_HIT_ASSIGNMENTS) {
    throw new DomainError(
      'InvalidMaximumAssignmentsIncrease',
      `The HIT ${h.id} has ${h.maxAssignments} assignments; a HIT created with fewer than ${LARGE_HIT_ASSIGNMENTS} cannot be extended to ${LARGE_HIT_ASSIGNMENTS} or more (${h.maxAssignments} + ${count} = ${total}).`,
    );
  }
  if (total > MAX_ASSIGNMENTS)
    throw new DomainError('ValidationException', `NumberOfAdditionalAssignments: the HIT would exceed ${MAX_ASSIGNMENTS} assignments`);
  const extensionTokens = token !== undefined ? [...recent, { token, at: now }] : recent;
  return settle(emit({ ...h, maxAssignments: total, ...(extensionTokens.length > 0 ? { extensionTokens } : {}) }, 'HITExtended', now), now);
}

/** UpdateExpirationForHIT: a time in the past expires the HIT now; accepted work may still be submitted. */
export function updateExpiration(hit: HitState, expireAt: Date, now: Date): HitState {
  const h = settle(hit, now);
  requireLive(h);
  const expiration = expireAt.getTime() <= now.getTime() ? now : expireAt;
  let next: HitState = { ...h, expiration };
  if (expiration.getTime() > now.getTime()) next = { ...next, expiredNoticed: false };
  if (expiration.getTime() > h.expiration.getTime()) next = emit(next, 'HITExtended', now);
  return settle(next, now);
}

export function updateReviewStatus(hit: HitState, revert: boolean, now: Date): HitState {
  const h = settle(hit, now);
  const status = statusOf(h, now);
  const from = revert ? 'Reviewing' : 'Reviewable';
  if (status !== from) {
    throw new DomainError(
      'InvalidHITState',
      `This HIT is currently in the state '${status}'. This operation can be called with a status of: ${from}`,
    );
  }
  return settle({ ...h, reviewing: !revert }, now);
}

/** DeleteHIT: only a reviewable HIT whose submitted work is all approved or rejected. Deleting twice is harmless. */
export function disposeHit(hit: HitState, now: Date): HitState {
  const h = settle(hit, now);
  if (h.disposed) return h;
  const status = statusOf(h, now);
  if (status !== 'Reviewable' && status !== 'Reviewing') {
    throw new DomainError(
      'InvalidHITState',
      `This HIT is currently in the state '${status}'. This operation can be called with a status of: Reviewable`,
    );
  }
  const waiting = h.assignments.filter((a) => a.status === 'Submitted').length;
  if (waiting > 0) {
    throw new DomainError(
      'InvalidHITState',
      `This HIT has ${waiting} submitted assignment(s) not yet approved or rejected; approve or reject them before deleting the HIT.`,
    );
  }
  return emit({ ...h, disposed: true, reviewing: false }, 'HITDisposed', now);
}

/** UpdateHITTypeOfHIT: the HIT takes the new type's properties. */
export function changeHitType(hit: HitState, type: { typeId: string; groupId: string; props: HitTypeProps }, now: Date): HitState {
  const h = settle(hit, now);
  requireLive(h);
  return settle({ ...h, typeId: type.typeId, groupId: type.groupId, props: type.props }, now);
}

/** The worker's own assignment, or undefined (a worker never sees another worker's work). */
export function workerAssignment(hit: HitState, workerId: string): AssignmentState | undefined {
  return hit.assignments.find((a) => a.workerId === workerId);
}

export function hasSubmitted(hit: HitState, workerId: string): boolean {
  return hit.assignments.some((a) => a.workerId === workerId && submittedish(a));
}

export function assignmentIn(hit: HitState, assignmentId: string): AssignmentState | undefined {
  return assignmentOf(hit, assignmentId);
}
