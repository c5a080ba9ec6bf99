import type { Judgment } from '../domain/cases.js';
import { balancedAccuracy, bayesOptimalLabels } from '../quality/index.js';
import type { Forecast } from './forecast.js';

/**
 * Issue 16's four quality targets, measured on one `qrelay simulate --json` forecast and
 * the truth it was run with (pure). Reads only the forecast's fields (`accuracy`, `votes`,
 * `workers[]`, `cost`), so it measures whatever the pipeline does.
 */

/** The simulated kinds that do not do the task: they should be blocked. */
export const BAD_KINDS: readonly string[] = ['spammer', 'alwaysYes', 'alwaysNo'];
export const LLM_FLAG = 'llm-assisted';

export interface QualityFigures {
  /** (a) balanced accuracy of the labels export-qrels writes by default, and the optimum from the same votes (every answer collected, each shared source once). */
  readonly balancedAccuracy: number | null;
  readonly optimum: number | null;
  /** Workers whose true accuracy the optimum estimated from the truth (LLM-assisted ones). */
  readonly optimumEstimated: number;
  /** (b) bad workers with 2 or more assignments, and how many of them were blocked. */
  readonly bad: { readonly workers: number; readonly blocked: number; readonly share: number | null };
  /** (b) diligent workers' assignments, and how many were discarded. */
  readonly diligent: { readonly assignments: number; readonly discarded: number; readonly share: number | null };
  /** (c) LLM-assisted workers (with an assignment) and the workers flagged `llm-assisted`. */
  readonly llm: {
    readonly workers: number;
    readonly flagged: number;
    readonly truePositives: number;
    readonly recall: number | null;
    readonly precision: number | null;
  };
  /** (d) dollars per label, and the total against the quote. */
  readonly costPerLabel: number | null;
  readonly cost: { readonly total: number; readonly quote: number };
}

const key = (queryId: string, chunkId: string) => `${queryId}\t${chunkId}`;
const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** `truth`: (query id, chunk id) -> true label, keyed `query\tchunk`. */
export function qualityFigures(forecast: Forecast, truth: ReadonlyMap<string, Judgment>): QualityFigures {
  const votes = forecast.votes.map((v) => ({ item: key(v.query_id, v.chunk_id), worker: v.workerId, answer: v.answer }));
  const accuracy = new Map(forecast.workers.map((w) => [w.workerId, w.trueAccuracy]));
  for (const v of votes) if (!accuracy.has(v.worker)) accuracy.set(v.worker, null);
  const optimal = bayesOptimalLabels({ votes, accuracy, truth, sources: sharedSources(forecast.workers) });
  const judged = new Map([...truth].filter(([item]) => optimal.labels.has(item)));

  const bad = forecast.workers.filter((w) => BAD_KINDS.includes(w.kind) && w.assignments >= 2);
  const diligent = forecast.workers.filter((w) => w.kind === 'diligent');
  const diligentAssignments = diligent.reduce((n, w) => n + w.assignments, 0);
  const diligentDiscarded = diligent.reduce((n, w) => n + w.discardedAssignments, 0);
  const llm = forecast.workers.filter((w) => w.kind === 'llm' && w.assignments > 0);
  const flagged = forecast.workers.filter((w) => w.flags.includes(LLM_FLAG));
  const truePositives = flagged.filter((w) => w.kind === 'llm').length;
  return {
    balancedAccuracy: forecast.accuracy?.balancedAccuracy ?? null,
    optimum: judged.size === 0 ? null : balancedAccuracy(optimal.labels, judged, ['yes', 'no']).value,
    optimumEstimated: optimal.estimated.length,
    bad: {
      workers: bad.length,
      blocked: bad.filter((w) => w.blocked).length,
      share: share(bad.filter((w) => w.blocked).length, bad.length),
    },
    diligent: { assignments: diligentAssignments, discarded: diligentDiscarded, share: share(diligentDiscarded, diligentAssignments) },
    llm: {
      workers: llm.length,
      flagged: flagged.length,
      truePositives,
      recall: share(truePositives, llm.length),
      precision: share(truePositives, flagged.length),
    },
    costPerLabel: forecast.cost.perLabel,
    cost: { total: forecast.cost.total, quote: forecast.cost.quote },
  };
}

/**
 * The workers who answer from one shared source, as the simulation draws them
 * (simulation/decide.ts): every LLM-assisted worker gives the one LLM's verdict, and a copying
 * pair gives the pair's one answer (with `llmAgreement` 1, the default: below it an LLM user
 * sometimes answers alone, and the majority of the group stands for them). The optimum counts
 * each source once per item.
 */
export function sharedSources(workers: Forecast['workers']): Map<string, string> {
  const sources = new Map<string, string>();
  for (const w of workers) {
    if (w.kind === 'llm') sources.set(w.workerId, 'llm');
    else if (w.kind === 'copier' && w.pair !== undefined) sources.set(w.workerId, `copying pair ${w.pair}`);
  }
  return sources;
}

/** The mean of the defined values; null when none is. */
export function meanOf(values: readonly (number | null)[]): number | null {
  const defined = values.filter((v): v is number => v !== null);
  return defined.length === 0 ? null : defined.reduce((a, b) => a + b, 0) / defined.length;
}
