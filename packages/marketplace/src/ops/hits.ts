import type {
  CreateAdditionalAssignmentsForHITRequest,
  CreateHITRequest,
  CreateHITTypeRequest,
  CreateHITWithHITTypeRequest,
  DeleteHITRequest,
  GetHITRequest,
  ListHITsForQualificationTypeRequest,
  ListHITsRequest,
  ListReviewableHITsRequest,
  ListReviewPolicyResultsForHITRequest,
  UpdateExpirationForHITRequest,
  UpdateHITReviewStatusRequest,
  UpdateHITTypeOfHITRequest,
} from '@aws-sdk/client-mturk';
import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import {
  addAssignments,
  changeHitType,
  disposeHit,
  settle,
  statusOf,
  updateExpiration,
  updateReviewStatus,
  type HitState,
  type HitTypeProps,
} from '../domain/hit.js';
import { assignmentsCharge, centsOf, usd } from '../domain/money.js';
import { isSystemQualification } from '../domain/system-qualifications.js';
import type { Requirement } from '../domain/types.js';
import { createHit, LIMITS, registerHitType, requireHitType } from '../services/hits.js';
import { mutateHit, requireHit } from '../services/hit-writer.js';
import { as, invalid, paginate, type Operation } from './common.js';
import { hitToWire, hitWithQuestion } from './wire.js';

function typeProps(input: CreateHITTypeRequest): HitTypeProps {
  const rewardCents = centsOf(input.Reward!);
  if (rewardCents === undefined) throw invalid('Reward', `"${input.Reward}" is not a USD amount`);
  return {
    title: input.Title!,
    description: input.Description!,
    ...(input.Keywords !== undefined ? { keywords: input.Keywords } : {}),
    reward: input.Reward!,
    rewardCents,
    assignmentDurationSeconds: input.AssignmentDurationInSeconds!,
    autoApprovalDelaySeconds: input.AutoApprovalDelayInSeconds ?? LIMITS.autoApprovalDelay.default,
    qualificationRequirements: (input.QualificationRequirements ?? []) as Requirement[],
  };
}

function refuseReviewPolicies(input: { AssignmentReviewPolicy?: unknown; HITReviewPolicy?: unknown }): void {
  if (input.AssignmentReviewPolicy !== undefined || input.HITReviewPolicy !== undefined) {
    throw new DomainError(
      'UnsupportedFeature',
      `${input.AssignmentReviewPolicy !== undefined ? 'AssignmentReviewPolicy' : 'HITReviewPolicy'}: review policies are not run by this marketplace; review assignments with ListAssignmentsForHIT, ApproveAssignment and RejectAssignment`,
    );
  }
}

const createHitType: Operation = async (mp, raw) => {
  const type = await registerHitType(mp, typeProps(as<CreateHITTypeRequest>(raw)));
  return { HITTypeId: type._id };
};

type HitRequestFields = Pick<
  CreateHITWithHITTypeRequest,
  'MaxAssignments' | 'LifetimeInSeconds' | 'Question' | 'HITLayoutId' | 'RequesterAnnotation' | 'UniqueRequestToken'
>;

/** CreateHIT and CreateHITWithHITType differ only in where the HIT type comes from. */
async function createHitFromRequest(mp: Parameters<Operation>[0], type: Parameters<typeof createHit>[1]['type'], input: HitRequestFields) {
  const hit = await createHit(mp, {
    type,
    maxAssignments: input.MaxAssignments ?? 1,
    lifetimeSeconds: input.LifetimeInSeconds!,
    ...(input.Question !== undefined ? { question: input.Question } : {}),
    ...(input.HITLayoutId !== undefined ? { layoutId: input.HITLayoutId } : {}),
    ...(input.RequesterAnnotation !== undefined ? { requesterAnnotation: input.RequesterAnnotation } : {}),
    ...(input.UniqueRequestToken !== undefined ? { uniqueRequestToken: input.UniqueRequestToken } : {}),
  });
  return { HIT: hitToWire(hit, mp.clock.now(), input.Question) };
}

const createHitOp: Operation = async (mp, raw) => {
  const input = as<CreateHITRequest>(raw);
  refuseReviewPolicies(input);
  return createHitFromRequest(mp, await registerHitType(mp, typeProps(input as CreateHITTypeRequest)), input);
};

const createHitWithHitType: Operation = async (mp, raw) => {
  const input = as<CreateHITWithHITTypeRequest>(raw);
  refuseReviewPolicies(input);
  return createHitFromRequest(mp, requireHitType(mp, input.HITTypeId!), input);
};

const getHit: Operation = async (mp, raw) => {
  const hit = requireHit(mp, as<GetHITRequest>(raw).HITId!);
  return { HIT: await hitWithQuestion(mp, hit) };
};

async function hitPage(
  mp: Marketplace,
  op: string,
  filters: Record<string, unknown>,
  hits: HitState[],
  input: { NextToken?: string; MaxResults?: number },
) {
  const page = paginate(op, filters, hits, (h) => h.id, input);
  return { NextToken: page.NextToken, NumResults: page.NumResults, HITs: await Promise.all(page.items.map((h) => hitWithQuestion(mp, h))) };
}

