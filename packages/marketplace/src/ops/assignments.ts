import type {
  ApproveAssignmentRequest,
  GetAssignmentRequest,
  GetFileUploadURLRequest,
  ListAssignmentsForHITRequest,
  RejectAssignmentRequest,
} from '@aws-sdk/client-mturk';
import { DomainError } from '../domain/errors.js';
import { assignmentIn, settle } from '../domain/hit.js';
import { parsedQuestion } from '../services/hits.js';
import { requireHit } from '../services/hit-writer.js';
import { approve, hitIdFor, reject } from '../services/reviews.js';
import { as, checkFeedback, paginate, type Operation } from './common.js';
import { assignmentToWire, hitWithQuestion } from './wire.js';

const ALL_STATUSES = ['Submitted', 'Approved', 'Rejected'];

const listAssignmentsForHit: Operation = async (mp, raw) => {
  const input = as<ListAssignmentsForHITRequest>(raw);
  const hit = settle(requireHit(mp, input.HITId!), mp.clock.now());
  const statuses =
    input.AssignmentStatuses && input.AssignmentStatuses.length > 0 ? [...new Set(input.AssignmentStatuses)].sort() : ALL_STATUSES;
  const visible = hit.assignments.filter((a) => statuses.includes(a.status)).sort((a, b) => (a.id < b.id ? -1 : 1));
  const page = paginate('ListAssignmentsForHIT', { HITId: hit.id, AssignmentStatuses: statuses }, visible, (a) => a.id, input);
  const answers = await mp.answers.of(page.items.map((a) => a.id));
  return {
    NextToken: page.NextToken,
    NumResults: page.NumResults,
    Assignments: page.items.map((a) => assignmentToWire(hit.id, a, answers.get(a.id))),
  };
};

const getAssignment: Operation = async (mp, raw) => {
  const id = as<GetAssignmentRequest>(raw).AssignmentId!;
  const hit = settle(requireHit(mp, hitIdFor(mp, id)), mp.clock.now());
  const a = assignmentIn(hit, id);
  if (!a || a.status === 'Accepted') throw new DomainError('AssignmentDoesNotExist', `Assignment ${id} does not exist.`);
  const answers = await mp.answers.of([id]);
  return { Assignment: assignmentToWire(hit.id, a, answers.get(id)), HIT: await hitWithQuestion(mp, hit) };
};

const approveAssignment: Operation = async (mp, raw) => {
  const input = as<ApproveAssignmentRequest>(raw);
  checkFeedback(input.RequesterFeedback, 'RequesterFeedback');
  await approve(mp, input.AssignmentId!, {
    ...(input.RequesterFeedback !== undefined ? { feedback: input.RequesterFeedback } : {}),
    ...(input.OverrideRejection !== undefined ? { overrideRejection: input.OverrideRejection } : {}),
  });
  return {};
};

const rejectAssignment: Operation = async (mp, raw) => {
  const input = as<RejectAssignmentRequest>(raw);
  checkFeedback(input.RequesterFeedback, 'RequesterFeedback');
  await reject(mp, input.AssignmentId!, input.RequesterFeedback!);
  return {};
};

/** Workers here answer in forms and never upload files, so there is never a file to fetch. */
const getFileUploadUrl: Operation = async (mp, raw) => {
  const input = as<GetFileUploadURLRequest>(raw);
  const hit = requireHit(mp, hitIdFor(mp, input.AssignmentId!));
  const a = assignmentIn(hit, input.AssignmentId!);
  if (!a || a.status === 'Accepted') throw new DomainError('AssignmentDoesNotExist', `Assignment ${input.AssignmentId} does not exist.`);
  const question = await parsedQuestion(mp, hit.id);
  const asked =
    question?.kind === 'QuestionForm' &&
    question.form.questions.some((q) => q.id === input.QuestionIdentifier && q.answer.kind === 'fileUpload');
  throw new DomainError(
    'UnsupportedFeature',
    asked
      ? `QuestionIdentifier: no file was uploaded for "${input.QuestionIdentifier}": this marketplace does not take file uploads (MTurk deprecated FileUploadAnswer); ask workers for a link instead`
      : `QuestionIdentifier: the HIT has no FileUploadAnswer question "${input.QuestionIdentifier}"`,
  );
};

export const assignmentOperations: Record<string, Operation> = {
  ListAssignmentsForHIT: listAssignmentsForHit,
  GetAssignment: getAssignment,
  ApproveAssignment: approveAssignment,
  RejectAssignment: rejectAssignment,
  GetFileUploadURL: getFileUploadUrl,
};
