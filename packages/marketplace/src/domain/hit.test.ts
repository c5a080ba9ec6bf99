import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import {
  acceptAssignment,
  addAssignments,
  approveAssignment,
  autoApprovalsDue,
  changeHitType,
  countsOf,
  createHit,
  disposeHit,
  dueAt,
  rejectAssignment,
  returnAssignment,
  settle,
  statusOf,
  submitAssignment,
  updateExpiration,
  updateReviewStatus,
  type HitState,
  type HitTypeProps,
} from './hit.js';

const T0 = new Date('2026-03-01T00:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const props: HitTypeProps = {
  title: 'Judge relevance',
  description: 'Is the chunk relevant?',
  reward: '0.50',
  rewardCents: 50,
  assignmentDurationSeconds: 600,
  autoApprovalDelaySeconds: 3600,
  qualificationRequirements: [],
};
const HIT_ID = 'HIT000000000000000000000000001';

function newHit(maxAssignments = 3, lifetimeSeconds = 86_400): HitState {
  return createHit({ id: HIT_ID, typeId: 'TYPE1', groupId: 'GROUP1', props, maxAssignments, lifetimeSeconds }, T0);
}
const types = (h: HitState) => h.pendingEvents.map((e) => e.type);
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
  return 'no error';
};

describe('HIT creation', () => {
  it('starts Assignable with every slot available and a HITCreated event', () => {
    const h = newHit();
    expect(statusOf(h, T0)).toBe('Assignable');
    expect(countsOf(h)).toEqual({ pending: 0, available: 3, completed: 0, awaitingReview: 0 });
    expect(h.expiration).toEqual(at(86_400));
    expect(types(h)).toEqual(['HITCreated']);
    expect(h.pendingEvents[0]).toMatchObject({ hitId: HIT_ID, hitTypeId: 'TYPE1', at: T0 });
    expect(dueAt(h)).toEqual(at(86_400));
  });
});

describe('accepting, submitting, returning', () => {
  it('goes Assignable -> Unassignable -> Reviewable as slots are taken and submitted', () => {
    let h = newHit(2);
    const a1 = acceptAssignment(h, 'AW1', at(10));
    h = a1.hit;
    expect(a1.assignment).toMatchObject({ workerId: 'AW1', status: 'Accepted', acceptTime: at(10), deadline: at(610) });
    expect(a1.assignment.id.startsWith(HIT_ID)).toBe(true);
    expect(statusOf(h, at(10))).toBe('Assignable');
    const a2 = acceptAssignment(h, 'AW2', at(20));
    h = a2.hit;
    expect(a2.assignment.id).not.toBe(a1.assignment.id);
    expect(statusOf(h, at(20))).toBe('Unassignable');
    expect(countsOf(h)).toMatchObject({ pending: 2, available: 0 });
    h = submitAssignment(h, a1.assignment.id, 'AW1', at(30));
    expect(statusOf(h, at(30))).toBe('Unassignable');
    h = submitAssignment(h, a2.assignment.id, 'AW2', at(40));
    expect(statusOf(h, at(40))).toBe('Reviewable');
    expect(countsOf(h)).toEqual({ pending: 0, available: 0, completed: 0, awaitingReview: 2 });
    expect(types(h)).toEqual([
      'HITCreated',
      'AssignmentAccepted',
      'AssignmentAccepted',
      'AssignmentSubmitted',
      'AssignmentSubmitted',
      'HITReviewable',
    ]);
    const submitted = h.assignments[1]!;
    expect(submitted).toMatchObject({ status: 'Submitted', submitTime: at(40), autoApprovalTime: at(3640) });
  });

  it('refuses a second assignment of the same HIT to one worker', () => {
    const { hit } = acceptAssignment(newHit(), 'AW1', at(1));
    expect(code(() => acceptAssignment(hit, 'AW1', at(2)))).toBe('AlreadyWorkedOn');
  });

  it('returns the slot on return, and the worker may take it again', () => {
    let h = newHit(1);
    const { hit, assignment } = acceptAssignment(h, 'AW1', at(1));
    expect(statusOf(hit, at(1))).toBe('Unassignable');
    h = returnAssignment(hit, assignment.id, 'AW1', at(5));
    expect(statusOf(h, at(5))).toBe('Assignable');
    expect(types(h)).toContain('AssignmentReturned');
    expect(acceptAssignment(h, 'AW1', at(6)).assignment.id).not.toBe(assignment.id);
  });

  it('only the owner submits or returns, only once, only in time', () => {
    const { hit, assignment } = acceptAssignment(newHit(), 'AW1', at(1));
    expect(code(() => submitAssignment(hit, assignment.id, 'AW2', at(2)))).toBe('AssignmentNotOwned');
    expect(code(() => returnAssignment(hit, assignment.id, 'AW2', at(2)))).toBe('AssignmentNotOwned');
    const done = submitAssignment(hit, assignment.id, 'AW1', at(2));
    expect(code(() => submitAssignment(done, assignment.id, 'AW1', at(3)))).toBe('InvalidAssignmentState');
    expect(code(() => submitAssignment(hit, assignment.id, 'AW1', at(601)))).toBe('AssignmentDoesNotExist');
    expect(code(() => submitAssignment(hit, `${HIT_ID}ZZZZZZ`, 'AW1', at(2)))).toBe('AssignmentDoesNotExist');
  });

  it('abandons overdue work, returning the slot, with an event at the deadline', () => {
    const { hit, assignment } = acceptAssignment(newHit(1), 'AW1', at(0));
    expect(dueAt(hit)).toEqual(at(600));
    const later = settle(hit, at(700));
    expect(later.assignments).toEqual([]);
    expect(statusOf(later, at(700))).toBe('Assignable');
    const abandoned = later.pendingEvents.find((e) => e.type === 'AssignmentAbandoned');
    expect(abandoned).toMatchObject({ assignmentId: assignment.id, at: at(600) });
  });
});

