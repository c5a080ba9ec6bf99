/**
 * A rule of the marketplace said no. `code` is the MTurk TurkErrorCode without its
 * `AWS.MechanicalTurk.` prefix; the requester API answers it as a RequestError, the
 * worker-facing functions throw it as it is (the worker site shows `message`).
 */
export type DomainErrorCode =
  // requester API codes (the ones MTurk documents or is known to return)
  | 'ValidationException'
  | 'XMLParseError'
  | 'HITDoesNotExist'
  | 'HITTypeDoesNotExist'
  | 'HITLayoutDoesNotExist'
  | 'AssignmentDoesNotExist'
  | 'InvalidAssignmentState'
  | 'InvalidHITState'
  | 'HitAlreadyExists'
  | 'DuplicateRequest'
  | 'InvalidMaximumAssignmentsIncrease'
  | 'InsufficientFunds'
  | 'QualificationTypeDoesNotExist'
  | 'QualificationTypeAlreadyExists'
  | 'QualificationDoesNotExist'
  | 'QualificationRequestDoesNotExist'
  | 'WorkerDoesNotExist'
  | 'UnsupportedFeature'
  // worker-facing codes (the worker site and simulated workers)
  | 'HITNotAvailable'
  | 'AlreadyWorkedOn'
  | 'QualificationRequirementsNotMet'
  | 'WorkerBlocked'
  | 'AssignmentNotOwned'
  | 'QualificationNotRequestable'
  | 'QualificationRetryNotAllowed'
  | 'QualificationTestExpired'
  | 'WorkerNameTaken';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function isDomainError(err: unknown, code?: DomainErrorCode): err is DomainError {
  return err instanceof DomainError && (code === undefined || err.code === code);
}
