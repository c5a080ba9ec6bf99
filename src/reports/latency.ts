import { decidedAfter, type DecisionRule } from '../quality/index.js';
import { ascending, centsPerHour, nearestRank, seconds } from './arithmetic.js';
import type { ResolvedReportOptions } from './options.js';
import type { WorkerPay } from './pay.js';
import type { BatchFacts } from './prepare.js';
import type { LatencyReport, ThroughputBucket } from './types.js';

/**
 * Per decided item (quality/decided-items.ts, the rule status and the console count by):
 * milliseconds from publishing to the SubmitTime of the valid vote that decided it (at
 * least 0: see `sincePublish`).
 */
export function timesToTarget(facts: BatchFacts, rule: DecisionRule): Map<string, number> {
  const times = new Map<string, number[]>();
  for (const v of facts.votes) {
    const list = times.get(v.item);
    if (list) list.push(v.atMs);
    else times.set(v.item, [v.atMs]);
  }
  const reached = new Map<string, number>();
  // facts.votes are in SubmitTime order, so each item's k-th vote is its k-th time
  for (const [item, k] of decidedAfter(facts.votes, rule)) reached.set(item, sincePublish(facts, times.get(item)![k - 1]!));
  return reached;
}

/** Milliseconds since publishing; clock skew between us and the platform can make it negative, which counts as 0. */
function sincePublish(facts: BatchFacts, atMs: number): number {
  return Math.max(0, atMs - (facts.publishedMs ?? atMs));
}

/** Bucket widths to choose from, in seconds: the smallest giving at most MAX_BUCKETS buckets. */
const BUCKET_WIDTHS = [60, 300, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800, 604_800];
const MAX_BUCKETS = 48;

function throughput(facts: BatchFacts, reached: ReadonlyMap<string, number>, bucketSeconds: number | null): LatencyReport['throughput'] {
  const voteTimes = facts.votes.map((v) => sincePublish(facts, v.atMs));
  const doneTimes = [...reached.values()];
  const last = voteTimes.reduce((a, b) => Math.max(a, b), 0);
  const width = bucketSeconds ?? BUCKET_WIDTHS.find((w) => Math.floor(last / 1000 / w) + 1 <= MAX_BUCKETS) ?? BUCKET_WIDTHS.at(-1)!;
  if (voteTimes.length === 0) return { bucketSeconds: width, buckets: [] };
  const count = Math.floor(last / 1000 / width) + 1;
  const votes = new Array<number>(count).fill(0);
  const done = new Array<number>(count).fill(0);
  for (const t of voteTimes) votes[Math.floor(t / 1000 / width)]!++;
  for (const t of doneTimes) done[Math.floor(t / 1000 / width)]!++;
  const perHour = (n: number) => Math.round((n * 3600 * 1000) / width) / 1000;
  let cumulativeValidVotes = 0;
  let cumulativeDecidedItems = 0;
  const buckets: ThroughputBucket[] = votes.map((validVotes, i) => {
    const decidedItems = done[i]!;
    cumulativeValidVotes += validVotes;
    cumulativeDecidedItems += decidedItems;
    return {
      startSeconds: i * width,
      validVotes,
      decidedItems,
      validVotesPerHour: perHour(validVotes),
      decidedItemsPerHour: perHour(decidedItems),
      cumulativeValidVotes,
      cumulativeDecidedItems,
    };
  });
  return { bucketSeconds: width, buckets };
}

function workerTimePerItem(facts: BatchFacts): LatencyReport['workerTimePerItem'] {
  const times: number[] = [];
  let measured = 0;
  for (const { input: a, workMs } of facts.assignments) {
    const share = workMs !== null && a.answers.length > 0 ? workMs / a.answers.length : null;
    for (const answer of a.answers) {
      if (answer.timeMs !== undefined) {
        measured++;
        times.push(answer.timeMs);
      } else if (share !== null) times.push(share);
    }
  }
  times.sort(ascending);
  const p = (n: number) => {
    const v = nearestRank(times, n);
    return v === null ? null : seconds(v);
  };
  return { measured, estimated: times.length - measured, p50Seconds: p(50), p90Seconds: p(90) };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function latencyReport(
  facts: BatchFacts,
  reached: ReadonlyMap<string, number>,
  pay: ReadonlyMap<string, WorkerPay>,
  options: Pick<ResolvedReportOptions, 'voteTarget' | 'minimumHourlyPayCents' | 'throughputBucketSeconds'>,
): LatencyReport {
  const accepts = facts.assignments.flatMap((a) => (a.acceptMs === null ? [] : [a.acceptMs]));
  const firstAcceptMs = accepts.length === 0 ? null : accepts.reduce((a, b) => Math.min(a, b));
  const lastVoteMs = facts.votes.length === 0 ? null : facts.votes.reduce((a, v) => Math.max(a, v.atMs), -Infinity);
  const since = (ms: number | null) => (ms === null || facts.publishedMs === null ? null : seconds(sincePublish(facts, ms)));

  const toTarget = [...reached.values()].sort(ascending);
  const p = (n: number) => {
    const v = nearestRank(toTarget, n);
    return v === null ? null : seconds(v);
  };
  const itemsWithTarget = facts.input.items.length;

  let paidCents = 0;
  let workMs = 0;
  let untimed = 0;
  for (const w of pay.values()) {
    paidCents += w.paidCents;
    workMs += w.workMs;
    untimed += w.untimed;
  }
  const hourly = untimed > 0 ? null : centsPerHour(paidCents, workMs);

  return {
    percentileMethod: 'nearest-rank',
    firstAcceptAt: iso(firstAcceptMs),
    publishToFirstAcceptSeconds: since(firstAcceptMs),
    lastValidVoteAt: iso(lastVoteMs),
    publishToLastValidVoteSeconds: since(lastVoteMs),
    timeToTarget: {
      voteTarget: options.voteTarget,
      itemsDecided: toTarget.length,
      itemsUndecided: itemsWithTarget - toTarget.length,
      p50Seconds: p(50),
      p90Seconds: p(90),
      p99Seconds: p(99),
      maxSeconds: toTarget.length === 0 ? null : seconds(toTarget.at(-1)!),
    },
    workerTimePerItem: workerTimePerItem(facts),
    effectiveHourlyPay: {
      paidCents,
      workSeconds: seconds(workMs),
      untimedAssignments: untimed,
      centsPerHour: hourly,
      minimumCentsPerHour: options.minimumHourlyPayCents,
      belowMinimum: hourly === null ? null : hourly < options.minimumHourlyPayCents,
    },
    throughput: throughput(facts, reached, options.throughputBucketSeconds),
  };
}
