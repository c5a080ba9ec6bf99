import type { Report } from '../types.js';
import type { ChartName } from './document.js';
import { count, duration, percent, timeUnit } from './format.js';
import { axes, COLOURS, escapeXml, legend, n, niceTicks, noData, PLOT, scaleX, scaleY, svgChart, type Axis } from './svg.js';

/** A chart for the html report: inline SVG markup (already escaped) and a plain-text caption. */
export interface Chart {
  readonly svg: string;
  readonly caption: string;
}

const since = (unit: { long: string }) => `time since publishing (${unit.long})`;

/** Cumulative valid votes and decided items against time since publishing. */
export function progressChart(r: Report): Chart {
  const { bucketSeconds, buckets } = r.latency.throughput;
  const endSeconds = buckets.length * bucketSeconds;
  const unit = timeUnit(endSeconds);
  const last = buckets.at(-1);
  const yMax = Math.max(last?.cumulativeValidVotes ?? 0, r.items);
  const x: Axis = { ticks: niceTicks(endSeconds / unit.seconds || 1, 6), label: since(unit) };
  const y: Axis = { ticks: niceTicks(yMax, 5), label: 'count', format: (v) => count(v) };
  const title = 'Progress over time';
  if (!last) {
    return {
      svg: svgChart('chart-progress', title, 'No valid votes yet.', noData('No valid votes yet', x, y)),
      caption: 'Progress: no valid votes yet.',
    };
  }
  const sx = scaleX(x);
  const sy = scaleY(y);
  const series = (name: string, label: string, colour: string, dash: string, value: (b: (typeof buckets)[number]) => number) => {
    const points = [[0, 0] as const, ...buckets.map((b) => [(b.startSeconds + bucketSeconds) / unit.seconds, value(b)] as const)];
    const dots = buckets
      .map((b) => {
        const px = (b.startSeconds + bucketSeconds) / unit.seconds;
        return `<circle cx="${n(sx(px))}" cy="${n(sy(value(b)))}" r="2.5" fill="${colour}"><title>${escapeXml(`${label} by ${duration(b.startSeconds + bucketSeconds)}: ${count(value(b))}`)}</title></circle>`;
      })
      .join('');
    return (
      `<g class="series" data-series="${name}" data-points="${points.length}">` +
      `<polyline points="${points.map(([px, py]) => `${n(sx(px))},${n(sy(py))}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}><title>${escapeXml(label)}</title></polyline>${dots}</g>`
    );
  };
  const allItems =
    r.items > 0
      ? `<line class="reference" x1="${n(PLOT.left)}" x2="${n(PLOT.right)}" y1="${n(sy(r.items))}" y2="${n(sy(r.items))}" stroke="${COLOURS.grey}" stroke-dasharray="2 3"><title>${escapeXml(`all ${count(r.items)} items`)}</title></line>`
      : '';
  const body =
    axes(x, y) +
    allItems +
    series('valid-votes', 'valid votes', COLOURS.blue, '', (b) => b.cumulativeValidVotes) +
    series('decided-items', 'items decided', COLOURS.vermillion, '6 3', (b) => b.cumulativeDecidedItems) +
    legend([
      { label: 'valid votes', swatch: `<line x1="-8" x2="8" y1="0" y2="0" stroke="${COLOURS.blue}" stroke-width="2"/>` },
      {
        label: 'items decided',
        swatch: `<line x1="-8" x2="8" y1="0" y2="0" stroke="${COLOURS.vermillion}" stroke-width="2" stroke-dasharray="6 3"/>`,
      },
      { label: 'all items', swatch: `<line x1="-8" x2="8" y1="0" y2="0" stroke="${COLOURS.grey}" stroke-dasharray="2 3"/>` },
    ]);
  const description = `${count(last.cumulativeValidVotes)} valid votes and ${count(last.cumulativeDecidedItems)} of ${count(r.items)} items decided within ${duration(endSeconds)} of publishing, in ${duration(bucketSeconds)} steps.`;
  return { svg: svgChart('chart-progress', title, description, body), caption: `Progress: ${description}` };
}

/** Histogram of the per-item time from publishing to the vote that decided the item, with p50 and p90 marked. */
export function latencyChart(r: Report): Chart {
  const t = r.latency.timeToTarget;
  const values = r.itemRows.flatMap((it) => (it.timeToTargetSeconds === null ? [] : [it.timeToTargetSeconds]));
  const max = values.reduce((a, b) => Math.max(a, b), 0);
  const unit = timeUnit(max);
  const title = 'Time to decided per item';
  const xLabel = `time from publishing to the deciding vote (${unit.long})`;
  const bins = niceTicks(max / unit.seconds || 1, 12);
  const binCount = bins.values.length - 1;
  const counts = new Array<number>(binCount).fill(0);
  for (const v of values) counts[Math.min(Math.floor(v / unit.seconds / bins.step), binCount - 1)]!++;
  const x: Axis = { ticks: bins, label: xLabel, format: (v) => v.toFixed(bins.decimals) };
  const y: Axis = { ticks: niceTicks(Math.max(...counts, 1), 5), label: 'items', format: (v) => (Number.isInteger(v) ? count(v) : '') };
  if (values.length === 0) {
    return {
      svg: svgChart(
        'chart-latency',
        title,
        `No item has ${t.voteTarget} valid votes yet.`,
        noData(`No item has ${t.voteTarget} valid votes yet`, x, y),
      ),
      caption: `Latency: no item has ${t.voteTarget} valid votes yet.`,
    };
  }
  const sx = scaleX(x);
  const sy = scaleY(y);
  const edge = (i: number) => Number((i * bins.step).toFixed(bins.decimals));
  const bars = counts
    .map((c, i) => {
      if (c === 0) return '';
      const x0 = sx(edge(i));
      const x1 = sx(edge(i + 1));
      const label = `${edge(i).toFixed(bins.decimals)}–${edge(i + 1).toFixed(bins.decimals)} ${unit.short}: ${count(c)} ${c === 1 ? 'item' : 'items'}`;
      return `<rect class="bar" data-count="${c}" x="${n(x0 + 1)}" y="${n(sy(c))}" width="${n(Math.max(1, x1 - x0 - 2))}" height="${n(PLOT.bottom - sy(c))}" fill="${COLOURS.blue}"><title>${escapeXml(label)}</title></rect>`;
    })
    .join('');
  const marker = (name: string, seconds: number | null, dy: number) => {
    if (seconds === null) return '';
    const px = sx(seconds / unit.seconds);
    return (
      `<g class="marker" data-marker="${name}"><line x1="${n(px)}" x2="${n(px)}" y1="${n(PLOT.top)}" y2="${n(PLOT.bottom)}" stroke="${COLOURS.vermillion}" stroke-width="1.5" stroke-dasharray="4 3"/>` +
      `<text x="${n(px + 4)}" y="${n(PLOT.top + 12 + dy)}" fill="${COLOURS.vermillion}">${escapeXml(`${name} ${duration(seconds)}`)}</text><title>${escapeXml(`${name}: ${duration(seconds)}`)}</title></g>`
    );
  };
  const body = axes(x, y) + `<g class="bars">${bars}</g>` + marker('p50', t.p50Seconds, 0) + marker('p90', t.p90Seconds, 14);
  const description = `${count(values.length)} items decided (${count(t.itemsUndecided)} undecided): p50 ${duration(t.p50Seconds)}, p90 ${duration(t.p90Seconds)}, longest ${duration(t.maxSeconds)}; bins of ${bins.step.toFixed(bins.decimals)} ${unit.short}.`;
  return { svg: svgChart('chart-latency', title, description, body), caption: `Latency: ${description}` };
}

/** Each worker's attention-check pass rate against their agreement with the leave-one-out majority; flagged workers as squares. */
export function workerQualityChart(r: Report): Chart {
  const x: Axis = { ticks: niceTicks(1, 5), label: 'attention-check pass rate', format: (v) => percent(v, 0) };
  const y: Axis = { ticks: niceTicks(1, 5), label: 'agreement with the others’ majority', format: (v) => percent(v, 0) };
  const plotted = r.workers.filter((w) => w.checks.passRate !== null && w.agreement.rate !== null);
  const missing = r.workers.length - plotted.length;
  const flagged = plotted.filter((w) => w.flags.length > 0).length;
  const title = 'Worker quality';
  const description =
    `${count(plotted.length)} workers plotted (${count(flagged)} flagged, drawn as squares)` +
    (missing > 0 ? `; ${count(missing)} without checks or items to compare are not shown.` : '.');
  if (plotted.length === 0) {
    return {
      svg: svgChart('chart-workers', title, description, noData('No worker with checks and compared items yet', x, y)),
      caption: `Worker quality: ${description}`,
    };
  }
  const sx = scaleX(x);
  const sy = scaleY(y);
  const points = plotted
    .map((w) => {
      const px = sx(w.checks.passRate!);
      const py = sy(w.agreement.rate!);
      const label =
        `${w.worker}: check pass rate ${percent(w.checks.passRate)} (${w.checks.passed} / ${w.checks.total}), ` +
        `agreement ${percent(w.agreement.rate)} of ${count(w.agreement.compared)} items, ${count(w.assignments.submitted)} assignments` +
        (w.flags.length > 0 ? `, flags: ${w.flags.join(', ')}` : '');
      const tip = `<title>${escapeXml(label)}</title>`;
      return w.flags.length > 0
        ? `<rect class="point flagged" data-worker="${escapeXml(w.worker)}" x="${n(px - 5)}" y="${n(py - 5)}" width="10" height="10" fill="${COLOURS.vermillion}" fill-opacity="0.8">${tip}</rect>`
        : `<circle class="point" data-worker="${escapeXml(w.worker)}" cx="${n(px)}" cy="${n(py)}" r="5.5" fill="${COLOURS.blue}" fill-opacity="0.7">${tip}</circle>`;
    })
    .join('');
  const body =
    axes(x, y) +
    `<g class="points">${points}</g>` +
    legend([
      { label: 'worker', swatch: `<circle r="5" fill="${COLOURS.blue}" fill-opacity="0.7"/>` },
      { label: 'flagged worker', swatch: `<rect x="-5" y="-5" width="10" height="10" fill="${COLOURS.vermillion}" fill-opacity="0.8"/>` },
    ]);
  return { svg: svgChart('chart-workers', title, description, body), caption: `Worker quality: ${description}` };
}

export function chart(name: ChartName, report: Report): Chart {
  switch (name) {
    case 'progress':
      return progressChart(report);
    case 'latency':
      return latencyChart(report);
    case 'workers':
      return workerQualityChart(report);
  }
}
