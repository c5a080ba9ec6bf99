import { checkAnswerKeyAgainstTest, parseAnswerKey, type AnswerKey } from './answer-key.js';
import { DomainError } from './errors.js';
import type { QuestionForm } from './question-form.js';
import { parseTest } from './question-xml.js';

/**
 * Custom qualification types: how they are created and updated (the Test / AnswerKey /
 * AutoGranted rules of CreateQualificationType and UpdateQualificationType) and how a
 * worker's request for one is handled (granted at once, scored test, or manual review).
 */

export type QualificationTypeStatus = 'Active' | 'Inactive';

export interface QualificationTypeState {
  id: string;
  name: string;
  description: string;
  keywords?: string;
  status: QualificationTypeStatus;
  creationTime: Date;
  retryDelaySeconds?: number;
  testDurationSeconds?: number;
  hasTest: boolean;
  hasAnswerKey: boolean;
  autoGranted: boolean;
  autoGrantedValue: number;
  deleted: boolean;
  /** The marketplace's retake policy of a test (retakes.ts); unset: the default. */
  retakePolicy?: RetakePolicy;
}

export interface TestDocuments {
  test: string;
  answerKey?: string;
}

export interface CreateInput {
  Name: string;
  Description: string;
  Keywords?: string;
  QualificationTypeStatus: QualificationTypeStatus;
  RetryDelayInSeconds?: number;
  Test?: string;
  AnswerKey?: string;
  TestDurationInSeconds?: number;
  AutoGranted?: boolean;
  AutoGrantedValue?: number;
}

export interface UpdateInput {
  Description?: string;
  QualificationTypeStatus?: QualificationTypeStatus;
  Test?: string;
  AnswerKey?: string;
  TestDurationInSeconds?: number;
  RetryDelayInSeconds?: number;
  AutoGranted?: boolean;
  AutoGrantedValue?: number;
}

const invalid = (message: string) => new DomainError('ValidationException', message);

function checkTest(
  input: { Test?: string; AnswerKey?: string; TestDurationInSeconds?: number; AutoGranted?: boolean },
  existingTest: boolean,
): TestDocuments | undefined {
  if (input.Test === undefined) {
    if (input.AnswerKey !== undefined) throw invalid('AnswerKey: can only be given together with the Test it scores');
    if (input.TestDurationInSeconds !== undefined) throw invalid('TestDurationInSeconds: can only be given together with a Test');
    if (input.AutoGranted === true && existingTest) throw invalid('AutoGranted: a qualification type with a Test cannot be AutoGranted');
    return undefined;
  }
  if (input.AutoGranted === true) throw invalid('AutoGranted: cannot be true when a Test is given');
  if (input.TestDurationInSeconds === undefined) throw invalid('TestDurationInSeconds: is required with a Test');
  if (input.TestDurationInSeconds < 1) throw invalid(`TestDurationInSeconds: must be at least 1 (got ${input.TestDurationInSeconds})`);
  const form: QuestionForm = parseTest(input.Test, 'Test');
  if (input.AnswerKey !== undefined) {
    const key: AnswerKey = parseAnswerKey(input.AnswerKey, 'AnswerKey');
    checkAnswerKeyAgainstTest(key, form, 'AnswerKey');
  }
  return { test: input.Test, ...(input.AnswerKey !== undefined ? { answerKey: input.AnswerKey } : {}) };
}

function checkRetry(seconds: number | undefined): void {
  if (seconds !== undefined && seconds < 0) throw invalid(`RetryDelayInSeconds: must be 0 or more (got ${seconds})`);
}

