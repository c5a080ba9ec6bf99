import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { HttpProblem } from '../errors.js';

const TYPE_BASE = 'https://qrelay.dev/problems/';

export function sendProblem(res: Response, status: number, title: string, detail?: string, extra: Record<string, unknown> = {}) {
  res
    .status(status)
    .type('application/problem+json')
    .json({ type: `${TYPE_BASE}${status}`, title, status, ...(detail ? { detail } : {}), ...extra });
}

export const notFound: RequestHandler = (req, res) => {
  sendProblem(res, 404, 'Not Found', `no route for ${req.method} ${req.path}`);
};

/** A schema's complaints as the Problem's `errors` (the one error shape of the API). */
export function zodProblemErrors(err: ZodError, where: string) {
  return err.issues.map((i) => ({ field: [where, ...i.path.map(String)].join('.'), reason: i.message }));
}

export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, next) => {
  if (res.headersSent) return next(err);
  if (err instanceof HttpProblem) return sendProblem(res, err.status, err.title, err.detail, err.extra);
  if (err instanceof ZodError) {
    return sendProblem(res, 400, 'Bad Request', 'the request does not match its schema', { errors: zodProblemErrors(err, 'body') });
  }
  const status = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // body-parser and friends: a malformed body is the client's to fix
    return sendProblem(res, status, 'Bad Request', (err as Error).message);
  }
  req.log?.error({ err }, 'unhandled error');
  sendProblem(res, 500, 'Internal Server Error', 'an unexpected error occurred; the server log has the details');
};
