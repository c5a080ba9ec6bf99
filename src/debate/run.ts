import { performance } from 'node:perf_hooks';
import type { DebateTurn, Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { parseAgentAnswer, parseFilterAnswer, reaskMessage, type Parsed } from './answer.js';
import { readCandidates } from './candidates.js';
import { Journal } from './journal.js';
import { ensureOutDir } from './out-paths.js';
import { LlmClient, RequestFailed, type LlmSettings, type WaitingStatus } from './llm.js';
import {
  consensusRecord,
  escalationRecord,
  failedRecord,
  filteredRecord,
  jsonl,
  outPath,
  writeFileAtomic,
  type PrefilterVerdict,
} from './outputs.js';
import { llmCost, type LlmCost, type PriceTable } from './prices.js';
import { loadTemplates, templateHash, type ChatMessage, type Templates } from './prompts.js';
import { AGENTS, debateMessages, nextStep, prefilterMessages, toTurn, type Agent, type Candidate } from './protocol.js';

/**
 * `qrelay debate`: the imperative shell around protocol.ts. Candidates run in parallel
 * (requests in flight bounded by `concurrency`); every answer goes to DIR/journal.jsonl
 * before it is used, so a killed run started again replays what was answered and asks
 * only the rest; the output files are written at the end, each atomically.
 */

/** Answers that cannot be read are asked again at most this many times per turn. */
export const MAX_REASKS = 2;

export interface DebateOptions {
  candidates: string;
  out: string;
  modelA: string;
  modelB: string;
  rounds: number;
  concurrency: number;
  temperature: number;
  promptsDir?: string;
  budgetTokens?: number;
  prefilterModels: string[];
  llm: Pick<LlmSettings, 'apiKey' | 'baseURL' | 'maxRetries' | 'backoffMs' | 'timeoutMs' | 'maxAnswerBytes' | 'modelOption'>;
  prices: PriceTable;
  /** Called as candidates finish. */
  onProgress?: (done: number, total: number) => void;
  /** Aborting it stops the run (Ctrl-C): requests in flight are cancelled, the run ends with `Interrupted`. */
  signal?: AbortSignal;
  /** Called every `waitingEveryMs` while requests wait on the endpoint with no candidate finishing. */
  onWaiting?: (line: string) => void;
  waitingEveryMs?: number;
}

/** The line said while the endpoint keeps the run waiting. */
export function waitingLine(done: number, total: number, w: WaitingStatus): string {
  const parts = [`debate: ${done} of ${total} candidates done`];
  if (w.inFlight > 0) parts.push(`${w.inFlight} requests waiting on the endpoint (the longest ${Math.round(w.longestMs / 1000)} s)`);
  if (w.backingOff > 0) parts.push(`${w.backingOff} to be retried (the next in ${Math.round((w.nextRetryMs ?? 0) / 1000)} s)`);
  return `${parts.join('; ')}; Ctrl-C stops, and the same command continues later`;
}

export interface DebateSummary {
  candidates: number;
  consensus: number;
  escalated: number;
  failed: number;
  /** Of those, candidates the endpoint left unanswered: the same command asks them again. */
  failedByEndpoint: number;
  filtered: number;
  /** Requests the run used, answered or failed (from the journal included); transport retries apart. */
  requests: number;
  /** Of those, requests that got no usable answer. */
  requestsFailed: number;
  /** HTTP requests sent to the endpoint in this process, every attempt. */
  httpRequests: number;
  retries: number;
  promptTokens: number;
  completionTokens: number;
  wallSeconds: number;
  /** Consensus counts by the round of agreement ("1": ..., "2": ...). */
  consensusByRound: Record<string, number>;
  requestsSent: number;
  requestsReplayed: number;
  httpRetries: number;
  models: { a: string; b: string; prefilter: string[] };
  rounds: number;
  temperature: number;
  promptHash: string;
  tokensByModel: Record<string, { promptTokens: number; completionTokens: number }>;
  cost: LlmCost;
  files: Record<'escalations' | 'consensus' | 'filtered' | 'failed' | 'summary', string>;
}

/** `endpoint`: the endpoint gave no answer (a run again asks again); else the answers could not be read (final). */
type TurnResult = { turn: DebateTurn } | { failed: string; endpoint: boolean };

type CandidateOutcome =
  | { type: 'consensus'; label: Judgment; round: number; debate: DebateTurn[] }
  | { type: 'escalated'; debate: DebateTurn[] }
  | { type: 'filtered'; verdicts: PrefilterVerdict[] }
  | { type: 'failed'; reason: string; endpoint: boolean; debate: DebateTurn[] };

class DebateRun {
  retries = 0;

  constructor(
    private readonly opts: DebateOptions,
    private readonly templates: Templates,
    private readonly llm: LlmClient,
  ) {}

  /** Asks, and asks again (at most MAX_REASKS times) while the answer cannot be read. */
  private async ask<T>(model: string, messages: ChatMessage[], parse: (text: string) => Parsed<T>): Promise<Parsed<T>> {
    let conversation = messages;
    let last: Parsed<T> = { ok: false, reason: 'not asked' };
    for (let attempt = 0; attempt <= MAX_REASKS; attempt += 1) {
      if (attempt > 0) this.retries += 1;
      const content = await this.llm.complete({ model, temperature: this.opts.temperature, messages: conversation });
      last = parse(content);
      if (last.ok) return last;
      conversation = [...conversation, { role: 'assistant', content }, { role: 'user', content: reaskMessage(last.reason) }];
    }
    return last.ok ? last : { ok: false, reason: `${MAX_REASKS + 1} answers could not be read; the last: ${last.reason}` };
  }

  private async turn(c: Candidate, agent: Agent, round: number, earlier: readonly DebateTurn[]): Promise<TurnResult> {
    const model = agent === 'A' ? this.opts.modelA : this.opts.modelB;
    try {
      const answer = await this.ask(model, debateMessages(this.templates, c, agent, round, earlier), parseAgentAnswer);
      return answer.ok
        ? { turn: toTurn(agent, round, answer.value) }
        : { failed: `agent ${agent}, round ${round}: ${answer.reason}`, endpoint: false };
    } catch (err) {
      if (err instanceof RequestFailed) return { failed: `agent ${agent}, round ${round}: ${err.message}`, endpoint: true };
      throw err;
    }
  }

  private async prefilter(c: Candidate): Promise<PrefilterVerdict[]> {
    return Promise.all(
      this.opts.prefilterModels.map(async (model) => {
        try {
          const answer = await this.ask(model, prefilterMessages(this.templates, c), parseFilterAnswer);
          return { model, is_supported: answer.ok ? answer.value : null };
        } catch (err) {
          if (err instanceof RequestFailed) return { model, is_supported: null };
          throw err;
        }
      }),
    );
  }

  async candidate(c: Candidate): Promise<CandidateOutcome> {
    if (this.opts.prefilterModels.length > 0) {
      const verdicts = await this.prefilter(c);
      if (verdicts.every((v) => v.is_supported === false)) return { type: 'filtered', verdicts };
    }
    const debate: DebateTurn[] = [];
    for (;;) {
      const step = nextStep(debate, this.opts.rounds);
      if (step.type === 'consensus') return { type: 'consensus', label: step.label, round: step.round, debate };
      if (step.type === 'escalated') return { type: 'escalated', debate };
      const earlier = [...debate];
      // Both agents of a round at once; a fatal error of either stops the run after both settle.
      const settled = await Promise.allSettled(AGENTS.map((agent) => this.turn(c, agent, step.round, earlier)));
      const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (rejected) throw rejected.reason;
      const results = settled.map((s) => (s as PromiseFulfilledResult<TurnResult>).value);
      for (const r of results) if ('turn' in r) debate.push(r.turn);
      const failures = results.filter((r) => 'failed' in r);
      const failure = failures.find((f) => f.endpoint) ?? failures[0];
      if (failure) return { type: 'failed', reason: failure.failed, endpoint: failure.endpoint, debate };
    }
  }
}

/** Runs candidates through `work` with at most `parallel` at a time; the first thrown error stops new work and is rethrown once running ones end. */
async function runPool<T, R>(items: readonly T[], parallel: number, work: (item: T) => Promise<R>, done: () => void): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index]!);
        done();
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}

