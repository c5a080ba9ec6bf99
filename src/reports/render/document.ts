import type { AgreementResult } from '../../aggregate/index.js';
import type { QuoteDifferenceReason, Report } from '../types.js';
import { count, DASH, decimal, duration, hourly, passRate, percent, signedCount, signedUsd, usd } from './format.js';
import { holesSection } from './holes-section.js';
import { experimentSection } from './experiment-section.js';
import { aggregationSection, confusionSection, goldBlocks, intervalText } from './trust-section.js';
import type { Block, ChartName, Row, Section } from './blocks.js';

export type { Block, ChartName, Row, Section, Table } from './blocks.js';

/**
 * The human-readable report as plain text in sections and tables: the wording and number
 * formatting of md and html in one place. Every string here is plain text (outside ids
 * included); each renderer escapes it for its own syntax.
 */

export interface ReportDocument {
  readonly title: string;
  readonly lead: readonly string[];
  readonly sections: readonly Section[];
}

const text = (t: string): Block => ({ kind: 'text', text: t });
const chart = (c: ChartName): Block => ({ kind: 'chart', chart: c });
const row = (cells: readonly string[], strong = false): Row => ({ cells, strong });
const table = (caption: string, head: readonly string[], numeric: readonly boolean[], rows: readonly Row[]): Block => ({
  kind: 'table',
  table: { caption, head, numeric, rows },
});
/** A two-column "what / value" table. */
const facts = (caption: string, rows: readonly (readonly [string, string])[], strongFrom = -1): Block =>
  table(
    caption,
    ['', 'value'],
    [false, true],
    rows.map(([k, v], i) => row([k, v], i === strongFrom)),
  );
const section = (id: string, title: string, blocks: readonly Block[], subsections: readonly Section[] = []): Section => ({
  id,
  title,
  blocks,
  subsections,
});
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** κ or α for people: the value, or "undefined" with the reason. */
export function agreementText(result: AgreementResult): string {
  return result.value === null ? `undefined: ${result.reason ?? 'no reason given'}` : decimal(result.value);
}

function summary(r: Report): Section {
  const c = r.cost;
  const t = r.latency.timeToTarget;
  const l = r.quality.labels;
  return section('summary', 'Summary', [
    facts('Key figures', [
      ['Items', count(r.items)],
      ['HITs', count(r.hits)],
      [
        'Assignments submitted',
        `${count(r.assignments)} (${count(c.paidAssignments - c.discardedWork.assignments)} approved, ${count(c.discardedWork.assignments)} approved and discarded, ${count(c.rejectedAssignments)} rejected, ${count(c.pendingReview.assignments)} pending review)`,
      ],
      ['Valid votes', count(r.votes)],
      [
        'Labels',
        `${count(r.labels)} (${count(l.yes)} yes, ${count(l.no)} no); ${count(l.unresolved)} unresolved, ${count(l.withoutVotes)} without votes`,
      ],
      ["Fleiss' κ", `${agreementText(r.quality.fleissKappa)} (95% ${intervalText(r.quality.agreementIntervals.fleissKappa)})`],
      [
        "Krippendorff's α (nominal)",
        `${agreementText(r.quality.krippendorffAlpha)} (95% ${intervalText(r.quality.agreementIntervals.krippendorffAlpha)})`,
      ],
      ['Total cost', usd(c.total)],
      ['Cost per adjudicated label', usd(c.perLabel)],
      ['Items decided', `${count(t.itemsDecided)} of ${count(r.items)}`],
      ['Time to decided, p50 / p90', `${duration(t.p50Seconds)} / ${duration(t.p90Seconds)}`],
      ['Effective hourly pay', hourly(r.latency.effectiveHourlyPay.centsPerHour)],
    ]),
  ]);
}

