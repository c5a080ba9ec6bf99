import { auditLog } from '../actions/audit.js';
import { batchOverview, listBatches } from '../actions/batches.js';
import type { ActionContext } from '../actions/context.js';
import type { BonusDoc } from '../actions/models.js';
import { loadBatchView, loadItems, loadWorkerAnswers, loadWorkerTable } from '../actions/views.js';
import { sortAndFilter, SORT_KEYS, type SortKey, type WorkerRow } from '../actions/worker-table.js';
import { assignmentFeeCents, parseUsd } from '@qrelay/marketplace/fees';
import { priceTerms } from '../pipeline/budget.js';
import { reportInputFor } from '../pipeline/report-input.js';
import { buildReport, type Report } from '../reports/index.js';
import { progressChart } from '../reports/render/charts.js';
import { duration } from '../reports/render/format.js';
import { spendChart, type SpendEvent } from './spend-chart.js';
import {
  matchesSearch,
  pageHref,
  pageOf,
  plainQuery,
  readTableState,
  sortRows,
  tableControls,
  type TableColumn,
  type TableParams,
} from './table-query.js';
import { answerView, auditView, batchRowView, FLAG_FILTERS, intervalView, isLive, itemView, workerRowView } from './view-model.js';

/** The console pages' data: the actions' read models, the report's progress chart, the spend chart, agreement intervals. */

/** Items to decide shown at first (unresolved ones first); the rest behind a link. */
const DECIDE_SHOWN = 10;

/**
 * The batch's report (for its progress chart and latency), rebuilt only when the batch
 * changed: a page load on a batch at rest costs no report.
 */
const reports = new Map<string, { key: string; report: Report }>();
async function reportOf(ctx: ActionContext, batch: string): Promise<Report> {
  const doc = await ctx.pipeline.models.batches.findById(batch, { updatedAt: 1 }).lean();
  const [assignments, bonuses] = await Promise.all([
    ctx.pipeline.models.assignments.countDocuments({ batch }),
    ctx.models.bonuses.countDocuments({ batch }),
  ]);
  const key = `${doc ? new Date(doc.updatedAt).getTime() : 0}|${assignments}|${bonuses}`;
  const hit = reports.get(batch);
  if (hit?.key === key) return hit.report;
  const { input, options } = await reportInputFor(ctx.pipeline, batch);
  const report = buildReport(input, options);
  reports.set(batch, { key, report });
  return report;
}

export async function loadBatchesPage(ctx: ActionContext) {
  const rows = await listBatches(ctx);
  const out = [];
  for (const b of rows) {
    let p50: number | null = null;
    if (b.target) p50 = (await reportOf(ctx, b.batch)).latency.timeToTarget.p50Seconds;
    out.push(batchRowView(b, p50));
  }
  return { batches: out, any: out.length > 0, live: out.some((b) => b.live) };
}

/** The batch page's query: each table's search, sort, direction, page and page size (table-query.ts), and filters. */
export type BatchPageQuery = Record<string, unknown>;

const WORKER_PARAMS: TableParams = { search: 'wq', sort: 'sort', desc: 'desc', page: 'wpage', size: 'wsize' };
const ITEM_PARAMS: TableParams = { search: 'iq', sort: 'isort', desc: 'idesc', page: 'page', size: 'isize' };

const WORKER_COLUMNS: readonly TableColumn[] = [
  { key: 'worker', label: 'Worker' },
  { key: 'assignments', label: 'Assignments' },
  { key: 'checks', label: 'Checks' },
  { key: 'agreement', label: 'Agreement' },
  { key: 'time', label: 'Time/item' },
  { key: 'flags', label: 'Flags' },
  { key: null, label: 'Qualifications' },
  { key: null, label: 'Reputation' },
  { key: null, label: 'Bonuses' },
  { key: null, label: 'Block' },
];

