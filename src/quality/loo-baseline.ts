import { median, type AgentBaseline } from './llm-assisted.js';

/**
 * What the LLM-assisted detection compares a worker with: the careful workers of the batch
 * but that worker (pure). Summed and sorted once for the whole batch, then each worker's
 * baseline takes its own figures out: computing each from the others' list was quadratic in
 * the batch's workers (twice a round, every round). The numbers are the same as computing
 * each apart (`baselineFrom` in llm-flags.ts; loo-baseline.test.ts compares them): the sums
 * are of integers, and a median of the others is the same element of the sorted list with
 * the worker's own value left out.
 */

export interface WorkerSummary {
  readonly contested: number;
  readonly followedA: number;
  readonly items: number;
  readonly eventItems: number;
  /** Median log(ms per 1,000 characters), with 3 timed items or more. */
  readonly logSpeed: number | null;
}

/** Speeds needed for a centre and spread at all. */
export const MIN_SPEEDS = 5;

/** `workers`' baseline from the given summaries, as one list (the figures `llmAssistedVerdict` compares with). */
export function baselineFrom(workers: readonly WorkerSummary[]): AgentBaseline {
  const sum = (pick: (w: WorkerSummary) => number) => workers.reduce((a, w) => a + pick(w), 0);
  const items = sum((w) => w.items);
  // the median and MAD of the workers' median reading speeds
  const speeds = workers.flatMap((w) => (w.logSpeed === null ? [] : [w.logSpeed]));
  const centre = speeds.length >= MIN_SPEEDS ? median(speeds) : undefined;
  return {
    items: sum((w) => w.contested),
    followedA: sum((w) => w.followedA),
    ...(items > 0 && { eventRate: sum((w) => w.eventItems) / items }),
    ...(centre !== undefined && {
      logSpeed: { centre, spread: 1.4826 * median(speeds.map((x) => Math.abs(x - centre))) },
    }),
  };
}

const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);

/** The `k`-th smallest (from 0) of sorted `s` with the element at `skip` left out (none when -1). */
const kthWithout = (s: readonly number[], skip: number, k: number) => (skip < 0 || k < skip ? s[k]! : s[k + 1]!);

/** The median of sorted `s` with the element at `skip` left out (none when -1). */
function medianWithout(s: readonly number[], skip: number): number {
  const n = skip < 0 ? s.length : s.length - 1;
  const mid = n >> 1;
  return n % 2 ? kthWithout(s, skip, mid) : (kthWithout(s, skip, mid - 1) + kthWithout(s, skip, mid)) / 2;
}

/** An index of `value` in sorted `s` (equal values are interchangeable). */
function indexOf(s: readonly number[], value: number): number {
  let lo = 0;
  let hi = s.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return s[lo] === value ? lo : -1;
}

/**
 * For each worker of `summaries`, the baseline of the workers of `among` but that worker:
 * `baselineFrom` of the summaries of `among` (in any order) without the worker's own.
 */
export function leaveOneOutBaselines(
  summaries: ReadonlyMap<string, WorkerSummary>,
  among: (worker: string) => boolean,
): Map<string, AgentBaseline> {
  const included = [...summaries].filter(([w]) => among(w));
  const total = { contested: 0, followedA: 0, items: 0, eventItems: 0 };
  for (const [, s] of included) {
    total.contested += s.contested;
    total.followedA += s.followedA;
    total.items += s.items;
    total.eventItems += s.eventItems;
  }
  const speeds = sorted(included.flatMap(([, s]) => (s.logSpeed === null ? [] : [s.logSpeed])));
  // the deviations from each centre met, sorted (a centre is one of at most three values)
  const deviations = new Map<number, number[]>();
  const deviationsFrom = (centre: number) => {
    let d = deviations.get(centre);
    if (!d) deviations.set(centre, (d = sorted(speeds.map((x) => Math.abs(x - centre)))));
    return d;
  };
  const out = new Map<string, AgentBaseline>();
  for (const [worker, s] of summaries) {
    const own = among(worker) ? s : undefined;
    const items = total.items - (own?.items ?? 0);
    const skip = own && own.logSpeed !== null ? indexOf(speeds, own.logSpeed) : -1;
    const n = skip < 0 ? speeds.length : speeds.length - 1;
    let logSpeed: AgentBaseline['logSpeed'];
    if (n >= MIN_SPEEDS) {
      const centre = medianWithout(speeds, skip);
      const d = deviationsFrom(centre);
      const ownDeviation = skip < 0 ? -1 : indexOf(d, Math.abs(own!.logSpeed! - centre));
      logSpeed = { centre, spread: 1.4826 * medianWithout(d, ownDeviation) };
    }
    out.set(worker, {
      items: total.contested - (own?.contested ?? 0),
      followedA: total.followedA - (own?.followedA ?? 0),
      ...(items > 0 && { eventRate: (total.eventItems - (own?.eventItems ?? 0)) / items }),
      ...(logSpeed && { logSpeed }),
    });
  }
  return out;
}