describe('expiry', () => {
  it('an expired HIT with nothing in progress is Reviewable, with HITExpired then HITReviewable', () => {
    const h = settle(newHit(3, 60), at(61));
    expect(statusOf(h, at(61))).toBe('Reviewable');
    expect(types(h)).toEqual(['HITCreated', 'HITExpired', 'HITReviewable']);
    expect(h.pendingEvents[1]!.at).toEqual(at(60));
    expect(code(() => acceptAssignment(h, 'AW1', at(62)))).toBe('HITNotAvailable');
    expect(countsOf(h).available).toBe(3);
  });

  it('UpdateExpirationForHIT in the past expires at once; accepted work may still be submitted', () => {
    const { hit, assignment } = acceptAssignment(newHit(3), 'AW1', at(10));
    let h = updateExpiration(hit, at(-1000), at(20));
    expect(h.expiration).toEqual(at(20));
    expect(statusOf(h, at(20))).toBe('Unassignable');
    expect(types(h)).toContain('HITExpired');
    h = submitAssignment(h, assignment.id, 'AW1', at(30));
    expect(statusOf(h, at(30))).toBe('Reviewable');
    expect(types(h).slice(-1)).toEqual(['HITReviewable']);
  });

  it('extending an expired HIT makes it Assignable again, with HITExtended', () => {
    let h = settle(newHit(3, 60), at(61));
    h = updateExpiration(h, at(1000), at(70));
    expect(statusOf(h, at(70))).toBe('Assignable');
    expect(h.expiredNoticed).toBe(false);
    expect(h.reviewableNoticed).toBe(false);
    expect(types(h).slice(-1)).toEqual(['HITExtended']);
    h = settle(h, at(1001));
    expect(types(h).slice(-2)).toEqual(['HITExpired', 'HITReviewable']);
  });

  it('is due at the earliest of expiry, deadlines and auto-approvals', () => {
    const { hit, assignment } = acceptAssignment(newHit(3, 10_000), 'AW1', at(0));
    expect(dueAt(hit)).toEqual(at(600));
    const submitted = submitAssignment(hit, assignment.id, 'AW1', at(100));
    expect(dueAt(submitted)).toEqual(at(3700));
    expect(dueAt(settle(submitted, at(10_000)))).toEqual(at(3700));
  });
});

describe('review: approve, reject, auto-approval', () => {
  function submittedHit() {
    const { hit, assignment } = acceptAssignment(newHit(1), 'AW1', at(0));
    return { hit: submitAssignment(hit, assignment.id, 'AW1', at(100)), id: assignment.id };
  }

  it('approves a submitted assignment once', () => {
    const { hit, id } = submittedHit();
    const h = approveAssignment(hit, id, { feedback: 'thanks' }, at(200));
    expect(h.assignments[0]).toMatchObject({ status: 'Approved', approvalTime: at(200), requesterFeedback: 'thanks' });
    expect(countsOf(h).completed).toBe(1);
    expect(types(h).slice(-1)).toEqual(['AssignmentApproved']);
    expect(code(() => approveAssignment(h, id, {}, at(300)))).toBe('InvalidAssignmentState');
  });

  it('rejects a submitted assignment; approving it needs OverrideRejection within 30 days', () => {
    const { hit, id } = submittedHit();
    const r = rejectAssignment(hit, id, 'did not follow the guideline', at(200));
    expect(r.assignments[0]).toMatchObject({
      status: 'Rejected',
      rejectionTime: at(200),
      requesterFeedback: 'did not follow the guideline',
    });
    expect(code(() => approveAssignment(r, id, {}, at(300)))).toBe('InvalidAssignmentState');
    expect(code(() => rejectAssignment(r, id, 'again', at(300)))).toBe('InvalidAssignmentState');
    const o = approveAssignment(r, id, { overrideRejection: true }, at(400));
    expect(o.assignments[0]).toMatchObject({ status: 'Approved', approvalTime: at(400) });
    expect(o.assignments[0]!.rejectionTime).toBeUndefined();
    expect(code(() => approveAssignment(r, id, { overrideRejection: true }, at(100 + 31 * 86_400)))).toBe('InvalidAssignmentState');
  });

  it('lists auto-approvals when their time comes', () => {
    const { hit, id } = submittedHit();
    expect(autoApprovalsDue(hit, at(3699))).toEqual([]);
    expect(autoApprovalsDue(hit, at(3700))).toEqual([id]);
  });

  it('hides work in progress from the requester', () => {
    const { hit, assignment } = acceptAssignment(newHit(1), 'AW1', at(0));
    expect(code(() => approveAssignment(hit, assignment.id, {}, at(1)))).toBe('AssignmentDoesNotExist');
    expect(code(() => rejectAssignment(hit, assignment.id, 'no', at(1)))).toBe('AssignmentDoesNotExist');
  });
});

