import type { AggregatorShortName } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import type { WorkerKind } from './population.js';
import type { Report } from '../reports/index.js';
import { betterAggregate } from '../export/aggregate-decision.js';

/**
 * The forecast `qrelay simulate` prints (pure): what the batch would cost, how long it
 * would take and how good its labels would be, from the simulated copy's report, its votes
 * and the simulated workers' hidden kinds. Money in US dollars (cents in `...Cents`),
 * durations in simulated seconds; `wallSeconds` is the only field that is not the same
 * from run to run.
 */

export interface ForecastVote {
  query_id: string;
  chunk_id: string;
  workerId: string;
  answer: Judgment;
}

export interface ForecastWorker {
  workerId: string;
  /** The simulated worker's hidden kind (diligent, spammer, alwaysYes, alwaysNo, llm, fatigue, quitter, honest, careless, copier). */
  kind: WorkerKind | 'unknown';
  assignments: number;
  discardedAssignments: number;
  rejectedAssignments: number;
  blocked: boolean;
  flags: string[];
  /** With the `llm-assisted` flag: the evidence, one sentence per signal. */
  llmEvidence?: string[];
  /**
   * The simulated worker's true per-class accuracy on an item answered alone (P(yes | relevant),
   * P(no | not relevant)), before hard items, fatigue and the debate; null for LLM-assisted
   * workers, whose answers follow the LLM's verdict per item, and careful-then-careless workers,
   * whose accuracy changes at their change point.
   */
  trueAccuracy: { relevant: number; notRelevant: number } | null;
  /** Careful-then-careless workers: the assignments they worked carefully before turning careless. */
  changeAfter?: number;
  /** Copiers: the pair whose one answer they give (the pair's number), so that a yardstick counts a pair as one source. */
  pair?: number;
}

/** A simulated worker's hidden parameters, as the forecast reports them. */
export interface HiddenWorker {
  kind: WorkerKind;
  accuracy: { relevant: number; notRelevant: number };
  changeAfter?: number;
  pair?: number;
}

export function trueAccuracy(w: HiddenWorker): ForecastWorker['trueAccuracy'] {
  switch (w.kind) {
    case 'spammer':
      return { relevant: 0.5, notRelevant: 0.5 };
    case 'alwaysYes':
      return { relevant: 1, notRelevant: 0 };
    case 'alwaysNo':
      return { relevant: 0, notRelevant: 1 };
    case 'llm':
    case 'careless':
      return null;
    default:
      return { relevant: round6(w.accuracy.relevant), notRelevant: round6(w.accuracy.notRelevant) };
  }
}

const hiddenParameters = (w: HiddenWorker | undefined): { changeAfter?: number; pair?: number } => ({
  ...(w?.changeAfter !== undefined && { changeAfter: w.changeAfter }),
  ...(w?.kind === 'copier' && w.pair !== undefined && { pair: w.pair }),
});

export type Interval = [number, number];

export interface AggregateFigures {
  labels: number;
  accuracy: number | null;
  balancedAccuracy: number | null;
  ci95: Interval | null;
}

export interface Forecast {
  batch: string;
  source: string;
  simulated: true;
  seed: string;
  hideDebate: boolean;
  items: number;
  labels: number;
  unresolved: number;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  /**
   * Against the truth file; null without one. `ci95`: the 95% interval of the balanced accuracy.
   * These are the labels `export-qrels` writes by default for this batch (`aggregate`): the
   * better of `aggregation.majority` and `aggregation.ds` by balanced accuracy (majority on a tie).
   */
  accuracy: null | {
    accuracy: number | null;
    balancedAccuracy: number | null;
    ci95: Interval | null;
    accuracyCi95: Interval | null;
    compared: number;
    aggregate: AggregatorShortName;
  };
  /**
   * The protocol's majority of 3 next to Dawid–Skene (checks as gold, worker priors from the
   * evidence), against the truth (figures null without one), and how many items they label differently.
   */
  aggregation: {
    majority: AggregateFigures;
    ds: AggregateFigures;
    differences: number;
    /** The one export-qrels writes by default (recorded for the source batch); majority without a truth. */
    better: AggregatorShortName;
  };
  cost: {
    quote: number;
    total: number;
    quoteCents: number;
    totalCents: number;
    perLabel: number | null;
    extraAssignments: number;
    extraAssignmentsCost: number;
    discardedAssignments: number;
  };
  latency: { p50Seconds: number | null; p90Seconds: number | null; p99Seconds: number | null; lastVoteSeconds: number | null };
  assignments: number;
  votes: ForecastVote[];
  workers: ForecastWorker[];
  /** Real seconds the simulation took, and how they split (the only fields that differ between two runs, but for `rounds`). */
  wallSeconds: number;
  wall: {
    /** The copy of the source batch, then the plan and the HITs on the private marketplace. */
    copySeconds: number;
    publishSeconds: number;
    crowdSeconds: number;
    roundsSeconds: number;
    rounds: number;
    /** After the last round: the copy's report and votes for this forecast. */
    endSeconds: number;
  };
}