type ItemView = ReturnType<typeof itemView>;
const ITEM_SORT: Record<string, (i: ItemView) => number | string> = {
  item: (i) => `${i.queryId}\u0000${i.chunkId}`,
  votes: (i) => i.yes + i.no,
  difficult: (i) => i.difficult,
  comments: (i) => i.comments,
  label: (i) => i.labelText,
  source: (i) => i.source,
};
const ITEM_SORT_KEYS = Object.keys(ITEM_SORT);
const ITEM_COLUMNS: readonly TableColumn[] = [
  { key: 'item', label: 'Query · chunk' },
  { key: 'votes', label: 'Votes' },
  { key: 'difficult', label: 'Difficult' },
  { key: 'comments', label: 'Comments' },
  { key: 'label', label: 'Label' },
  { key: 'source', label: 'Source' },
  { key: null, label: 'Debate' },
];

/** Workers with what the platform knows (blocks, scores); when it does not answer, those unknown and a warning. */
async function workersWithPlatform(
  ctx: ActionContext,
  batch: string,
  view: Awaited<ReturnType<typeof loadBatchView>>,
): Promise<{ rows: WorkerRow[]; warning: string | null }> {
  const { workers, platform } = await loadWorkerTable(ctx, batch, view);
  return { rows: workers, warning: platform?.note ?? null };
}

export async function loadBatchPage(ctx: ActionContext, batch: string, raw: BatchPageQuery) {
  const q = plainQuery(raw);
  const batchPath = `/console/batches/${encodeURIComponent(batch)}`;
  const view = await loadBatchView(ctx, batch);
  const overview = await batchOverview(ctx, batch);
  const { rows: workerRows, warning } = await workersWithPlatform(ctx, batch, view);
  // a worker is a tall card on a phone: ten to a page
  const ws = readTableState<SortKey>(q, WORKER_PARAMS, SORT_KEYS, 'worker', 10);
  const flag = (FLAG_FILTERS as readonly string[]).includes(q.flag ?? '') ? q.flag : undefined;
  const workersShown = sortAndFilter(workerRows, { sort: ws.sort, descending: ws.desc, ...(flag && { flag }) }).filter((w) =>
    matchesSearch(ws.search, [w.workerId]),
  );
  const workersPage = pageOf(workersShown, ws.page, ws.size);
  const workers = workersPage.rows.map((w) => workerRowView(batch, w));
  const items = (await loadItems(ctx, batch, view)).map((i) => itemView(batch, i));
  const decide = items.filter((i) => i.needsDecision).sort((a, b) => Number(b.unresolved) - Number(a.unresolved));
  const is = readTableState(q, ITEM_PARAMS, ITEM_SORT_KEYS, 'item');
  const attention = q.items === 'attention';
  const itemsShown = sortRows(
    items.filter(
      (i) =>
        (!attention || i.needsDecision || i.difficult > 0 || i.comments > 0 || i.source === 'manual') &&
        matchesSearch(is.search, [i.queryId, i.chunkId, i.dataset, i.query, i.labelText]),
    ),
    ITEM_SORT[is.sort]!,
    (i) => i.item,
    is.desc,
  );
  const itemsPage = pageOf(itemsShown, is.page, is.size);
  let charts: { progress: string; spend: string } | null = null;
  let latency: { p50: string; p90: string } | null = null;
  let agreement: ReturnType<typeof intervalView>[] = [];
  const settings = view.doc.settings;
  if (settings && view.aggregation) {
    const report = await reportOf(ctx, batch);
    const published = view.doc.publishStartedAt ? new Date(view.doc.publishStartedAt).getTime() : 0;
    const terms = priceTerms(settings);
    const reward = parseUsd(terms.reward);
    const maxOf = new Map(view.data.hits.map((h) => [h._id, h.maxAssignments]));
    const events: SpendEvent[] = view.data.assignments
      .filter((a) => a.reviewState === 'done' && a.outcome !== 'rejected')
      .map((a) => ({
        atMs: new Date(a.reviewedAt ?? a.submittedAt ?? published).getTime() - published,
        cents: reward + assignmentFeeCents(reward, { maxAssignments: maxOf.get(a.hit) ?? settings.voteTarget, masters: terms.masters }),
        kind: 'work' as const,
      }));
    const bonuses = await ctx.models.bonuses.find({ batch, state: 'paid' }).lean<BonusDoc[]>();
    for (const b of bonuses)
      events.push({ atMs: new Date(b.paidAt ?? b.recordedAt).getTime() - published, cents: b.amountCents + b.feeCents, kind: 'bonus' });
    charts = {
      progress: progressChart(report).svg,
      spend: spendChart(events, { budgetCents: settings.budgetCents, quoteCents: view.doc.plan?.quote.total ?? null }),
    };
    latency = { p50: fmtSeconds(report.latency.timeToTarget.p50Seconds), p90: fmtSeconds(report.latency.timeToTarget.p90Seconds) };
    // the report's figures, so that the page and the report agree to the last digit
    const q = report.quality;
    agreement = [
      intervalView("Fleiss' κ", q.fleissKappa, q.agreementIntervals.fleissKappa, q.agreementItems),
      intervalView("Krippendorff's α", q.krippendorffAlpha, q.agreementIntervals.krippendorffAlpha, q.agreementItems),
    ];
  }
  const audit = (await auditLog(ctx, batch)).reverse().slice(0, 100).map(auditView);
  const controls = { path: batchPath, q };
  return {
    batch,
    batchPath,
    overview: batchRowView(overview, null),
    labelled: overview.labelled,
    unresolved: overview.unresolved,
    live: isLive(view.doc.state),
    published: settings !== null,
    draft: view.doc.state === 'draft',
    charts,
    latency,
    agreement,
    workers,
    workersTotal: workerRows.length,
    workersTable: tableControls({
      ...controls,
      params: WORKER_PARAMS,
      own: ['flag'],
      state: ws,
      paged: workersPage,
      columns: WORKER_COLUMNS,
      fragment: 'workers',
    }),
    workersWarning: warning,
    flags: FLAG_FILTERS.map((f) => ({ value: f, selected: f === flag })),
    decide: q.decide === 'all' ? decide : decide.slice(0, DECIDE_SHOWN),
    decideTotal: decide.length,
    decideUnresolved: decide.filter((i) => i.unresolved).length,
    decideMore: q.decide !== 'all' && decide.length > DECIDE_SHOWN ? `${batchPath}?decide=all#decide` : '',
    items: itemsPage.rows,
    itemsTotal: items.length,
    itemsFilter: attention ? 'attention' : 'all',
    itemsFilterLinks: {
      all: pageHref(batchPath, q, { items: null, [ITEM_PARAMS.page]: null }, 'items'),
      attention: pageHref(batchPath, q, { items: 'attention', [ITEM_PARAMS.page]: null }, 'items'),
    },
    itemsTable: tableControls({
      ...controls,
      params: ITEM_PARAMS,
      own: ['items'],
      state: is,
      paged: itemsPage,
      columns: ITEM_COLUMNS,
      fragment: 'items',
    }),
    audit,
  };
}

