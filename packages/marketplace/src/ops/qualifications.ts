import type {
  AcceptQualificationRequestRequest,
  AssociateQualificationWithWorkerRequest,
  CreateQualificationTypeRequest,
  DeleteQualificationTypeRequest,
  DisassociateQualificationFromWorkerRequest,
  GetQualificationScoreRequest,
  GetQualificationTypeRequest,
  ListQualificationRequestsRequest,
  ListQualificationTypesRequest,
  ListWorkersWithQualificationTypeRequest,
  RejectQualificationRequestRequest,
  UpdateQualificationTypeRequest,
} from '@aws-sdk/client-mturk';
import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import {
  newQualificationType,
  updateQualificationType,
  type CreateInput,
  type QualificationTypeState,
  type UpdateInput,
} from '../domain/qualification-types.js';
import { isSystemQualification, SYSTEM_QUALIFICATION_TYPES } from '../domain/system-qualifications.js';
import { newEntityId } from '../ids.js';
import { requireWorker, workerQualificationId } from '../services/access.js';
import { sendWorkerMessage } from '../services/messages.js';
import {
  acceptRequest,
  grant,
  rejectRequest,
  requireQualificationType,
  revoke,
  testOf,
  unrequestableTypes,
} from '../services/qualifications.js';
import { isDuplicateKey, type QualificationRequestDoc } from '../store/models.js';
import { as, checkFeedback, paginate, type Operation } from './common.js';
import { qualificationToWire, qualificationTypeToWire, systemQualificationTypeToWire } from './wire.js';

/** A qualification type's name as its registry keys it (names are unique per requester, in any case). */
export const nameKey = (name: string) => name.trim().toLowerCase();

/** Custom types only: system qualifications belong to the platform. */
function requireOwnType(mp: Marketplace, typeId: string): QualificationTypeState {
  if (isSystemQualification(typeId)) {
    throw new DomainError(
      'ValidationException',
      `QualificationTypeId: ${typeId} is a system qualification; its values are computed from workers' profiles and work, not assigned`,
    );
  }
  return requireQualificationType(mp, typeId);
}

async function saveTest(mp: Marketplace, typeId: string, docs: { test: string; answerKey?: string } | undefined): Promise<void> {
  if (!docs) return;
  await mp.models.qualificationTests.replaceOne(
    { _id: typeId },
    { _id: typeId, test: docs.test, ...(docs.answerKey !== undefined ? { answerKey: docs.answerKey } : {}) },
    { upsert: true },
  );
}

async function wireType(mp: Marketplace, t: QualificationTypeState) {
  return qualificationTypeToWire(t, t.hasTest ? await testOf(mp, t.id) : undefined, !unrequestableTypes(mp).has(t.id));
}

const createQualificationType: Operation = async (mp, raw) => {
  const input = as<CreateQualificationTypeRequest>(raw);
  const now = mp.clock.now();
  const id = newEntityId(Date.now());
  const { state, documents } = newQualificationType(id, input as CreateInput, now);
  const key = nameKey(state.name);
  try {
    await mp.models.qualificationTypeNames.create({ _id: key, target: id });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const holder = await mp.models.qualificationTypeNames.findById(key).lean();
    const existing = holder ? mp.types.qualificationTypes.get(holder.target) : undefined;
    if (existing && !existing.deleted) {
      throw new DomainError(
        'QualificationTypeAlreadyExists',
        `You have already created a QualificationType with this name (${existing.id}). A QualificationType's name must be unique among all of the QualificationTypes created by the same user.`,
      );
    }
    // the name was claimed by an attempt that stopped before creating the type
    await mp.models.qualificationTypeNames.updateOne({ _id: key }, { $set: { target: id } });
  }
  await saveTest(mp, id, documents);
  await mp.types.saveQualificationType(state);
  return { QualificationType: await wireType(mp, state) };
};