const Z95 = 1.959964;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const tenths = (x: number) => Math.round(x * 10) / 10;
const clamp = (x: number) => Math.min(1, Math.max(0, x));

/** The Wilson score interval of a proportion. */
export function wilsonInterval(successes: number, n: number): Interval | null {
  if (n === 0) return null;
  const p = successes / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [round6(clamp(centre - half)), round6(clamp(centre + half))];
}

/** A normal-approximation interval of the balanced accuracy (mean of per-class recalls, classes independent). */
export function balancedAccuracyInterval(perClass: readonly { support: number; correct: number }[]): Interval | null {
  const classes = perClass.filter((c) => c.support > 0);
  if (classes.length === 0) return null;
  const recalls = classes.map((c) => c.correct / c.support);
  const mean = recalls.reduce((a, b) => a + b, 0) / classes.length;
  const variance = classes.reduce((s, c, i) => s + (recalls[i]! * (1 - recalls[i]!)) / c.support, 0) / (classes.length * classes.length);
  const half = Z95 * Math.sqrt(variance);
  return [round6(clamp(mean - half)), round6(clamp(mean + half))];
}

const usd = (cents: number) => Math.round(cents) / 100;
type PerClass = NonNullable<Summary['perClass']>;
const comparedOf = (p: PerClass) => p.yes.support + p.no.support;
const correctOf = (p: PerClass) => p.yes.correct + p.no.correct;
const roundOrNull = (x: number | null) => (x === null ? null : round6(x));

export interface ForecastInput {
  source: string;
  seed: string;
  hideDebate: boolean;
  withTruth: boolean;
  report: Report;
  votes: ForecastVote[];
  kinds: ReadonlyMap<string, HiddenWorker>;
  blocked: ReadonlySet<string>;
  wallSeconds: number;
  wall: Forecast['wall'];
}

const byVote = (a: ForecastVote, b: ForecastVote) =>
  a.query_id < b.query_id
    ? -1
    : a.query_id > b.query_id
      ? 1
      : a.chunk_id < b.chunk_id
        ? -1
        : a.chunk_id > b.chunk_id
          ? 1
          : a.workerId < b.workerId
            ? -1
            : a.workerId > b.workerId
              ? 1
              : 0;

type Summary = Report['quality']['aggregation']['majority'];

function figures(s: Summary, withTruth: boolean): AggregateFigures {
  return {
    labels: s.labels,
    accuracy: withTruth ? roundOrNull(s.accuracy) : null,
    balancedAccuracy: withTruth ? roundOrNull(s.balancedAccuracy) : null,
    ci95: withTruth && s.perClass ? balancedAccuracyInterval(Object.values(s.perClass)) : null,
  };
}

