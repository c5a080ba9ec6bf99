import { byCodeUnits } from '../aggregate/votes.js';
import type { AggregationResult, ItemAggregate } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import { workerStatistics, type WorkerFlagThresholds } from '../quality/index.js';
import { centsPerHour, seconds } from './arithmetic.js';
import type { WorkerPay } from './pay.js';
import type { BatchFacts } from './prepare.js';
import type { ItemRow, WorkerRow } from './types.js';

/** The per-worker table: quality/worker-stats.ts, plus valid votes and pay. */
export function workerRows(
  facts: BatchFacts,
  pay: ReadonlyMap<string, WorkerPay>,
  thresholds: Partial<WorkerFlagThresholds>,
): Omit<WorkerRow, 'confusion'>[] {
  const votes = new Map<string, number>();
  for (const v of facts.votes) votes.set(v.worker, (votes.get(v.worker) ?? 0) + 1);
  const none: WorkerPay = { paidCents: 0, bonusCents: 0, workMs: 0, untimed: 0 };
  const items = new Map(facts.input.items.map((it) => [it.item, it]));
  const rows: Omit<WorkerRow, 'confusion'>[] = workerStatistics(facts.scored, thresholds, items).map((s) => {
    const p = pay.get(s.worker) ?? none;
    return {
      worker: s.worker,
      assignments: s.assignments,
      votes: votes.get(s.worker) ?? 0,
      answers: s.answers,
      checks: s.checks,
      agreement: s.agreement,
      medianSecondsPerItem: s.medianMsPerItem === null ? null : seconds(s.medianMsPerItem),
      paidCents: p.paidCents,
      bonusCents: p.bonusCents,
      workSeconds: seconds(p.workMs),
      hourlyPayCents: p.untimed > 0 ? null : centsPerHour(p.paidCents, p.workMs),
      flags: s.flags,
      ...(s.llmEvidence && { llmEvidence: s.llmEvidence }),
    };
  });
  return rows;
}

/** The per-item table, sorted by item id. */
export function itemRows(facts: BatchFacts, human: AggregationResult<Judgment>, reached: ReadonlyMap<string, number>): ItemRow[] {
  const aggregates = new Map<string, ItemAggregate<Judgment>>(human.items.map((it) => [it.item, it]));
  const validVotes = new Map<string, number>();
  for (const v of facts.votes) validVotes.set(v.item, (validVotes.get(v.item) ?? 0) + 1);
  const hitsOf = new Map<string, string[]>();
  for (const hit of facts.hits.values()) {
    for (const item of hit.items) {
      const list = hitsOf.get(item);
      if (list) list.push(hit.hitId);
      else hitsOf.set(item, [hit.hitId]);
    }
  }
  return [...facts.input.items]
    .sort((x, y) => byCodeUnits(x.item, y.item))
    .map((it) => {
      const agg = aggregates.get(it.item);
      const label = agg?.label ?? null;
      const hiddenLabel = it.hiddenLabel ?? null;
      const time = reached.get(it.item);
      return {
        item: it.item,
        queryId: it.queryId,
        chunkId: it.chunkId,
        dataset: it.dataset,
        hits: (hitsOf.get(it.item) ?? []).sort(byCodeUnits),
        validVotes: validVotes.get(it.item) ?? 0,
        yes: agg?.counts.yes ?? 0,
        no: agg?.counts.no ?? 0,
        label,
        decidedBy: agg?.decidedBy ?? 'no-votes',
        agentLabels: Object.fromEntries(Object.entries(it.agentLabels).sort(([a], [b]) => byCodeUnits(a, b))),
        hiddenLabel,
        correct: label === null || hiddenLabel === null ? null : label === hiddenLabel,
        timeToTargetSeconds: time === undefined ? null : seconds(time),
      };
    });
}