const REASON_TEXT: Record<QuoteDifferenceReason, string> = {
  'extra-assignments': 'Extra assignments offered (HITs added or left unpublished count here too)',
  'not-submitted': 'Offered but never submitted (expired, returned or still open)',
  'pending-review': 'Submitted, not reviewed yet (not paid yet)',
  rejected: 'Rejected (not paid)',
  bonuses: 'Bonuses with their fees',
};

function cost(r: Report): Section {
  const c = r.cost;
  const blocks: Block[] = [
    text(
      'US dollars, by MTurk’s fee rules at each HIT’s own terms: 20% of each reward, +20% for HITs with 10 or more assignments, +5% with Masters, at least $0.01 per assignment; 20% of each bonus, at least $0.01. Rejected work costs nothing; work pending review is not in the total.',
    ),
    facts(
      'Spend',
      [
        [`Rewards (${plural(c.paidAssignments, 'approved assignment')}, discarded ones included)`, usd(c.rewards)],
        ['Fees on rewards', usd(c.feesOnRewards)],
        [`Bonuses (${plural(r.workers.filter((w) => w.bonusCents > 0).length, 'worker')})`, usd(c.bonuses)],
        ['Fees on bonuses', usd(c.feesOnBonuses)],
        ['Total', usd(c.total)],
        [`Per adjudicated label (${plural(r.labels, 'label')})`, usd(c.perLabel)],
        [c.holesFound === null ? 'Per hole found (holes not counted)' : `Per hole found (${plural(c.holesFound, 'hole')})`, usd(c.perHole)],
        ['Attention-check overhead (part of the total)', `${usd(c.checkOverhead)} (${percent(c.checkOverheadShare)} of the total)`],
        [`Paid for discarded work (${plural(c.discardedWork.assignments, 'assignment')}, part of the total)`, usd(c.discardedWork.cents)],
        [`Rejected (${plural(c.rejectedAssignments, 'assignment')})`, 'not paid'],
        [`Pending review (${plural(c.pendingReview.assignments, 'assignment')}, not in the total)`, usd(c.pendingReview.total)],
      ],
      4,
    ),
    table(
      'Fee terms',
      ['reward', 'MaxAssignments', 'Masters', 'fee', 'fee per assignment', 'HITs'],
      [true, true, false, true, true, true],
      c.feeTerms.map((f) =>
        row([
          usd(f.rewardCents),
          count(f.maxAssignments),
          f.masters ? 'yes' : 'no',
          `${f.feePercent}%`,
          usd(f.feePerAssignmentCents),
          count(f.hits),
        ]),
      ),
    ),
  ];
  const q = c.quote;
  const quote = q
    ? [
        table(
          'The quote and what changed it',
          ['', 'assignments', 'amount'],
          [false, true, true],
          [
            row([
              `Quoted (${plural(q.quoted.hits, 'HIT')} × ${q.quoted.assignmentsPerHit} assignments)`,
              count(q.quoted.assignments),
              usd(q.quoted.total),
            ]),
            ...q.differences.map((d) =>
              row([
                REASON_TEXT[d.reason],
                d.reason === 'bonuses' ? `${plural(d.count, 'bonus', 'bonuses')}` : signedCount(d.count),
                signedUsd(d.cents),
              ]),
            ),
            row(['Actual (assignments paid)', count(c.paidAssignments), usd(q.actual)], true),
          ],
        ),
        text(
          `Actual minus quoted: ${signedUsd(q.difference)}. The actual total includes ${usd(q.discardedWork.cents)} for ${plural(q.discardedWork.assignments, 'discarded assignment')} (paid, votes not counted: the reason extra assignments are bought). ` +
            `Attention-check overhead: quoted ${usd(q.checkOverhead.quoted)}, actual ${usd(q.checkOverhead.actual)}. Per label: quoted ${usd(q.perLabel.quoted)}, actual ${usd(q.perLabel.actual)}.`,
        ),
      ]
    : [text('No quote was recorded for this batch.')];
  return section('cost', 'Cost', blocks, [section('quote', 'Quote vs actual', quote)]);
}

