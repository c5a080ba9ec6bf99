import { hitIdOfAssignment } from '../ids.js';
import type { RequesterRecords } from './schema.js';

/**
 * A records document cut into parts that each fit one request (`maxChars` of JSON, as far
 * as single HITs allow), to be imported in order: first the account's records (workers,
 * qualifications, blocks, messages, payments), then the HITs with their questions and
 * answers, last the request tokens that name them. Every part carries the qualification
 * and HIT types, so each one maps type ids alike. Pure.
 */
export function splitRecords(records: RequesterRecords, maxChars = 4_000_000): RequesterRecords[] {
  const empty: RequesterRecords = {
    format: records.format,
    exportedAt: records.exportedAt,
    qualificationTypes: records.qualificationTypes,
    qualificationTests: records.qualificationTests,
    hitTypes: records.hitTypes,
    workers: [],
    workerQualifications: [],
    qualificationRequests: [],
    qualificationAttempts: [],
    blocks: [],
    messages: [],
    hits: [],
    questions: [],
    answers: [],
    ledger: [],
    requestTokens: [],
  };
  const hitIds = new Set(records.hits.map((h) => h._id));
  const answersOf = new Map<string, RequesterRecords['answers']>();
  const looseAnswers: RequesterRecords['answers'] = [];
  for (const a of records.answers) {
    const hitId = a.hitId ?? hitIdOfAssignment(a._id);
    if (hitId !== undefined && hitIds.has(hitId)) answersOf.set(hitId, [...(answersOf.get(hitId) ?? []), a]);
    else looseAnswers.push(a);
  }
  const questionOf = new Map(records.questions.map((q) => [q._id, q]));
  const looseQuestions = records.questions.filter((q) => !hitIds.has(q._id));

  const parts: RequesterRecords[] = [
    {
      ...empty,
      workers: records.workers,
      workerQualifications: records.workerQualifications,
      qualificationRequests: records.qualificationRequests,
      qualificationAttempts: records.qualificationAttempts,
      blocks: records.blocks,
      messages: records.messages,
      ledger: records.ledger,
      questions: looseQuestions,
      answers: looseAnswers,
    },
  ];
  const base = JSON.stringify(empty).length;
  let current: RequesterRecords | undefined;
  let size = 0;
  for (const hit of records.hits) {
    const question = questionOf.get(hit._id);
    const answers = answersOf.get(hit._id) ?? [];
    const chars = JSON.stringify(hit).length + (question ? JSON.stringify(question).length : 0) + JSON.stringify(answers).length;
    if (!current || (current.hits.length > 0 && size + chars > maxChars)) {
      current = { ...empty, hits: [], questions: [], answers: [] };
      parts.push(current);
      size = base;
    }
    current.hits.push(hit);
    if (question) current.questions.push(question);
    current.answers.push(...answers);
    size += chars;
  }
  if (records.requestTokens.length > 0) parts.push({ ...empty, requestTokens: records.requestTokens });
  return parts;
}