describe('Reviewing and Disposed', () => {
  function reviewable() {
    const { hit, assignment } = acceptAssignment(newHit(1), 'AW1', at(0));
    return { hit: submitAssignment(hit, assignment.id, 'AW1', at(10)), id: assignment.id };
  }

  it('moves Reviewable <-> Reviewing', () => {
    const { hit } = reviewable();
    const r = updateReviewStatus(hit, false, at(20));
    expect(statusOf(r, at(20))).toBe('Reviewing');
    expect(code(() => updateReviewStatus(r, false, at(21)))).toBe('InvalidHITState');
    expect(statusOf(updateReviewStatus(r, true, at(22)), at(22))).toBe('Reviewable');
    expect(code(() => updateReviewStatus(newHit(), false, at(1)))).toBe('InvalidHITState');
  });

  it('disposes only when reviewable and every submitted assignment is reviewed; twice is harmless', () => {
    const { hit, id } = reviewable();
    expect(code(() => disposeHit(hit, at(20)))).toBe('InvalidHITState');
    expect(code(() => disposeHit(newHit(), at(20)))).toBe('InvalidHITState');
    const approved = approveAssignment(hit, id, {}, at(30));
    const d = disposeHit(approved, at(40));
    expect(statusOf(d, at(40))).toBe('Disposed');
    expect(types(d).slice(-1)).toEqual(['HITDisposed']);
    expect(disposeHit(d, at(50))).toBe(d);
    expect(dueAt(d)).toBeUndefined();
    expect(code(() => approveAssignment(rejectAssignment(hit, id, 'x', at(30)), id, {}, at(35)))).toBe('InvalidAssignmentState');
  });

  it('a deleted HIT cannot be extended, re-timed or have a rejection overridden', () => {
    const { hit, id } = reviewable();
    const d = disposeHit(rejectAssignment(hit, id, 'x', at(30)), at(40));
    expect(code(() => addAssignments(d, 1, at(50)))).toBe('InvalidHITState');
    expect(code(() => updateExpiration(d, at(9999), at(50)))).toBe('InvalidHITState');
    expect(code(() => approveAssignment(d, id, { overrideRejection: true }, at(50)))).toBe('InvalidAssignmentState');
  });
});

describe('additional assignments', () => {
  it('adds slots and leaves Reviewing/Reviewable for Assignable', () => {
    const { hit, assignment } = acceptAssignment(newHit(1), 'AW1', at(0));
    const r = updateReviewStatus(submitAssignment(hit, assignment.id, 'AW1', at(10)), false, at(11));
    const e = addAssignments(r, 2, at(12));
    expect(e.maxAssignments).toBe(3);
    expect(statusOf(e, at(12))).toBe('Assignable');
    expect(types(e)).toContain('HITExtended');
  });

  it('follows the 10-assignment rule', () => {
    expect(code(() => addAssignments(newHit(9), 1, at(1)))).toBe('InvalidMaximumAssignmentsIncrease');
    expect(code(() => addAssignments(newHit(3), 7, at(1)))).toBe('InvalidMaximumAssignmentsIncrease');
    expect(addAssignments(newHit(3), 6, at(1)).maxAssignments).toBe(9);
    expect(addAssignments(newHit(10), 5, at(1)).maxAssignments).toBe(15);
    expect(code(() => addAssignments(newHit(3), 0, at(1)))).toBe('ValidationException');
  });

  it('states the counts right when a HIT extended to 9 is extended past 9', () => {
    const nine = addAssignments(newHit(3), 6, at(1));
    expect(() => addAssignments(nine, 1, at(2))).toThrow(
      `The HIT ${nine.id} has 9 assignments; a HIT created with fewer than 10 cannot be extended to 10 or more (9 + 1 = 10).`,
    );
  });

  it('extends once per UniqueRequestToken within 24 hours', () => {
    const once = addAssignments(newHit(3), 2, at(1), 'tok-1');
    expect(once.maxAssignments).toBe(5);
    expect(code(() => addAssignments(once, 2, at(100), 'tok-1'))).toBe('DuplicateRequest');
    expect(addAssignments(once, 1, at(2), 'tok-2').maxAssignments).toBe(6);
    expect(addAssignments(once, 2, at(1 + 86_400), 'tok-1').maxAssignments).toBe(7);
  });
});

describe('changing the HIT type', () => {
  it('takes the new properties', () => {
    const h = changeHitType(newHit(), { typeId: 'TYPE2', groupId: 'G2', props: { ...props, title: 'New' } }, at(5));
    expect(h).toMatchObject({ typeId: 'TYPE2', groupId: 'G2', props: { title: 'New' } });
  });
});