function latency(r: Report): Section {
  const l = r.latency;
  const t = l.timeToTarget;
  const w = l.workerTimePerItem;
  const pay = l.effectiveHourlyPay;
  const payText =
    pay.centsPerHour === null
      ? pay.untimedAssignments > 0
        ? `${DASH} (${plural(pay.untimedAssignments, 'reviewed assignment')} without a work time)`
        : `${DASH} (no reviewed work yet)`
      : `${hourly(pay.centsPerHour)} (${usd(pay.paidCents)} paid for ${duration(pay.workSeconds)} of work; ${pay.belowMinimum ? 'below' : 'at or above'} the minimum of ${hourly(pay.minimumCentsPerHour)})`;
  const bucket = l.throughput.bucketSeconds;
  return section(
    'latency',
    'Latency',
    [
      facts('Latency', [
        ['Publish → first accept', duration(l.publishToFirstAcceptSeconds)],
        ['Time to decided, p50 / p90 / p99', `${duration(t.p50Seconds)} / ${duration(t.p90Seconds)} / ${duration(t.p99Seconds)}`],
        ['Items decided', `${count(t.itemsDecided)} (${count(t.itemsUndecided)} undecided)`],
        ['Publish → last valid vote', duration(l.publishToLastValidVoteSeconds)],
        [
          'Worker time per item, p50 / p90',
          `${duration(w.p50Seconds)} / ${duration(w.p90Seconds)} (${count(w.measured)} measured by the page, ${count(w.estimated)} estimated from work time)`,
        ],
        ['Effective hourly pay', payText],
      ]),
      text(
        `An item is decided when it has the votes the batch asks of it: ${t.voteTarget} valid votes, or fewer that already hold a majority of ${t.voteTarget} where the batch collects no more (adaptive redundancy, recollect when-undecided). Time to decided runs from publishing to the submission of the vote that decided an item; only decided items enter the percentiles. pN is the nearest-rank percentile: an observed value with at least N% of the values at or below it.`,
      ),
      chart('progress'),
      chart('latency'),
    ],
    [
      section('throughput', `Throughput (${duration(bucket)} buckets)`, [
        table(
          'Throughput over time',
          ['from (since publish)', 'valid votes', 'items decided', 'votes per hour', 'decided per hour', 'votes so far', 'decided so far'],
          [true, true, true, true, true, true, true],
          l.throughput.buckets.map((b) =>
            row([
              duration(b.startSeconds),
              count(b.validVotes),
              count(b.decidedItems),
              b.validVotesPerHour.toFixed(1),
              b.decidedItemsPerHour.toFixed(1),
              count(b.cumulativeValidVotes),
              count(b.cumulativeDecidedItems),
            ]),
          ),
        ),
      ]),
    ],
  );
}

