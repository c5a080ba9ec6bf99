/**
 * Prolific's error answer: `{"error": {"status", "error_code", "title", "detail"}}`, the
 * detail a string, a list of strings, or `{field: [messages]}` for validation errors.
 * Prolific does not document its `error_code` values; these are the marketplace's own.
 */

export type ErrorDetail = string | string[] | Record<string, string[]>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

/** error_code: the status times 100 plus a reason (1 bad input, 2 not allowed in this state, 3 not enough balance). */
export const ERROR_CODES = {
  invalid: 1,
  state: 2,
  balance: 3,
} as const;

export class ProlificError extends Error {
  constructor(
    readonly status: number,
    readonly detail: ErrorDetail,
    readonly reason: keyof typeof ERROR_CODES = 'invalid',
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }

  body(): { error: { status: number; error_code: number; title: string; detail: ErrorDetail } } {
    return {
      error: {
        status: this.status,
        error_code: this.status * 100 + ERROR_CODES[this.reason],
        title: TITLES[this.status] ?? 'Error',
        detail: this.detail,
      },
    };
  }
}

export const notFound = (what: string): ProlificError => new ProlificError(404, `${what} not found.`);
export const badRequest = (detail: ErrorDetail): ProlificError => new ProlificError(400, detail);
export const wrongState = (detail: string): ProlificError => new ProlificError(400, detail, 'state');