const fmtSeconds = (s: number | null) => (s === null ? 'n/a' : duration(s));

export async function loadWorkerPage(ctx: ActionContext, batch: string, workerId: string) {
  const view = await loadBatchView(ctx, batch);
  const { rows, warning } = await workersWithPlatform(ctx, batch, view);
  const row = rows.find((r) => r.workerId === workerId);
  const answers = (await loadWorkerAnswers(ctx, batch, workerId, view)).map(answerView);
  const assignments = [...new Map(answers.map((a) => [a.assignmentId, { assignmentId: a.assignmentId, review: a.review }])).values()];
  const quals = Object.keys(view.doc.qualificationIds ?? {});
  return {
    batch,
    batchPath: `/console/batches/${encodeURIComponent(batch)}`,
    workerId,
    row: row ? workerRowView(batch, row) : null,
    warning,
    answers,
    assignments,
    qualifications: quals,
    defaultQualification: quals[0] ?? '',
  };
}

/** What the polling script reads: the numbers that move while a batch runs. */
export async function loadLive(ctx: ActionContext, batch: string) {
  const o = await batchOverview(ctx, batch);
  const row = batchRowView(o, null);
  return {
    batch,
    state: o.state,
    live: row.live,
    progress: row.progress,
    progressPercent: row.progressPercent,
    spend: row.spend,
    kappa: row.kappa,
    labelled: o.labelled,
    unresolved: o.unresolved,
  };
}
