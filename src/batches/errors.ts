import { NotFound, UserError } from '../errors.js';

/** The named batch does not exist. */
export class BatchNotFound extends NotFound {
  constructor(readonly batch: string) {
    super(`no batch named ${batch}: import its cases first (qrelay import <file> --batch ${batch})`);
    this.name = 'BatchNotFound';
  }
}

/** The batch is in a state that does not allow this (already published, still collecting, ...). */
export class BatchStateError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'BatchStateError';
  }
}
