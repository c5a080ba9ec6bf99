import { assignmentFeeCents, formatUsd, parseUsd } from '@qrelay/marketplace/fees';
import type { AssignmentDoc, BatchDoc, BatchSettings, HitState } from '../db/models/index.js';
import { HIT_STATES } from '../db/models/index.js';
import type { Judgment } from '../domain/cases.js';
import type { CostQuote } from '../hits/quote.js';
import { labelAccuracy } from '../quality/index.js';
import { createHash } from 'node:crypto';
import { pairableVotes, type AgreementInterval, type Vote } from '../aggregate/index.js';
import { agreementIntervals, type AgreementIntervals } from '../reports/trust.js';
import { committedCents } from './budget.js';
import type { PipelineContext } from './context.js';
import { priceTerms } from './budget.js';
import { visibleRecords } from './records.js';
import { firstAssignments } from './redundancy.js';
import { buildLabels, loadBatchData, type BatchData, requireBatch } from '../batches/index.js';
import type { ArmName, ExperimentSummary } from '../experiment/compare.js';
import { renderExperiment } from '../experiment/render.js';
import { armsByWorker } from '../experiment/store.js';
import { batchExperiment } from '../experiment/summary.js';

/** `qrelay status` and `GET /api/v1/batches/{batch}`: progress, agreement and money, read-only. */
export interface BatchStatus {
  batch: string;
  /** A copy worked by a simulated crowd (`qrelay simulate`), never real labels. */
  simulated?: true;
  state: BatchDoc['state'];
  target: string | null;
  preset: string | null;
  createdAt: string;
  publishedAt: string | null;
  completedAt: string | null;
  voteTarget: number | null;
  /**
   * `decided`: items with the votes the batch asks of them (quality/decided-items.ts), the
   * count the console and the report show; `complete` is its older name, the same number.
   */
  items: { total: number; decided: number; complete: number; withVotes: number; labelled: number; unresolved: number };
  hits: { total: number; byState: Record<HitState, number>; extraAssignments: number; reposts: number };
  assignments: { total: number; awaitingReview: number; approved: number; discarded: number; rejected: number; autoApproved: number };
  validVotes: number;
  fleissKappa: { value: number | null; reason: string | null };
  krippendorffAlpha: { value: number | null; reason: string | null };
  /**
   * κ and α are computed over the same items: those with 2 or more valid votes so far (of the
   * first `voteTarget`); mid-batch that is fewer than the items with votes.
   */
  agreement: { items: number; itemsWithVotes: number };
  /** κ's and α's 95% bootstrap intervals over those items: the one computation and seed the report and the console use; null before publishing. */
  agreementIntervals: AgreementIntervals | null;
  /** Against the hidden labels of the items, when the import carried them (simulations). */
  accuracy: { value: number | null; compared: number } | null;
  /** Whole cents. `spent`: approved work (discarded included); `committed`: the most the HITs can cost. */
  cost: {
    currency: 'USD';
    unit: 'cents';
    spent: number;
    rewards: number;
    fees: number;
    committed: number;
    quote: CostQuote | null;
    budget: number | null;
  };
  /** The debate experiment per arm (docs/experiment.md); present when the batch runs it. */
  experiment?: ExperimentSummary;
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

/**
 * The bootstrap costs seconds on a batch of ten thousand items, and a status is asked for
 * again and again (API polls) while the votes stay the same: the last few results are kept,
 * by batch and by a digest of the votes (order aside), so a changed vote computes anew.
 */
const intervalsMemo = new Map<string, AgreementIntervals>();
const MEMO_SIZE = 16;
function intervalsOf(votes: readonly Vote<Judgment>[], batch: string): AgreementIntervals {
  const digest = createHash('sha256');
  for (const v of votes.map((x) => `${x.item}\u0000${x.worker}\u0000${x.label}`).sort()) digest.update(v).update('\u0001');
  const key = `${batch}\u0000${digest.digest('hex')}`;
  let found = intervalsMemo.get(key);
  if (!found) {
    found = agreementIntervals(votes, batch);
    if (intervalsMemo.size >= MEMO_SIZE) intervalsMemo.delete(intervalsMemo.keys().next().value!);
    intervalsMemo.set(key, found);
  }
  return found;
}

/**
 * The status from stored documents (pure). `truth`: item id -> hidden label; `imported`:
 * the cases imported (what an unpublished batch reports as its items).
 */
export function summarizeBatch(
  doc: BatchDoc,
  data: BatchData,
  truth: ReadonlyMap<string, Judgment>,
  now: Date,
  imported = 0,
  /** The debate experiment's recorded arms, by worker (when the batch runs it). */
  arms?: ReadonlyMap<string, ArmName>,
): BatchStatus {
  const settings = doc.settings as BatchSettings | null;
  const byState = Object.fromEntries(HIT_STATES.map((s) => [s, 0])) as Record<HitState, number>;
  for (const h of data.hits) byState[h.state]++;
  const a = data.assignments;
  const reviewed = (x: AssignmentDoc) => x.reviewState === 'done';
  const approvedWork = a.filter((x) => reviewed(x) && x.outcome !== 'rejected');
  const labels = settings ? buildLabels(doc, data, now) : null;
  const hitsById = new Map(data.hits.map((h) => [h._id, h]));
  let rewards = 0;
  let fees = 0;
  if (settings) {
    const terms = priceTerms(settings);
    const reward = parseUsd(terms.reward);
    for (const x of approvedWork) {
      rewards += reward;
      fees += assignmentFeeCents(reward, {
        maxAssignments: hitsById.get(x.hit)?.maxAssignments ?? settings.voteTarget,
        masters: terms.masters,
      });
    }
  }
  const predicted = new Map((labels?.labels ?? []).map((l) => [l._id, l.label]));
  const known = new Map([...truth].filter(([id]) => predicted.has(id)));
  const accuracy = known.size > 0 ? labelAccuracy(predicted, known) : null;
  return {
    batch: doc._id,
    ...(doc.simulated === true && { simulated: true as const }),
    state: doc.state,
    target: settings?.target ?? null,
    preset: settings?.presetName ?? null,
    createdAt: new Date(doc.createdAt).toISOString(),
    publishedAt: iso(doc.publishedAt),
    completedAt: iso(doc.completedAt),
    voteTarget: settings?.voteTarget ?? null,
    items: {
      total: labels?.summary.items ?? doc.plan?.realItems ?? imported,
      decided: labels?.summary.itemsComplete ?? 0,
      complete: labels?.summary.itemsComplete ?? 0,
      withVotes: labels?.labels.filter((l) => l.validVotes > 0).length ?? 0,
      labelled: labels?.summary.labels ?? 0,
      unresolved: labels?.summary.unresolved ?? 0,
    },
    hits: {
      total: data.hits.length,
      byState,
      extraAssignments: data.hits.reduce(
        (n, h) =>
          n +
          Math.max(
            0,
            h.maxAssignments - (h.origin === 'plan' ? (settings ? firstAssignments(settings) : h.maxAssignments) : h.maxAssignments),
          ),
        0,
      ),
      reposts: doc.reposts ?? 0,
    },
    assignments: {
      total: a.length,
      awaitingReview: a.filter((x) => !reviewed(x)).length,
      approved: approvedWork.filter((x) => x.review?.countsVotes).length,
      discarded: approvedWork.filter((x) => !x.review?.countsVotes).length,
      rejected: a.filter((x) => reviewed(x) && x.outcome === 'rejected').length,
      autoApproved: a.filter((x) => x.outcome === 'auto-approved').length,
    },
    validVotes: labels?.summary.validVotes ?? 0,
    fleissKappa: {
      value: labels?.summary.fleissKappa ?? null,
      reason: labels?.summary.fleissKappaReason ?? (labels ? null : 'not published'),
    },
    krippendorffAlpha: {
      value: labels?.summary.krippendorffAlpha ?? null,
      reason: labels?.summary.krippendorffAlphaReason ?? (labels ? null : 'not published'),
    },
    agreement: {
      items: labels?.summary.agreementItems ?? 0,
      itemsWithVotes: labels?.labels.filter((l) => l.validVotes > 0).length ?? 0,
    },
    agreementIntervals: labels ? intervalsOf(pairableVotes(labels.aggregate.used), doc._id) : null,
    accuracy: accuracy ? { value: accuracy.value, compared: accuracy.compared } : null,
    cost: {
      currency: 'USD',
      unit: 'cents',
      spent: rewards + fees,
      rewards,
      fees,
      committed: settings ? committedCents(data.hits, priceTerms(settings)) : 0,
      quote: doc.plan?.quote ?? null,
      budget: settings?.budgetCents ?? null,
    },
    ...(settings?.experiment === 'debate' &&
      labels &&
      arms && { experiment: batchExperiment(labels.aggregate.scored, arms, settings.seed) }),
  };
}

export async function batchStatus(ctx: PipelineContext, batch: string): Promise<BatchStatus> {
  const doc = await requireBatch(ctx, batch);
  const data = await loadBatchData(ctx, batch);
  const items = await visibleRecords(ctx, 'escalations', batch);
  const truth = new Map(items.flatMap((r) => (r.label ? [[r._id, r.label] as const] : [])));
  const arms = doc.settings?.experiment === 'debate' ? await armsByWorker(ctx.models.batches.db, batch) : undefined;
  return summarizeBatch(doc, data, truth, ctx.now(), items.length, arms);
}

const usd = (cents: number) => `$${formatUsd(cents)}`;
const num = (v: number | null, digits = 3) => (v === null ? 'undefined' : v.toFixed(digits));
const interval = (i: AgreementInterval | undefined) => (i && i.low !== null && i.high !== null ? ` [${num(i.low)}, ${num(i.high)}]` : '');

export function renderStatus(s: BatchStatus): string {
  const states = HIT_STATES.filter((st) => s.hits.byState[st] > 0).map((st) => `${s.hits.byState[st]} ${st}`);
  const lines = [
    `batch ${s.batch}: ${s.state}${s.target ? ` on ${s.target}` : ''}${s.preset ? `, preset ${s.preset}` : ''}${s.simulated ? ' (simulated: qrelay simulate)' : ''}`,
    `items        ${s.items.decided} of ${s.items.total} decided (majority of ${s.voteTarget ?? 3}); ${s.items.labelled} labelled, ${s.items.unresolved} unresolved, ${s.items.total - s.items.withVotes} without votes`,
    `HITs         ${s.hits.total}${states.length ? `: ${states.join(', ')}` : ''}; ${s.hits.extraAssignments} extra assignments, ${s.hits.reposts} rounds of new HITs`,
    `assignments  ${s.assignments.total}: ${s.assignments.approved} approved, ${s.assignments.discarded} approved and discarded, ${s.assignments.rejected} rejected, ${s.assignments.awaitingReview} awaiting review${s.assignments.autoApproved ? ` (${s.assignments.autoApproved} approved by the platform first)` : ''}`,
    `votes        ${s.validVotes} valid`,
    `agreement    Fleiss κ ${num(s.fleissKappa.value)}${interval(s.agreementIntervals?.fleissKappa)}${s.fleissKappa.reason ? ` (${s.fleissKappa.reason})` : ''}, Krippendorff α ${num(s.krippendorffAlpha.value)}${interval(s.agreementIntervals?.krippendorffAlpha)}${s.krippendorffAlpha.reason ? ` (${s.krippendorffAlpha.reason})` : ''}; both over the same ${s.agreement.items} items with 2 or more valid votes (of ${s.agreement.itemsWithVotes} with votes)${s.agreementIntervals ? '; 95% bootstrap intervals in brackets' : ''}`,
  ];
  if (s.accuracy)
    lines.push(
      `accuracy     ${s.accuracy.value === null ? 'undefined' : `${(s.accuracy.value * 100).toFixed(1)}%`} of ${s.accuracy.compared} labels against the hidden truth`,
    );
  lines.push(
    `spend        ${usd(s.cost.spent)} paid (${usd(s.cost.rewards)} rewards + ${usd(s.cost.fees)} fees); committed ${usd(s.cost.committed)}; quote ${s.cost.quote ? usd(s.cost.quote.total) : 'none'}; budget ${s.cost.budget === null ? 'none' : usd(s.cost.budget)}`,
  );
  if (s.experiment) lines.push(renderExperiment(s.experiment).trimEnd());
  return `${lines.join('\n')}\n`;
}
