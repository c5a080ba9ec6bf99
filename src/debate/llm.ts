import OpenAI from 'openai';
import { UserError, errorMessage } from '../errors.js';
import { Journal, requestKey, type RequestSpec, type Usage } from './journal.js';

/**
 * The one door to the model endpoint (the official `openai` SDK): a bounded number of
 * requests in flight, 429 (honouring Retry-After) and 5xx/connection failures retried with
 * bounded exponential backoff, 401/404 turned into one line naming what to fix, every
 * answer stored in the journal before it is returned, and a token budget.
 */

export interface LlmSettings {
  apiKey: string | undefined;
  baseURL: string | undefined;
  /** Requests in flight at most. */
  concurrency: number;
  /** Stop before a request would take the tokens spent past this. */
  budgetTokens?: number;
  /** Transport retries per request (429, 5xx, connection) before giving up. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, capped at 30 s. */
  backoffMs?: number;
  /** Per-attempt timeout (default DEFAULT_TIMEOUT_MS); a timed-out attempt is retried like a lost connection. */
  timeoutMs?: number;
  /** Bytes of an answer read at most (default MAX_ANSWER_BYTES): a larger answer fails its request at once. */
  maxAnswerBytes?: number;
  /** Names the option that chose a model, for the 404 message. */
  modelOption: (model: string) => string;
}

export interface LlmStats {
  /** Requests the run used, answered or failed (stored ones included); transport retries are counted apart. */
  requests: number;
  /** Of those, requests that got no usable answer (the endpoint kept failing, or answered too much). */
  requestsFailed: number;
  /** HTTP requests sent to the endpoint in this process: every attempt, failed ones included. */
  httpRequests: number;
  /** Of those, answered by the endpoint in this process. */
  requestsSent: number;
  /** Of those, read back from the journal. */
  requestsReplayed: number;
  /** Transport retries (429, 5xx, connection failures) in this process. */
  httpRetries: number;
  promptTokens: number;
  completionTokens: number;
  /** Tokens per model, for the cost. */
  byModel: Record<string, Usage>;
}

export class BudgetExhausted extends UserError {
  constructor(
    readonly budget: number,
    readonly spent: number,
  ) {
    super(
      `--budget: ${spent} tokens spent, the next request could exceed the budget of ${budget} tokens; the run stopped (finished turns are kept: run again with a larger --budget to continue)`,
    );
    this.name = 'BudgetExhausted';
  }
}

/** Stops the whole run at once (wrong key, unknown model). */
export class FatalEndpointError extends UserError {}

/** A request the endpoint kept failing: the candidate is left unfinished with this reason. */
export class RequestFailed extends Error {}

/** The run was stopped (Ctrl-C): answers already journaled are kept for the next run. */
export class Interrupted extends Error {
  constructor(readonly signal: string) {
    super(`stopped by ${signal}`);
    this.name = 'Interrupted';
  }
}

/** An answer larger than `maxAnswerBytes`: reading stops there, and the request fails without a retry. */
export class AnswerTooLarge extends Error {}

/** Per attempt: long enough for slow models, short enough that a hung endpoint is noticed. */
export const DEFAULT_TIMEOUT_MS = 300_000;
/**
 * Attempts that ran out of time, or whose 200 body was not readable JSON, are tried again
 * this many times: a hung or garbling endpoint seldom mends within a run.
 */
export const MAX_TIMEOUT_RETRIES = 2;
/** A verdict with its reasons is a few KB; this leaves ample room and keeps memory bounded. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

function findCause<T>(err: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) if (e instanceof type) return e;
  return undefined;
}

/**
 * `fetch` that reads at most `limit` bytes of a body: the SDK would otherwise hold an
 * answer of any size in memory (and the journal and outputs would keep it).
 */
