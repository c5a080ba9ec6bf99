/**
 * Errors meant for a person: the message says what is wrong and what to do, and the CLI
 * prints it as one line without a stack trace.
 */
export class UserError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UserError';
  }
}

/** What a request names does not exist (a batch, an assignment, an item, a worker in a batch): the API answers 404. */
export class NotFound extends UserError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NotFound';
  }
}

/** An HTTP error rendered as RFC 9457 `application/problem+json`. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail ?? title);
    this.name = 'HttpProblem';
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
