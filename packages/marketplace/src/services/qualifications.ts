import type { Marketplace } from '../core.js';
import { parseAnswerKey, scoreTest } from '../domain/answer-key.js';
import { answersXml, questionFormAnswerEntries } from '../domain/answers-xml.js';
import { DomainError } from '../domain/errors.js';
import type { QuestionForm } from '../domain/question-form.js';
import { parseTest } from '../domain/question-xml.js';
import { requestRoute, typesRequiredAbsent, type QualificationTypeState } from '../domain/qualification-types.js';
import { checkRetryAllowed } from '../domain/retakes.js';
import { newEntityId } from '../ids.js';
import type { QualificationAttemptDoc, QualificationRequestDoc, QualificationTestDoc, WorkerQualificationDoc } from '../store/models.js';
import { requireWorker, workerQualificationId } from './access.js';
import { sendWorkerMessage } from './messages.js';

/** Granting and revoking custom qualifications, and workers' requests and tests. */

/** The custom types no worker may request: those the marketplace's HIT types require NOT to exist. */
export function unrequestableTypes(mp: Marketplace): Set<string> {
  return typesRequiredAbsent([...mp.types.hitTypes.values()].map((t) => t.props.qualificationRequirements));
}

export function requireQualificationType(mp: Marketplace, typeId: string): QualificationTypeState {
  const type = mp.types.qualificationTypes.get(typeId);
  if (!type || type.deleted) throw new DomainError('QualificationTypeDoesNotExist', `QualificationType ${typeId} does not exist.`);
  return type;
}

export async function grant(mp: Marketplace, typeId: string, workerId: string, value: number): Promise<WorkerQualificationDoc> {
  const doc: WorkerQualificationDoc = {
    _id: workerQualificationId(typeId, workerId),
    typeId,
    workerId,
    integerValue: value,
    status: 'Granted',
    grantTime: mp.clock.now(),
  };
  await mp.workerQualifications.write(doc);
  mp.workerRecords.qualificationWritten(doc);
  return doc;
}

export async function revoke(mp: Marketplace, typeId: string, workerId: string, reason?: string): Promise<void> {
  const type = requireQualificationType(mp, typeId);
  const id = workerQualificationId(typeId, workerId);
  const held = await mp.workerQualifications.byId(id);
  if (held?.status !== 'Granted')
    throw new DomainError(
      'QualificationDoesNotExist',
      `You requested a Qualification that does not exist: worker ${workerId} does not hold ${typeId}.`,
    );
  const revoked = { ...held, status: 'Revoked' as const };
  await mp.workerQualifications.write(revoked);
  mp.workerRecords.qualificationWritten(revoked);
  await sendWorkerMessage(mp, workerId, `Qualification revoked: ${type.name}`, reason ?? 'The requester revoked this qualification.');
}

async function attemptOf(mp: Marketplace, typeId: string, workerId: string): Promise<QualificationAttemptDoc | null> {
  return mp.models.qualificationAttempts.findById(workerQualificationId(typeId, workerId)).lean<QualificationAttemptDoc>();
}

export async function testOf(mp: Marketplace, typeId: string): Promise<QualificationTestDoc | null> {
  return mp.models.qualificationTests.findById(typeId).lean<QualificationTestDoc>();
}

export type RequestOutcome =
  | { status: 'granted'; value: number }
  | { status: 'pending'; requestId: string }
  | { status: 'test'; test: QuestionForm; testXml: string; deadline: Date };

async function pendingRequestOf(mp: Marketplace, typeId: string, workerId: string): Promise<QualificationRequestDoc | null> {
  return mp.models.qualificationRequests.findOne({ typeId, workerId, status: 'Pending' }).lean<QualificationRequestDoc>();
}

/** A worker asks for a qualification: granted at once, a test to take, or a request the requester reviews. */
export async function requestQualification(mp: Marketplace, workerId: string, typeId: string): Promise<RequestOutcome> {
  await requireWorker(mp, workerId);
  return mp.workerLocks.run(workerId, async () => {
    const type = requireQualificationType(mp, typeId);
    const route = requestRoute(type, unrequestableTypes(mp).has(typeId));
    const now = mp.clock.now();
    const attemptId = workerQualificationId(typeId, workerId);
    const attempt = await attemptOf(mp, typeId, workerId);
    if (route.kind === 'test' && attempt?.testDeadline && attempt.testDeadline.getTime() > now.getTime()) {
      const test = await testOf(mp, typeId);
      return { status: 'test', test: parseTest(test!.test), testXml: test!.test, deadline: attempt.testDeadline };
    }
    if (route.kind === 'review') {
      const pending = await pendingRequestOf(mp, typeId, workerId);
      if (pending) return { status: 'pending', requestId: pending._id };
    }
    if (route.kind === 'grant') {
      const held = await mp.workerQualifications.byId(attemptId);
      if (held?.status === 'Granted') return { status: 'granted', value: held.integerValue ?? route.value };
    }
    const { retake } = checkRetryAllowed(type, attempt ?? {}, now);
    // a retake under the test's retake policy is counted in the same write as the request
    const requested = { lastRequestAt: now, ...(retake ? { retakesUsed: (attempt?.retakesUsed ?? 0) + 1 } : {}) };
    if (route.kind === 'grant') {
      await mp.models.qualificationAttempts.updateOne({ _id: attemptId }, { $set: requested }, { upsert: true });
      await grant(mp, typeId, workerId, route.value);
      return { status: 'granted', value: route.value };
    }
    if (route.kind === 'review') {
      const requestId = newEntityId(now.getTime());
      await mp.models.qualificationRequests.create({ _id: requestId, typeId, workerId, submitTime: now, status: 'Pending' });
      await mp.models.qualificationAttempts.updateOne({ _id: attemptId }, { $set: requested }, { upsert: true });
      return { status: 'pending', requestId };
    }
    const test = await testOf(mp, typeId);
    if (!test)
      throw new DomainError(
        'QualificationTypeDoesNotExist',
        `QualificationType ${typeId} has lost its test; ask the requester to update it.`,
      );
    const deadline = new Date(now.getTime() + (type.testDurationSeconds ?? 3600) * 1000);
    await mp.models.qualificationAttempts.updateOne(
      { _id: attemptId },
      { $set: { ...requested, testStartedAt: now, testDeadline: deadline } },
      { upsert: true },
    );
    return { status: 'test', test: parseTest(test.test), testXml: test.test, deadline };
  });
}