const listHits: Operation = async (mp, raw) => {
  const input = as<ListHITsRequest>(raw);
  const hits = [...mp.hits.all()].filter((h) => !h.disposed);
  return hitPage(mp, 'ListHITs', {}, hits, input);
};

const listReviewableHits: Operation = async (mp, raw) => {
  const input = as<ListReviewableHITsRequest>(raw);
  const wanted = input.Status ?? 'Reviewable';
  const now = mp.clock.now();
  const hits = [...mp.hits.all()].filter(
    (h) => (input.HITTypeId === undefined || h.typeId === input.HITTypeId) && statusOf(settle(h, now), now) === wanted,
  );
  return hitPage(mp, 'ListReviewableHITs', { HITTypeId: input.HITTypeId, Status: wanted }, hits, input);
};

const listHitsForQualificationType: Operation = async (mp, raw) => {
  const input = as<ListHITsForQualificationTypeRequest>(raw);
  const typeId = input.QualificationTypeId!;
  const type = mp.types.qualificationTypes.get(typeId);
  if (!isSystemQualification(typeId) && (!type || type.deleted))
    throw new DomainError('QualificationTypeDoesNotExist', `QualificationType ${typeId} does not exist.`);
  const hits = [...mp.hits.all()].filter(
    (h) => !h.disposed && h.props.qualificationRequirements.some((r) => r.QualificationTypeId === typeId),
  );
  return hitPage(mp, 'ListHITsForQualificationType', { QualificationTypeId: typeId }, hits, input);
};

const updateHitReviewStatus: Operation = async (mp, raw) => {
  const input = as<UpdateHITReviewStatusRequest>(raw);
  requireHit(mp, input.HITId!);
  await mutateHit(mp, input.HITId!, (hit, now) => ({ hit: updateReviewStatus(hit, input.Revert === true, now), result: undefined }));
  return {};
};

const updateExpirationForHit: Operation = async (mp, raw) => {
  const input = as<UpdateExpirationForHITRequest>(raw);
  await mutateHit(mp, input.HITId!, (hit, now) => ({ hit: updateExpiration(hit, input.ExpireAt!, now), result: undefined }));
  return {};
};

const createAdditionalAssignments: Operation = async (mp, raw) => {
  const input = as<CreateAdditionalAssignmentsForHITRequest>(raw);
  const count = input.NumberOfAdditionalAssignments!;
  await mutateHit(mp, input.HITId!, (hit, now) => {
    const next = addAssignments(hit, count, now, input.UniqueRequestToken);
    const cost = assignmentsCharge(next.props.rewardCents, next.maxAssignments, next.props.qualificationRequirements, count);
    if (mp.ledger.balanceCents() < cost.totalCents) {
      throw new DomainError(
        'InsufficientFunds',
        `This Requester has insufficient funds in their account to complete this transaction: ${count} more assignment(s) can cost $${usd(cost.totalCents)} and the balance is $${usd(mp.ledger.balanceCents())}.`,
      );
    }
    return { hit: next, result: undefined };
  });
  return {};
};

const deleteHit: Operation = async (mp, raw) => {
  const input = as<DeleteHITRequest>(raw);
  await mutateHit(mp, input.HITId!, (hit, now) => ({ hit: disposeHit(hit, now), result: undefined }));
  return {};
};

const updateHitTypeOfHit: Operation = async (mp, raw) => {
  const input = as<UpdateHITTypeOfHITRequest>(raw);
  requireHit(mp, input.HITId!);
  const type = requireHitType(mp, input.HITTypeId!);
  await mutateHit(mp, input.HITId!, (hit, now) => ({
    hit: changeHitType(hit, { typeId: type._id, groupId: type.groupId, props: type.props }, now),
    result: undefined,
  }));
  return {};
};

/** Review policies are refused at CreateHIT, so a HIT has none: the answer says so. */
const listReviewPolicyResults: Operation = async (mp, raw) => {
  const input = as<ListReviewPolicyResultsForHITRequest>(raw);
  requireHit(mp, input.HITId!);
  return { HITId: input.HITId };
};

export const hitOperations: Record<string, Operation> = {
  CreateHITType: createHitType,
  CreateHIT: createHitOp,
  CreateHITWithHITType: createHitWithHitType,
  GetHIT: getHit,
  ListHITs: listHits,
  ListReviewableHITs: listReviewableHits,
  ListHITsForQualificationType: listHitsForQualificationType,
  UpdateHITReviewStatus: updateHitReviewStatus,
  UpdateExpirationForHIT: updateExpirationForHit,
  CreateAdditionalAssignmentsForHIT: createAdditionalAssignments,
  DeleteHIT: deleteHit,
  UpdateHITTypeOfHIT: updateHitTypeOfHit,
  ListReviewPolicyResultsForHIT: listReviewPolicyResults,
};