const getQualificationType: Operation = async (mp, raw) => {
  const id = as<GetQualificationTypeRequest>(raw).QualificationTypeId!;
  const system = SYSTEM_QUALIFICATION_TYPES.find((s) => s.QualificationTypeId === id);
  if (system) return { QualificationType: systemQualificationTypeToWire(system) };
  return { QualificationType: await wireType(mp, requireQualificationType(mp, id)) };
};

const updateQualificationTypeOp: Operation = async (mp, raw) => {
  const input = as<UpdateQualificationTypeRequest>(raw);
  const current = requireOwnType(mp, input.QualificationTypeId!);
  const { state, documents } = updateQualificationType(current, input as UpdateInput);
  await saveTest(mp, state.id, documents);
  await mp.types.saveQualificationType(state);
  return { QualificationType: await wireType(mp, state) };
};

const listQualificationTypes: Operation = async (mp, raw) => {
  const input = as<ListQualificationTypesRequest>(raw);
  const query = input.Query?.trim().toLowerCase();
  const matches = (name: string, description: string, keywords?: string) =>
    !query || [name, description, keywords ?? ''].some((text) => text.toLowerCase().includes(query));
  const closed = input.MustBeRequestable ? unrequestableTypes(mp) : new Set<string>();
  const custom = [...mp.types.qualificationTypes.values()].filter(
    (t) =>
      !t.deleted &&
      (!input.MustBeRequestable || (t.status === 'Active' && !closed.has(t.id))) &&
      matches(t.name, t.description, t.keywords),
  );
  const system =
    input.MustBeOwnedByCaller || input.MustBeRequestable
      ? []
      : SYSTEM_QUALIFICATION_TYPES.filter((s) => matches(s.Name, s.Description, s.Keywords));
  const all = [...custom.map((t) => ({ id: t.id, custom: t })), ...system.map((s) => ({ id: s.QualificationTypeId, system: s }))].sort(
    (a, b) => (a.id < b.id ? -1 : 1),
  );
  const page = paginate(
    'ListQualificationTypes',
    { Query: query, MustBeRequestable: input.MustBeRequestable, MustBeOwnedByCaller: input.MustBeOwnedByCaller },
    all,
    (x) => x.id,
    input,
  );
  return {
    NumResults: page.NumResults,
    NextToken: page.NextToken,
    QualificationTypes: await Promise.all(
      page.items.map((x) => ('custom' in x ? wireType(mp, x.custom) : systemQualificationTypeToWire(x.system))),
    ),
  };
};

const deleteQualificationType: Operation = async (mp, raw) => {
  const type = requireOwnType(mp, as<DeleteQualificationTypeRequest>(raw).QualificationTypeId!);
  await mp.types.saveQualificationType({ ...type, deleted: true, status: 'Inactive' });
  await mp.models.qualificationTypeNames.deleteOne({ _id: nameKey(type.name), target: type.id });
  const pending = await mp.models.qualificationRequests.find({ typeId: type.id, status: 'Pending' }).lean<QualificationRequestDoc[]>();
  for (const r of pending) await rejectRequest(mp, r._id, 'The qualification type was deleted.');
  return {};
};

const associateQualificationWithWorker: Operation = async (mp, raw) => {
  const input = as<AssociateQualificationWithWorkerRequest>(raw);
  const type = requireOwnType(mp, input.QualificationTypeId!);
  await requireWorker(mp, input.WorkerId!);
  const value = input.IntegerValue ?? 1;
  await grant(mp, type.id, input.WorkerId!, value);
  if (input.SendNotification !== false) {
    await sendWorkerMessage(
      mp,
      input.WorkerId!,
      `Qualification granted: ${type.name}`,
      `You have been granted the qualification "${type.name}" with the value ${value}.`,
    );
  }
  return {};
};

const disassociateQualificationFromWorker: Operation = async (mp, raw) => {
  const input = as<DisassociateQualificationFromWorkerRequest>(raw);
  checkFeedback(input.Reason, 'Reason');
  requireOwnType(mp, input.QualificationTypeId!);
  await revoke(mp, input.QualificationTypeId!, input.WorkerId!, input.Reason);
  return {};
};