/** Test answers: question id -> selection ids (multiple choice) or text (free text). */
export type TestAnswers = Record<string, string | string[]>;

export type TestOutcome = { status: 'granted'; value: number; requestId: string } | { status: 'pending'; requestId: string };

/** Submits a started test: scored with the AnswerKey and granted at once, or left for the requester. */
export async function submitQualificationTest(
  mp: Marketplace,
  workerId: string,
  typeId: string,
  answers: TestAnswers,
): Promise<TestOutcome> {
  return mp.workerLocks.run(workerId, async () => {
    const type = requireQualificationType(mp, typeId);
    const now = mp.clock.now();
    const attemptId = workerQualificationId(typeId, workerId);
    const attempt = await attemptOf(mp, typeId, workerId);
    if (!attempt?.testDeadline)
      throw new DomainError('QualificationTestExpired', `Start the test of "${type.name}" first (request the qualification).`);
    if (attempt.testDeadline.getTime() < now.getTime()) {
      throw new DomainError(
        'QualificationTestExpired',
        `The time for the test of "${type.name}" ran out at ${attempt.testDeadline.toISOString()}.`,
      );
    }
    const test = await testOf(mp, typeId);
    if (!test) throw new DomainError('QualificationTypeDoesNotExist', `QualificationType ${typeId} has no test.`);
    const form = parseTest(test.test);
    const entries = questionFormAnswerEntries(form, answers);
    const answer = answersXml(entries);
    const requestId = newEntityId(now.getTime());
    await mp.models.qualificationAttempts.updateOne({ _id: attemptId }, { $unset: { testDeadline: 1, testStartedAt: 1 } });
    if (type.hasAnswerKey && test.answerKey) {
      const selections = new Map(entries.map((e) => [e.questionIdentifier, e.selections ?? []]));
      const { value } = scoreTest(parseAnswerKey(test.answerKey), selections);
      await mp.models.qualificationRequests.create({
        _id: requestId,
        typeId,
        workerId,
        answer,
        submitTime: now,
        status: 'Approved',
        score: value,
      });
      await grant(mp, typeId, workerId, value);
      return { status: 'granted', value, requestId };
    }
    await mp.models.qualificationRequests.create({ _id: requestId, typeId, workerId, answer, submitTime: now, status: 'Pending' });
    return { status: 'pending', requestId };
  });
}

async function requirePendingRequest(mp: Marketplace, requestId: string): Promise<QualificationRequestDoc> {
  const req = await mp.models.qualificationRequests.findById(requestId).lean<QualificationRequestDoc>();
  if (!req) throw new DomainError('QualificationRequestDoesNotExist', `Qualification request ${requestId} does not exist.`);
  if (req.status !== 'Pending')
    throw new DomainError(
      'ValidationException',
      `QualificationRequestId: the request ${requestId} was already ${req.status.toLowerCase()}`,
    );
  return req;
}

/** Decisions on one request are serialized by the worker's lock (the dev database scans for conditional filters). */
export async function acceptRequest(mp: Marketplace, requestId: string, value: number | undefined): Promise<void> {
  const first = await requirePendingRequest(mp, requestId);
  await mp.workerLocks.run(first.workerId, async () => {
    const req = await requirePendingRequest(mp, requestId);
    await mp.models.qualificationRequests.updateOne({ _id: requestId }, { $set: { status: 'Approved' } });
    await grant(mp, req.typeId, req.workerId, value ?? 1);
  });
}

export async function rejectRequest(mp: Marketplace, requestId: string, reason: string | undefined): Promise<void> {
  const first = await requirePendingRequest(mp, requestId);
  const req = await mp.workerLocks.run(first.workerId, async () => {
    const pending = await requirePendingRequest(mp, requestId);
    await mp.models.qualificationRequests.updateOne({ _id: requestId }, { $set: { status: 'Rejected', ...(reason ? { reason } : {}) } });
    return pending;
  });
  const type = mp.types.qualificationTypes.get(req.typeId);
  await sendWorkerMessage(
    mp,
    req.workerId,
    `Qualification request rejected: ${type?.name ?? req.typeId}`,
    reason ?? 'The requester rejected your request.',
  );
}