function quality(r: Report): Section {
  const q = r.quality;
  const agreementRow = (name: string, a: AgreementResult, interval: string) =>
    row([name, a.value === null ? 'undefined' : decimal(a.value), interval, count(a.itemsUsed), count(a.itemsExcluded), a.reason ?? DASH]);
  const checks = q.attentionChecks;
  const subsections: Section[] = [
    section('agreement', 'Agreement between workers', [
      table(
        'Agreement',
        ['measure', 'value', '95% interval', 'items used', 'items left out', 'note'],
        [false, true, true, true, true, false],
        [
          agreementRow("Fleiss' κ", q.fleissKappa, intervalText(q.agreementIntervals.fleissKappa)),
          agreementRow("Krippendorff's α (nominal)", q.krippendorffAlpha, intervalText(q.agreementIntervals.krippendorffAlpha)),
        ],
      ),
      text(
        `Both over each item’s first ${q.voteTarget} valid votes in submission order (${plural(q.agreementVotes, 'vote')}), on the same ${plural(q.agreementItems, 'item')}: those with at least 2 of them (Fleiss’ κ in its form for unequal numbers of raters${q.fleissKappa.raters ? `: ${q.fleissKappa.raters.min === q.fleissKappa.raters.max ? q.fleissKappa.raters.min : `${q.fleissKappa.raters.min} to ${q.fleissKappa.raters.max}`} per item` : ''}).`,
      ),
    ]),
    section('checks', 'Attention checks', [
      table(
        'Attention-check pass rates by polarity',
        ['checks', 'passed / total'],
        [false, true],
        [
          row(['Known relevant (expected yes)', passRate(checks.byPolarity.yes)]),
          row(['Known not relevant (expected no)', passRate(checks.byPolarity.no)]),
          row(['All', passRate(checks)], true),
        ],
      ),
      text(
        `${count(checks.assignmentsPassedAll)} of ${plural(checks.assignmentsWithChecks, 'assignment')} with checks passed all of them; an assignment’s votes count only if it did.`,
      ),
      ...goldBlocks(r),
    ]),
    section('labels', 'Labels', [
      table(
        'Label distribution',
        ['human label', 'items', 'share'],
        [false, true, true],
        [
          row(['yes (relevant)', count(q.labels.yes), percent(r.items === 0 ? null : q.labels.yes / r.items)]),
          row(['no (not relevant)', count(q.labels.no), percent(r.items === 0 ? null : q.labels.no / r.items)]),
          row(['unresolved (tied votes)', count(q.labels.unresolved), percent(r.items === 0 ? null : q.labels.unresolved / r.items)]),
          row(['no valid vote yet', count(q.labels.withoutVotes), percent(r.items === 0 ? null : q.labels.withoutVotes / r.items)]),
        ],
      ),
      text(
        `${q.aggregator === 'dawid-skene' ? 'Labels by Dawid–Skene over every answer, the attention checks as gold' : `Labels by majority of each item’s first ${q.voteTarget} valid votes`}. Valid votes: ${count(q.votes.yes)} yes, ${count(q.votes.no)} no.`,
      ),
    ]),
    aggregationSection(r),
    section('agents', 'Human majority vs the debating agents', [
      q.agents.length === 0
        ? text('The items carry no agent labels.')
        : table(
            'Agreement of the human majority with each agent’s final label',
            ['agent', 'items compared', 'majority agrees', 'rate'],
            [false, true, true, true],
            q.agents.map((a) => row([a.agent, count(a.compared), count(a.agreed), percent(a.rate)])),
          ),
    ]),
  ];
  if (q.accuracy) {
    const a = q.accuracy;
    subsections.push(
      section('accuracy', 'Accuracy against the hidden truth', [
        facts('Accuracy', [
          ['Items with a known truth', count(a.itemsWithTruth)],
          [
            'Accuracy',
            `${percent(a.accuracy.value)} (${count(a.accuracy.correct)} / ${count(a.accuracy.compared)}; ${count(a.accuracy.unlabeled)} without a label)`,
          ],
          ['Balanced accuracy', percent(a.balancedAccuracy.value)],
          [
            'Recall of yes',
            `${percent(a.balancedAccuracy.perClass.yes.recall)} (${count(a.balancedAccuracy.perClass.yes.correct)} / ${count(a.balancedAccuracy.perClass.yes.support)})`,
          ],
          [
            'Recall of no',
            `${percent(a.balancedAccuracy.perClass.no.recall)} (${count(a.balancedAccuracy.perClass.no.correct)} / ${count(a.balancedAccuracy.perClass.no.support)})`,
          ],
        ]),
      ]),
    );
  }
  subsections.push(
    section('worker-quality', 'Worker quality', [
      chart('workers'),
      text(`${plural(q.flaggedWorkers, 'worker')} flagged; see the worker table.`),
    ]),
  );
  return section('quality', 'Quality', [], subsections);
}