export function cappedFetch(limit: number): typeof fetch {
  const tooLarge = (size: string) => new AnswerTooLarge(`the endpoint's answer is ${size}, over the ${limit}-byte limit`);
  return async (input, init) => {
    const response = await fetch(input, init);
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limit) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(`${declared} bytes`);
    }
    if (!response.body) return response;
    const reader = response.body.getReader();
    let seen = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen += value.byteLength;
        if (seen > limit) {
          await reader.cancel().catch(() => undefined);
          return controller.error(tooLarge(`more than ${limit} bytes`));
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** What is waiting on the endpoint right now, for the progress line of a long wait. */
export interface WaitingStatus {
  /** Requests sent and not answered yet. */
  inFlight: number;
  /** How long the oldest of those has waited. */
  longestMs: number;
  /** Requests waiting to be retried (after a 429, a 5xx, a timeout). */
  backingOff: number;
  /** When the next of those is sent again, from now. */
  nextRetryMs: number | undefined;
}

/** Waits `ms`, or less when `signal` aborts first. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** How long the endpoint asked us to wait, from `retry-after-ms` or `retry-after` (seconds or a date). */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers?.get('retry-after');
  if (!after) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return Number(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A rough count (4 characters a token) to keep a request from crossing the budget. */
export const estimateTokens = (spec: RequestSpec) => Math.ceil(spec.messages.reduce((n, m) => n + m.content.length, 0) / 4);

class Semaphore {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}

export class LlmClient {
  private readonly client: OpenAI;
  private readonly gate: Semaphore;
  private inFlightEstimate = 0;
  /** Set by a 401/403/404: every request from then on, and those in flight, end with it at once. */
  private fatal: FatalEndpointError | undefined;
  /** One controller per request in flight (a shared signal would collect the SDK's listeners), with when it was sent. */
  private readonly inFlight = new Map<AbortController, number>();
  /** Requests waiting to be retried, with when they will be sent again. */
  private readonly backingOff = new Map<object, number>();
  /** Aborted by `stop()`: waits end and requests in flight are cancelled. */
  private readonly stopping = new AbortController();
  private stoppedBy: string | undefined;
  readonly stats: LlmStats = {
    requests: 0,
    requestsFailed: 0,
    httpRequests: 0,
    requestsSent: 0,
    requestsReplayed: 0,
    httpRetries: 0,
    promptTokens: 0,
    completionTokens: 0,
    byModel: {},
  };

  constructor(
    private readonly settings: LlmSettings,
    private readonly journal: Journal,
  ) {
    // A local OpenAI-compatible server (vLLM, ...) often needs no key; the SDK insists on one.
    const apiKey = settings.apiKey ?? (settings.baseURL ? 'no-key' : undefined);
    if (apiKey === undefined)
      throw new UserError(
        "OPENAI_API_KEY is not set: set it to the endpoint's API key (and OPENAI_BASE_URL for an endpoint other than api.openai.com)",
      );
    this.client = new OpenAI({
      apiKey,
      baseURL: settings.baseURL,
      maxRetries: 0,
      timeout: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetch: cappedFetch(settings.maxAnswerBytes ?? MAX_ANSWER_BYTES),
    });
    this.gate = new Semaphore(settings.concurrency);
  }

  private count(model: string, usage: Usage, replayed: boolean): void {
    const s = this.stats;
    s.requests += 1;
    if (replayed) s.requestsReplayed += 1;
    else s.requestsSent += 1;
    s.promptTokens += usage.promptTokens;
    s.completionTokens += usage.completionTokens;
    const m = (s.byModel[model] ??= { promptTokens: 0, completionTokens: 0 });
    m.promptTokens += usage.promptTokens;
    m.completionTokens += usage.completionTokens;
  }

  /** Ends every wait and cancels the requests in flight; they end with `Interrupted`. */
  stop(signal: string): void {
    this.stoppedBy ??= signal;
    this.stopping.abort();
    for (const c of this.inFlight.keys()) c.abort();
  }

  waiting(now = Date.now()): WaitingStatus {
    const sent = [...this.inFlight.values()];
    const retries = [...this.backingOff.values()];
    return {
      inFlight: sent.length,
      longestMs: sent.length > 0 ? now - Math.min(...sent) : 0,
      backingOff: retries.length,
      nextRetryMs: retries.length > 0 ? Math.max(0, Math.min(...retries) - now) : undefined,
    };
  }

  private interrupted(): Interrupted | undefined {
    return this.stoppedBy === undefined ? undefined : new Interrupted(this.stoppedBy);
  }

  /** The answer's text: from the journal when this exact request was answered before. */
  async complete(spec: RequestSpec): Promise<string> {
    return (await this.answer(spec)).content;
  }

  /** The answer's text and the tokens it took (as the endpoint's `usage` said). */
  async answer(spec: RequestSpec): Promise<{ content: string; usage: Usage }> {
    const key = requestKey(spec);
    const stored = this.journal.get(key);
    if (stored) {
      this.count(spec.model, stored.usage, true);
      return stored;
    }
    if (this.fatal) throw this.fatal;
    await this.gate.acquire();
    const estimate = estimateTokens(spec);
    try {
      const stopped = this.interrupted();
      if (stopped) throw stopped;
      if (this.fatal) throw this.fatal;
      const budget = this.settings.budgetTokens;
      const spent = this.stats.promptTokens + this.stats.completionTokens;
      if (budget !== undefined && spent + this.inFlightEstimate + estimate > budget) throw new BudgetExhausted(budget, spent);
      this.inFlightEstimate += estimate;
      let answered: { content: string; usage: Usage };
      try {
        answered = await this.send(spec);
      } catch (err) {
        if (err instanceof RequestFailed) {
          this.stats.requests += 1;
          this.stats.requestsFailed += 1;
        }
        throw err;
      }
      const { content, usage } = answered;
      this.journal.append({ key, model: spec.model, content, usage });
      this.count(spec.model, usage, false);
      return { content, usage };
    } finally {
      this.inFlightEstimate = Math.max(0, this.inFlightEstimate - estimate);
      this.gate.release();
    }
  }

  private async send(spec: RequestSpec): Promise<{ content: string; usage: Usage }> {
    const maxRetries = this.settings.maxRetries ?? 6;
    const backoff = this.settings.backoffMs ?? 500;
    let timeouts = 0;
    let garbled = 0;
    for (let attempt = 0; ; attempt += 1) {
      const controller = new AbortController();
      this.inFlight.set(controller, Date.now());
      this.stats.httpRequests += 1;
      try {
        const response = await this.client.chat.completions.create(
          {
            model: spec.model,
            temperature: spec.temperature,
            messages: spec.messages.map((m) => ({ role: m.role, content: m.content })),
          },
          { signal: controller.signal },
        );
        const content = response.choices[0]?.message?.content ?? '';
        const usage = { promptTokens: response.usage?.prompt_tokens ?? 0, completionTokens: response.usage?.completion_tokens ?? 0 };
        return { content, usage };
      } catch (err) {
        const stopped = this.interrupted();
        if (stopped) throw stopped;
        if (this.fatal) throw this.fatal;
        const tooLarge = findCause(err, AnswerTooLarge);
        // the same question would bring the same flood: fail the request now
        if (tooLarge) throw new RequestFailed(`${tooLarge.message}; the answer was not kept`, { cause: err });
        if (err instanceof OpenAI.APIConnectionTimeoutError && ++timeouts > MAX_TIMEOUT_RETRIES)
          throw new RequestFailed(
            `no answer within ${Math.round((this.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s (--timeout), ${timeouts} attempts`,
            { cause: err },
          );
        const unreadable = findCause(err, SyntaxError);
        if (unreadable && ++garbled > MAX_TIMEOUT_RETRIES)
          throw new RequestFailed(`the endpoint's answer was not readable JSON ${garbled} times: ${unreadable.message}`, { cause: err });
        let wait: number;
        try {
          wait = this.retryDelay(err, spec.model, attempt, backoff);
        } catch (stop) {
          if (stop instanceof FatalEndpointError) {
            this.fatal = stop;
            for (const c of this.inFlight.keys()) c.abort();
          }
          throw stop;
        }
        if (attempt >= maxRetries)
          throw new RequestFailed(`the endpoint kept failing after ${attempt + 1} attempts: ${errorMessage(err)}`, { cause: err });
        this.stats.httpRetries += 1;
        const token = {};
        this.backingOff.set(token, Date.now() + wait);
        await sleep(wait, this.stopping.signal).finally(() => this.backingOff.delete(token));
        const stoppedWaiting = this.interrupted();
        if (stoppedWaiting) throw stoppedWaiting;
      } finally {
        this.inFlight.delete(controller);
      }
    }
  }

  /** The wait before the next attempt; throws for errors that retrying cannot fix. */
  private retryDelay(err: unknown, model: string, attempt: number, backoff: number): number {
    const exponential = Math.min(30_000, backoff * 2 ** attempt) * (0.75 + Math.random() * 0.5);
    if (err instanceof OpenAI.APIConnectionError) return exponential;
    // a 200 whose body is not the JSON it claims (cut short, garbled): an unreadable answer, asked again
    if (findCause(err, SyntaxError)) return exponential;
    if (!(err instanceof OpenAI.APIError) || err.status === undefined) throw err;
    const status = err.status;
    if (status === 401)
      throw new FatalEndpointError('the endpoint refused the API key (401 Unauthorized): set OPENAI_API_KEY to a valid key for it');
    if (status === 403)
      throw new FatalEndpointError(
        `the endpoint refused access (403 Forbidden) for model "${model}": check OPENAI_API_KEY's permissions or ${this.settings.modelOption(model)}`,
      );
    if (status === 404)
      throw new FatalEndpointError(
        `the endpoint knows no model "${model}" (404 Not Found): fix ${this.settings.modelOption(model)} (or OPENAI_BASE_URL if the address is wrong)`,
      );
    if (status === 429 || status === 408 || status === 409 || status >= 500) {
      const asked = retryAfterMs(err.headers);
      // Retry-After is honoured up to two minutes (and never longer than one attempt may take).
      const cap = Math.min(120_000, this.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      return asked !== undefined ? Math.min(asked, cap) : exponential;
    }
    throw new FatalEndpointError(`the endpoint refused a request for model "${model}" (${status}): ${err.message}`);
  }
}
