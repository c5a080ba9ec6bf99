import { CrowdCallError, type ClassifiedFailure, type RetryPolicy } from '../call-error.js';

/**
 * Prolific's researcher API over fetch: `Authorization: Token <token>`, JSON bodies, paths
 * relative to the API's base (`https://api.prolific.com/api/v1/`, or the bundled
 * marketplace's `/prolific/api/v1/`). Throttling (429), service faults (5xx) and network
 * errors are retried with capped, jittered backoff; anything else Prolific refuses is a
 * `request-error` that stops at once. A call that must not be repeated blindly (paying a
 * bonus) passes `retry: false`.
 */

export const PROLIFIC_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 200, maxDelayMs: 15_000 };

/** Prolific's error body: `{"error": {"status", "error_code", "title", "detail"}}` (sometimes bare). */
export class ProlificHttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`HTTP ${status}: ${detail}`);
    this.name = 'ProlificHttpError';
  }
}

function describeDetail(body: unknown): string {
  const root = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const inner = typeof root.error === 'object' && root.error !== null ? (root.error as Record<string, unknown>) : root;
  const detail = inner.detail ?? inner.message ?? inner.title ?? body;
  if (typeof detail === 'string') return detail;
  if (typeof detail === 'object' && detail !== null && !Array.isArray(detail)) {
    return Object.entries(detail as Record<string, unknown>)
      .map(([field, msgs]) => `${field}: ${Array.isArray(msgs) ? msgs.join(' ') : String(msgs)}`)
      .join('; ');
  }
  return JSON.stringify(detail);
}

export function classifyProlificFailure(err: unknown): ClassifiedFailure {
  if (err instanceof ProlificHttpError) {
    if (err.status === 429) return { kind: 'throttled', retryable: true, message: err.message };
    if (err.status >= 500) return { kind: 'service-fault', retryable: true, message: err.message };
    return { kind: 'request-error', retryable: false, message: err.message };
  }
  return { kind: 'network', retryable: true, message: err instanceof Error ? err.message : String(err) };
}

export interface ProlificClientOptions {
  baseUrl: string;
  token: string;
  retry?: RetryPolicy;
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; failure: ClassifiedFailure }) => void;
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** false: one attempt only (a call that would take effect twice). */
  retry?: boolean;
}

export class ProlificClient {
  private readonly base: string;

  constructor(private readonly opts: ProlificClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '') + '/';
  }

  async call<T>(operation: string, method: string, path: string, opts: CallOptions = {}): Promise<T> {
    const policy = this.opts.retry ?? PROLIFIC_RETRY_POLICY;
    const attempts = opts.retry === false ? 1 : policy.maxAttempts;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(method, path, opts);
      } catch (err) {
        const failure = classifyProlificFailure(err);
        if (!failure.retryable || attempt + 1 >= attempts) throw new CrowdCallError(operation, failure, attempt + 1);
        const delayMs = Math.floor(Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt));
        this.opts.onRetry?.({ operation, attempt: attempt + 1, delayMs, failure });
        await new Promise<void>((r) => setTimeout(r, delayMs));
      }
    }
  }

  private async once<T>(method: string, path: string, opts: CallOptions): Promise<T> {
    const res = await fetch(new URL(path.replace(/^\/+/, ''), this.base), {
      method,
      headers: {
        Authorization: `Token ${this.opts.token}`,
        Accept: 'application/json',
        ...(opts.body !== undefined && { 'Content-Type': 'application/json' }),
        ...opts.headers,
      },
      ...(opts.body !== undefined && { body: JSON.stringify(opts.body) }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!res.ok) throw new ProlificHttpError(res.status, describeDetail(parsed));
    return parsed as T;
  }
}