export function newQualificationType(
  id: string,
  input: CreateInput,
  now: Date,
): { state: QualificationTypeState; documents?: TestDocuments } {
  const name = input.Name.trim();
  if (name === '') throw invalid('Name: must not be empty');
  if (input.Description.trim() === '') throw invalid('Description: must not be empty');
  checkRetry(input.RetryDelayInSeconds);
  const documents = checkTest(input, false);
  const state: QualificationTypeState = {
    id,
    name,
    description: input.Description,
    ...(input.Keywords !== undefined ? { keywords: input.Keywords } : {}),
    status: input.QualificationTypeStatus,
    creationTime: now,
    ...(input.RetryDelayInSeconds !== undefined ? { retryDelaySeconds: input.RetryDelayInSeconds } : {}),
    ...(documents ? { testDurationSeconds: input.TestDurationInSeconds! } : {}),
    hasTest: documents !== undefined,
    hasAnswerKey: documents?.answerKey !== undefined,
    autoGranted: input.AutoGranted === true,
    autoGrantedValue: input.AutoGrantedValue ?? 1,
    deleted: false,
  };
  return { state, ...(documents ? { documents } : {}) };
}

/** UpdateQualificationType: Name and Keywords stay; a Test can be replaced but never removed; retries cannot be disabled. */
export function updateQualificationType(
  state: QualificationTypeState,
  input: UpdateInput,
): { state: QualificationTypeState; documents?: TestDocuments } {
  checkRetry(input.RetryDelayInSeconds);
  const documents = checkTest(input, state.hasTest);
  const next: QualificationTypeState = {
    ...state,
    ...(input.Description !== undefined ? { description: input.Description } : {}),
    ...(input.QualificationTypeStatus !== undefined ? { status: input.QualificationTypeStatus } : {}),
    ...(input.RetryDelayInSeconds !== undefined ? { retryDelaySeconds: input.RetryDelayInSeconds } : {}),
    ...(input.AutoGranted !== undefined ? { autoGranted: input.AutoGranted } : {}),
    ...(input.AutoGrantedValue !== undefined ? { autoGrantedValue: input.AutoGrantedValue } : {}),
  };
  if (documents) {
    next.hasTest = true;
    next.hasAnswerKey = documents.answerKey !== undefined;
    next.testDurationSeconds = input.TestDurationInSeconds!;
    next.autoGranted = false;
  }
  return { state: next, ...(documents ? { documents } : {}) };
}

export type RequestRoute = { kind: 'grant'; value: number } | { kind: 'test'; scored: boolean } | { kind: 'review' };

/**
 * The types some HIT type requires NOT to exist (`DoesNotExist`): holding one only keeps a
 * worker from work, as a requester's block list does (MTurk's recommended soft block). Such
 * a type is never open to requests: a worker could only shut themselves out, and nothing
 * the site says may invite them to.
 */
export function typesRequiredAbsent(
  requirementSets: Iterable<readonly { QualificationTypeId: string; Comparator: string }[]>,
): Set<string> {
  const out = new Set<string>();
  for (const set of requirementSets) for (const r of set) if (r.Comparator === 'DoesNotExist') out.add(r.QualificationTypeId);
  return out;
}

/** How a worker's request for this type is handled; `requiredAbsent`: HITs require it NOT to exist (typesRequiredAbsent). */
export function requestRoute(type: QualificationTypeState, requiredAbsent = false): RequestRoute {
  if (type.deleted || type.status !== 'Active') {
    throw new DomainError(
      'QualificationNotRequestable',
      `The qualification "${type.name}" is not open to requests (status ${type.deleted ? 'deleted' : type.status}).`,
    );
  }
  if (requiredAbsent)
    throw new DomainError(
      'QualificationNotRequestable',
      `The qualification "${type.name}" is set by its requester and not open to requests.`,
    );
  if (type.autoGranted) return { kind: 'grant', value: type.autoGrantedValue };
  if (type.hasTest) return { kind: 'test', scored: type.hasAnswerKey };
  return { kind: 'review' };
}

/** A test's retake policy (retakes.ts): `retakes` more takes, each `delaySeconds` after the last request. */
export interface RetakePolicy {
  retakes: number;
  delaySeconds: number;
}