export function buildForecast(f: ForecastInput): Forecast {
  const r = f.report;
  const comparison = r.quality.aggregation;
  const aggregation = {
    majority: figures(comparison.majority, f.withTruth),
    ds: figures(comparison.dawidSkene, f.withTruth),
    differences: comparison.differences.length,
  };
  const better = betterAggregate(aggregation.majority, aggregation.ds);
  const chosen = better === 'ds' ? comparison.dawidSkene : comparison.majority;
  const quote = r.cost.quote;
  const extra = quote?.differences.find((d) => d.reason === 'extra-assignments');
  return {
    batch: r.batch,
    source: f.source,
    simulated: true,
    seed: f.seed,
    hideDebate: f.hideDebate,
    items: r.items,
    labels: r.labels,
    unresolved: r.items - r.labels,
    fleissKappa: roundOrNull(r.fleissKappa),
    krippendorffAlpha: roundOrNull(r.krippendorffAlpha),
    accuracy:
      f.withTruth && chosen.perClass
        ? {
            accuracy: roundOrNull(chosen.accuracy),
            balancedAccuracy: roundOrNull(chosen.balancedAccuracy),
            ci95: balancedAccuracyInterval(Object.values(chosen.perClass)),
            accuracyCi95: wilsonInterval(correctOf(chosen.perClass), comparedOf(chosen.perClass)),
            compared: comparedOf(chosen.perClass),
            aggregate: better,
          }
        : null,
    aggregation: { ...aggregation, better },
    cost: {
      quote: usd(quote?.quoted.total ?? 0),
      total: usd(r.cost.total),
      quoteCents: quote?.quoted.total ?? 0,
      totalCents: r.cost.total,
      perLabel: r.cost.perLabel === null ? null : usd(r.cost.perLabel),
      extraAssignments: extra?.count ?? 0,
      extraAssignmentsCost: usd(extra?.cents ?? 0),
      discardedAssignments: r.cost.discardedWork.assignments,
    },
    latency: {
      p50Seconds: r.latency.timeToTarget.p50Seconds,
      p90Seconds: r.latency.timeToTarget.p90Seconds,
      p99Seconds: r.latency.timeToTarget.p99Seconds,
      lastVoteSeconds: r.latency.publishToLastValidVoteSeconds,
    },
    assignments: r.assignments,
    votes: [...f.votes].sort(byVote),
    workers: r.workers.map((w) => ({
      workerId: w.worker,
      kind: f.kinds.get(w.worker)?.kind ?? 'unknown',
      assignments: w.assignments.submitted,
      discardedAssignments: w.assignments.discarded,
      rejectedAssignments: w.assignments.rejected,
      blocked: f.blocked.has(w.worker),
      flags: [...w.flags],
      ...(w.llmEvidence && { llmEvidence: [...w.llmEvidence] }),
      trueAccuracy: (() => {
        const hidden = f.kinds.get(w.worker);
        return hidden ? trueAccuracy(hidden) : null;
      })(),
      ...hiddenParameters(f.kinds.get(w.worker)),
    })),
    wallSeconds: tenths(f.wallSeconds),
    wall: {
      copySeconds: tenths(f.wall.copySeconds),
      publishSeconds: tenths(f.wall.publishSeconds),
      crowdSeconds: tenths(f.wall.crowdSeconds),
      roundsSeconds: tenths(f.wall.roundsSeconds),
      rounds: f.wall.rounds,
      endSeconds: tenths(f.wall.endSeconds),
    },
  };
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
const dur = (s: number | null) => {
  if (s === null) return 'n/a';
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m`;
};

/** The forecasts as text, side by side when there are several (`--compare-debate`). */
export function renderForecasts(forecasts: readonly { title: string; forecast: Forecast }[]): string {
  const rows: [string, (f: Forecast) => string][] = [
    ['items', (f) => String(f.items)],
    ['labels', (f) => `${f.labels} (${f.unresolved} unresolved)`],
    ['Fleiss κ', (f) => num(f.fleissKappa)],
    ['Krippendorff α', (f) => num(f.krippendorffAlpha)],
    [
      'accuracy',
      (f) => (f.accuracy ? `${pct(f.accuracy.accuracy)} [${f.accuracy.accuracyCi95?.map(pct).join(', ') ?? 'n/a'}]` : 'n/a (no truth)'),
    ],
    [
      'balanced accuracy',
      (f) =>
        f.accuracy
          ? `${pct(f.accuracy.balancedAccuracy)} [${f.accuracy.ci95?.map(pct).join(', ') ?? 'n/a'}] (${f.accuracy.aggregate === 'ds' ? 'Dawid–Skene' : 'majority'}, what export-qrels writes)`
          : 'n/a (no truth)',
    ],
    [
      'majority vs DS',
      (f) =>
        f.accuracy
          ? `balanced accuracy ${pct(f.aggregation.majority.balancedAccuracy)} vs ${pct(f.aggregation.ds.balancedAccuracy)}; ${f.aggregation.differences} items labelled differently`
          : `${f.aggregation.differences} items labelled differently (no truth)`,
    ],
    [
      'cost',
      (f) =>
        `$${f.cost.total.toFixed(2)} (quote $${f.cost.quote.toFixed(2)}; ${f.cost.extraAssignments} extra assignments $${f.cost.extraAssignmentsCost.toFixed(2)})`,
    ],
    ['time to decided', (f) => `p50 ${dur(f.latency.p50Seconds)}, p90 ${dur(f.latency.p90Seconds)} (simulated)`],
    ['last vote', (f) => `${dur(f.latency.lastVoteSeconds)} after publishing (simulated)`],
    [
      'assignments',
      (f) =>
        `${f.assignments} submitted, ${f.cost.discardedAssignments} discarded; ${f.workers.length} workers, ${f.workers.filter((w) => w.blocked).length} blocked`,
    ],
    ['wall time', (f) => `${f.wallSeconds.toFixed(1)} s`],
  ];
  const label = Math.max(...rows.map(([l]) => l.length)) + 2;
  const cells = forecasts.map(({ forecast }) => rows.map(([, cell]) => cell(forecast)));
  const widths = forecasts.map(({ title }, i) => Math.max(title.length, ...cells[i]!.map((c) => c.length)) + 3);
  const line = (l: string, values: string[]) =>
    (l.padEnd(label) + values.map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!))).join('')).trimEnd();
  const head = forecasts.map((f) => f.title);
  const first = forecasts[0]!.forecast;
  return [
    `forecast for batch ${first.source} (simulated cop${forecasts.length > 1 ? 'ies' : 'y'} ${forecasts.map((f) => f.forecast.batch).join(', ')}, seed ${first.seed})`,
    ...(forecasts.length > 1 ? [line('', head)] : []),
    ...rows.map(([l], r) =>
      line(
        l,
        cells.map((c) => c[r]!),
      ),
    ),
    '',
  ].join('\n');
}
