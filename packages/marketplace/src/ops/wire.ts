import type { Assignment, HIT, Qualification, QualificationType } from '@aws-sdk/client-mturk';
import type { Marketplace } from '../core.js';
import { countsOf, settle, statusOf, type AssignmentState, type HitState } from '../domain/hit.js';
import type { QualificationTypeState } from '../domain/qualification-types.js';
import type { SystemQualificationType } from '../domain/system-qualifications.js';
import type { QualificationTestDoc, WorkerQualificationDoc } from '../store/models.js';
import { questionXml } from '../services/hits.js';

/** Marketplace state in the shapes of the MTurk API (timestamps stay Dates until serialization). */

export function hitToWire(hit: HitState, now: Date, question?: string): HIT {
  const h = settle(hit, now);
  const counts = countsOf(h);
  return {
    HITId: h.id,
    HITTypeId: h.typeId,
    HITGroupId: h.groupId,
    CreationTime: h.creationTime,
    Title: h.props.title,
    Description: h.props.description,
    ...(question !== undefined ? { Question: question } : {}),
    ...(h.props.keywords !== undefined ? { Keywords: h.props.keywords } : {}),
    HITStatus: statusOf(h, now),
    MaxAssignments: h.maxAssignments,
    Reward: h.props.reward,
    AutoApprovalDelayInSeconds: h.props.autoApprovalDelaySeconds,
    Expiration: h.expiration,
    AssignmentDurationInSeconds: h.props.assignmentDurationSeconds,
    ...(h.requesterAnnotation !== undefined ? { RequesterAnnotation: h.requesterAnnotation } : {}),
    QualificationRequirements: h.props.qualificationRequirements,
    HITReviewStatus: 'NotReviewed',
    NumberOfAssignmentsPending: counts.pending,
    NumberOfAssignmentsAvailable: counts.available,
    NumberOfAssignmentsCompleted: counts.completed,
  };
}

export async function hitWithQuestion(mp: Marketplace, hit: HitState): Promise<HIT> {
  return hitToWire(hit, mp.clock.now(), await questionXml(mp, hit.id));
}

export function assignmentToWire(hitId: string, a: AssignmentState, answer?: string): Assignment {
  return {
    AssignmentId: a.id,
    WorkerId: a.workerId,
    HITId: hitId,
    AssignmentStatus: a.status as Assignment['AssignmentStatus'],
    ...(a.autoApprovalTime ? { AutoApprovalTime: a.autoApprovalTime } : {}),
    AcceptTime: a.acceptTime,
    ...(a.submitTime ? { SubmitTime: a.submitTime } : {}),
    ...(a.approvalTime ? { ApprovalTime: a.approvalTime } : {}),
    ...(a.rejectionTime ? { RejectionTime: a.rejectionTime } : {}),
    Deadline: a.deadline,
    ...(answer !== undefined ? { Answer: answer } : {}),
    ...(a.requesterFeedback !== undefined ? { RequesterFeedback: a.requesterFeedback } : {}),
  };
}

export function qualificationTypeToWire(
  t: QualificationTypeState,
  test?: QualificationTestDoc | null,
  requestable = true,
): QualificationType {
  return {
    QualificationTypeId: t.id,
    CreationTime: t.creationTime,
    Name: t.name,
    Description: t.description,
    ...(t.keywords !== undefined ? { Keywords: t.keywords } : {}),
    QualificationTypeStatus: t.status,
    ...(test ? { Test: test.test, TestDurationInSeconds: t.testDurationSeconds } : {}),
    ...(test?.answerKey !== undefined && t.hasAnswerKey ? { AnswerKey: test.answerKey } : {}),
    ...(t.retryDelaySeconds !== undefined ? { RetryDelayInSeconds: t.retryDelaySeconds } : {}),
    IsRequestable: requestable,
    AutoGranted: t.autoGranted,
    ...(t.autoGranted ? { AutoGrantedValue: t.autoGrantedValue } : {}),
  };
}

/** System qualifications exist from the beginning of time and cannot be requested. */
export function systemQualificationTypeToWire(s: SystemQualificationType): QualificationType {
  return {
    QualificationTypeId: s.QualificationTypeId,
    CreationTime: new Date(0),
    Name: s.Name,
    Description: s.Description,
    Keywords: s.Keywords,
    QualificationTypeStatus: 'Active',
    IsRequestable: false,
    AutoGranted: false,
  };
}

export function qualificationToWire(q: WorkerQualificationDoc): Qualification {
  return {
    QualificationTypeId: q.typeId,
    WorkerId: q.workerId,
    GrantTime: q.grantTime,
    ...(q.integerValue !== undefined ? { IntegerValue: q.integerValue } : {}),
    ...(q.localeValue ? { LocaleValue: q.localeValue } : {}),
    Status: q.status,
  };
}
