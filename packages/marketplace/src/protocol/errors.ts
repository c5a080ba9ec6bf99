import type { DomainError } from '../domain/errors.js';

/**
 * Errors on the wire. MTurk models two: RequestError (400, the client's to fix; the SDKs
 * do not retry it) and ServiceFault (500; the SDKs retry it). Throttling and
 * authentication failures are AWS-wide errors outside the model (the SDKs know
 * ThrottlingException and retry it).
 */
export class WireError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly turkErrorCode?: string,
  ) {
    super(message);
    this.name = type;
  }
}

export function requestError(code: string, message: string): WireError {
  return new WireError(400, 'RequestError', message, `AWS.MechanicalTurk.${code}`);
}

export function serviceFault(message: string): WireError {
  return new WireError(500, 'ServiceFault', message, 'AWS.MechanicalTurk.ServiceFault');
}

export function fromDomainError(err: DomainError): WireError {
  return requestError(err.code, err.message);
}

export const throttled = () => new WireError(400, 'ThrottlingException', 'Rate exceeded');

/** The JSON body: MTurk appends the server time in milliseconds to its messages. */
export function errorBody(err: WireError, nowMs: number): Record<string, string> {
  if (err.type === 'RequestError' || err.type === 'ServiceFault') {
    return { __type: err.type, Message: `${err.message} (${nowMs})`, TurkErrorCode: err.turkErrorCode ?? '' };
  }
  return { __type: err.type, message: err.message };
}