function workers(r: Report): Section {
  return section('workers', 'Workers', [
    table(
      'Per-worker table',
      [
        'worker',
        'assignments',
        'approved',
        'approved, discarded',
        'rejected',
        'pending review',
        'valid votes',
        'checks: yes',
        'checks: no',
        'agreement (leave-one-out)',
        'median time per item',
        'paid',
        'hourly pay',
        'flags',
      ],
      [false, true, true, true, true, true, true, true, true, true, true, true, true, false],
      r.workers.map((w) =>
        row([
          w.worker,
          count(w.assignments.submitted),
          count(w.assignments.approved),
          count(w.assignments.discarded),
          count(w.assignments.rejected),
          count(w.assignments.pendingReview),
          count(w.votes),
          passRate(w.checks.byPolarity.yes),
          passRate(w.checks.byPolarity.no),
          w.agreement.rate === null ? DASH : `${percent(w.agreement.rate)} of ${count(w.agreement.compared)}`,
          duration(w.medianSecondsPerItem),
          usd(w.paidCents),
          hourly(w.hourlyPayCents),
          w.flags.length === 0 ? DASH : w.flags.join(', '),
        ]),
      ),
    ),
    text(
      'Assignments: approved, approved and discarded (paid, votes not counted), rejected and pending review add up to the assignments submitted. Agreement: with the majority of the other workers’ valid votes on the same items.',
    ),
  ]);
}

function items(r: Report): Section {
  const agents = r.quality.agents.map((a) => a.agent);
  return section('items', 'Items', [
    table(
      'Per-item table',
      [
        'item',
        'query',
        'chunk',
        'dataset',
        'valid votes',
        'yes',
        'no',
        'label',
        'decided by',
        ...agents.map((a) => `agent ${a}`),
        'truth',
        'time to decided',
      ],
      [false, false, false, false, true, true, true, false, false, ...agents.map(() => false), false, true],
      r.itemRows.map((it) =>
        row([
          it.item,
          it.queryId,
          it.chunkId,
          it.dataset,
          count(it.validVotes),
          count(it.yes),
          count(it.no),
          it.label ?? DASH,
          it.decidedBy,
          ...agents.map((a) => (Object.hasOwn(it.agentLabels, a) ? it.agentLabels[a]! : DASH)),
          it.hiddenLabel ?? DASH,
          duration(it.timeToTargetSeconds),
        ]),
      ),
    ),
  ]);
}

function manual(r: Report): Section {
  if (r.manualDecisions.length === 0) return section('manual', 'Manual decisions', [text('No item was decided by hand.')]);
  return section('manual', 'Manual decisions', [
    table(
      'Items decided by hand (export-qrels uses these labels, with source manual, over the crowd’s)',
      ['query', 'chunk', 'crowd label', 'manual label', 'by', 'at', 'note'],
      [false, false, false, false, false, false, false],
      r.manualDecisions.map((m) => row([m.queryId, m.chunkId, m.crowdLabel ?? DASH, m.label, m.who, m.at, m.note])),
    ),
  ]);
}

export function reportDocument(r: Report, options: { itemTable: boolean }): ReportDocument {
  const clock = r.simulatedClock ? ' (simulated clock)' : '';
  const lead = [
    `Published ${r.publishedAt ?? 'not yet'}${r.publishedAt ? clock : ''}${r.generatedAt ? `; report generated ${r.generatedAt}` : ''}.`,
  ];
  return {
    title: `qrelay report: ${r.batch}`,
    lead,
    sections: [
      summary(r),
      cost(r),
      latency(r),
      quality(r),
      ...(r.experiment ? [experimentSection(r.experiment)] : []),
      ...(r.holesMattered ? [holesSection(r.holesMattered)] : []),
      manual(r),
      workers(r),
      confusionSection(r),
      ...(options.itemTable ? [items(r)] : []),
    ],
  };
}