export function validateDebateOptions(o: Pick<DebateOptions, 'rounds' | 'concurrency' | 'temperature' | 'budgetTokens'>): void {
  if (!Number.isInteger(o.rounds) || o.rounds < 1 || o.rounds > 20)
    throw new UserError(`--rounds: expected a whole number from 1 to 20, got ${o.rounds}`);
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1 || o.concurrency > 1000)
    throw new UserError(`--concurrency: expected a whole number from 1 to 1000, got ${o.concurrency}`);
  if (!Number.isFinite(o.temperature) || o.temperature < 0 || o.temperature > 2)
    throw new UserError(`--temperature: expected a number from 0 to 2, got ${o.temperature}`);
  if (o.budgetTokens !== undefined && (!Number.isInteger(o.budgetTokens) || o.budgetTokens < 1))
    throw new UserError(`--budget: expected a whole number of tokens above 0, got ${o.budgetTokens}`);
}

export async function runDebate(opts: DebateOptions): Promise<DebateSummary> {
  validateDebateOptions(opts);
  const started = performance.now();
  const templates = await loadTemplates(opts.promptsDir);
  const candidates = await readCandidates(opts.candidates);
  ensureOutDir(opts.out);
  const journal = new Journal(outPath(opts.out, 'journal'));
  let ticker: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const llm = new LlmClient({ ...opts.llm, concurrency: opts.concurrency, budgetTokens: opts.budgetTokens }, journal);
    const run = new DebateRun(opts, templates, llm);
    let finished = 0;
    if (opts.signal) {
      const signal = opts.signal;
      onAbort = () => llm.stop(typeof signal.reason === 'string' ? signal.reason : 'a signal');
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    if (opts.onWaiting) {
      const say = opts.onWaiting;
      let lastFinished = -1;
      // a line only while nothing finishes: a run that moves shows its progress by itself
      ticker = setInterval(() => {
        const waiting = llm.waiting();
        if (finished === lastFinished && waiting.inFlight + waiting.backingOff > 0) say(waitingLine(finished, candidates.length, waiting));
        lastFinished = finished;
      }, opts.waitingEveryMs ?? 30_000);
      ticker.unref();
    }
    opts.onProgress?.(0, candidates.length);
    // Each candidate has at most two requests in flight (its two agents), so this many
    // candidates at once keep `concurrency` requests busy.
    const outcomes = await runPool(
      candidates,
      Math.ceil(opts.concurrency / 2) + 1,
      (c) => run.candidate(c),
      () => {
        finished += 1;
        opts.onProgress?.(finished, candidates.length);
      },
    );
    return writeOutputs(opts, templates, candidates, outcomes, run.retries, llm, started);
  } finally {
    clearInterval(ticker);
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    journal.close();
  }
}