const listWorkersWithQualificationType: Operation = async (mp, raw) => {
  const input = as<ListWorkersWithQualificationTypeRequest>(raw);
  const type = requireOwnType(mp, input.QualificationTypeId!);
  const filter = { typeId: type.id, ...(input.Status ? { status: input.Status } : {}) };
  const docs = await mp.workerQualifications.find(filter);
  const page = paginate(
    'ListWorkersWithQualificationType',
    { QualificationTypeId: type.id, Status: input.Status },
    docs,
    (d) => d._id,
    input,
  );
  return { NextToken: page.NextToken, NumResults: page.NumResults, Qualifications: page.items.map(qualificationToWire) };
};

const getQualificationScore: Operation = async (mp, raw) => {
  const input = as<GetQualificationScoreRequest>(raw);
  const type = requireOwnType(mp, input.QualificationTypeId!);
  const doc = await mp.workerQualifications.byId(workerQualificationId(type.id, input.WorkerId!));
  if (!doc)
    throw new DomainError(
      'QualificationDoesNotExist',
      `You requested a Qualification that does not exist: worker ${input.WorkerId} does not hold ${type.id}.`,
    );
  return { Qualification: qualificationToWire(doc) };
};

const listQualificationRequests: Operation = async (mp, raw) => {
  const input = as<ListQualificationRequestsRequest>(raw);
  if (input.QualificationTypeId !== undefined) requireOwnType(mp, input.QualificationTypeId);
  const docs = await mp.models.qualificationRequests
    .find({ status: 'Pending', ...(input.QualificationTypeId ? { typeId: input.QualificationTypeId } : {}) })
    .sort({ _id: 1 })
    .lean<QualificationRequestDoc[]>();
  const page = paginate('ListQualificationRequests', { QualificationTypeId: input.QualificationTypeId }, docs, (d) => d._id, input);
  const tests = new Map<string, string | undefined>();
  for (const d of page.items) if (!tests.has(d.typeId)) tests.set(d.typeId, (await testOf(mp, d.typeId))?.test);
  return {
    NumResults: page.NumResults,
    NextToken: page.NextToken,
    QualificationRequests: page.items.map((d) => ({
      QualificationRequestId: d._id,
      QualificationTypeId: d.typeId,
      WorkerId: d.workerId,
      ...(tests.get(d.typeId) !== undefined ? { Test: tests.get(d.typeId) } : {}),
      ...(d.answer !== undefined ? { Answer: d.answer } : {}),
      SubmitTime: d.submitTime,
    })),
  };
};

const acceptQualificationRequest: Operation = async (mp, raw) => {
  const input = as<AcceptQualificationRequestRequest>(raw);
  await acceptRequest(mp, input.QualificationRequestId!, input.IntegerValue);
  return {};
};

const rejectQualificationRequest: Operation = async (mp, raw) => {
  const input = as<RejectQualificationRequestRequest>(raw);
  checkFeedback(input.Reason, 'Reason');
  await rejectRequest(mp, input.QualificationRequestId!, input.Reason);
  return {};
};

export const qualificationOperations: Record<string, Operation> = {
  CreateQualificationType: createQualificationType,
  GetQualificationType: getQualificationType,
  UpdateQualificationType: updateQualificationTypeOp,
  ListQualificationTypes: listQualificationTypes,
  DeleteQualificationType: deleteQualificationType,
  AssociateQualificationWithWorker: associateQualificationWithWorker,
  DisassociateQualificationFromWorker: disassociateQualificationFromWorker,
  ListWorkersWithQualificationType: listWorkersWithQualificationType,
  GetQualificationScore: getQualificationScore,
  ListQualificationRequests: listQualificationRequests,
  AcceptQualificationRequest: acceptQualificationRequest,
  RejectQualificationRequest: rejectQualificationRequest,
};
