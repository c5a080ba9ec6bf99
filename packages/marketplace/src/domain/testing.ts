import { DomainError } from './errors.js';

/** For the domain's tests: what a call throws, as `CODE: message`, or `no error`. */
export function thrownError(fn: () => unknown): string {
  try {
    fn();
    return 'no error';
  } catch (err) {
    return err instanceof DomainError ? `${err.code}: ${err.message}` : String(err);
  }
}