function writeOutputs(
  opts: DebateOptions,
  templates: Templates,
  candidates: Candidate[],
  outcomes: CandidateOutcome[],
  retries: number,
  llm: LlmClient,
  started: number,
): DebateSummary {
  const escalations = [];
  const consensus = [];
  const filtered = [];
  const failed = [];
  let failedByEndpoint = 0;
  const byRound: Record<string, number> = {};
  for (const [i, c] of candidates.entries()) {
    const o = outcomes[i]!;
    if (o.type === 'escalated') escalations.push(escalationRecord(c, o.debate));
    else if (o.type === 'consensus') {
      consensus.push(consensusRecord(c, o.label, o.round, o.debate));
      byRound[String(o.round)] = (byRound[String(o.round)] ?? 0) + 1;
    } else if (o.type === 'filtered') filtered.push(filteredRecord(c, o.verdicts));
    else {
      failed.push(failedRecord(c, o.reason, o.debate));
      if (o.endpoint) failedByEndpoint += 1;
    }
  }
  const files = {
    escalations: outPath(opts.out, 'escalations'),
    consensus: outPath(opts.out, 'consensus'),
    filtered: outPath(opts.out, 'filtered'),
    failed: outPath(opts.out, 'failed'),
    summary: outPath(opts.out, 'summary'),
  };
  writeFileAtomic(files.escalations, jsonl(escalations));
  writeFileAtomic(files.consensus, jsonl(consensus));
  writeFileAtomic(files.filtered, jsonl(filtered));
  writeFileAtomic(files.failed, jsonl(failed));
  const s = llm.stats;
  const summary: DebateSummary = {
    candidates: candidates.length,
    consensus: consensus.length,
    escalated: escalations.length,
    failed: failed.length,
    failedByEndpoint,
    filtered: filtered.length,
    requests: s.requests,
    requestsFailed: s.requestsFailed,
    httpRequests: s.httpRequests,
    retries,
    promptTokens: s.promptTokens,
    completionTokens: s.completionTokens,
    wallSeconds: Math.round((performance.now() - started) / 10) / 100,
    consensusByRound: byRound,
    requestsSent: s.requestsSent,
    requestsReplayed: s.requestsReplayed,
    httpRetries: s.httpRetries,
    models: { a: opts.modelA, b: opts.modelB, prefilter: opts.prefilterModels },
    rounds: opts.rounds,
    temperature: opts.temperature,
    promptHash: templateHash(...(opts.prefilterModels.length > 0 ? [templates.prefilter] : []), templates.firstRound, templates.laterRound),
    tokensByModel: s.byModel,
    cost: llmCost(s.byModel, opts.prices),
    files,
  };
  writeFileAtomic(files.summary, `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}
