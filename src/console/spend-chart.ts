import { duration, timeUnit, usd } from '../reports/render/format.js';
import {
  axes,
  COLOURS,
  escapeXml,
  legend,
  n,
  niceTicks,
  noData,
  PLOT,
  scaleX,
  scaleY,
  svgChart,
  type Axis,
} from '../reports/render/svg.js';

/**
 * The console's spend chart (pure): money paid against time since publishing, as a step
 * line (each approval and each bonus adds its amount with MTurk's fee), with the budget
 * and the quote as reference lines. Drawn with the report's SVG toolkit.
 */

export interface SpendEvent {
  /** Milliseconds since publishing (negative counts as 0). */
  atMs: number;
  cents: number;
  kind: 'work' | 'bonus';
}

export interface SpendPoint {
  seconds: number;
  cents: number;
}

/** Cumulative spend after each event, in time order, starting at (0, 0). */
export function spendSeries(events: readonly SpendEvent[]): SpendPoint[] {
  const sorted = [...events].sort((a, b) => a.atMs - b.atMs);
  const points: SpendPoint[] = [{ seconds: 0, cents: 0 }];
  let total = 0;
  for (const e of sorted) {
    total += e.cents;
    points.push({ seconds: Math.max(0, e.atMs) / 1000, cents: total });
  }
  return points;
}

export function spendChart(events: readonly SpendEvent[], refs: { budgetCents: number | null; quoteCents: number | null }): string {
  const points = spendSeries(events);
  const end = points.at(-1)!;
  const unit = timeUnit(Math.max(1, end.seconds));
  const yMax = Math.max(end.cents, refs.budgetCents ?? 0, refs.quoteCents ?? 0, 1);
  const x: Axis = { ticks: niceTicks(end.seconds / unit.seconds || 1, 6), label: `time since publishing (${unit.long})` };
  const y: Axis = { ticks: niceTicks(yMax / 100, 5), label: 'spent (USD)', format: (v) => `$${v.toFixed(v < 10 ? 2 : 0)}` };
  const title = 'Spend over time';
  if (points.length === 1) return svgChart('chart-spend', title, 'Nothing paid yet.', noData('Nothing paid yet', x, y));
  const sx = scaleX(x);
  const sy = scaleY(y);
  const path: string[] = [];
  let prev = points[0]!;
  for (const p of points.slice(1)) {
    path.push(
      `${n(sx(p.seconds / unit.seconds))},${n(sy(prev.cents / 100))}`,
      `${n(sx(p.seconds / unit.seconds))},${n(sy(p.cents / 100))}`,
    );
    prev = p;
  }
  const ref = (name: string, cents: number | null, colour: string, dash: string) =>
    cents === null
      ? ''
      : `<line class="reference" data-ref="${name}" x1="${n(PLOT.left)}" x2="${n(PLOT.right)}" y1="${n(sy(cents / 100))}" y2="${n(sy(cents / 100))}" stroke="${colour}" stroke-dasharray="${dash}"><title>${escapeXml(`${name} ${usd(cents)}`)}</title></line>`;
  const body =
    axes(x, y) +
    ref('budget', refs.budgetCents, COLOURS.vermillion, '6 3') +
    ref('quote', refs.quoteCents, COLOURS.grey, '2 3') +
    `<polyline class="series" data-series="spend" points="${n(sx(0))},${n(sy(0))} ${path.join(' ')}" fill="none" stroke="${COLOURS.blue}" stroke-width="2"><title>spend</title></polyline>` +
    legend([
      { label: 'spent', swatch: `<line x1="-8" x2="8" y1="0" y2="0" stroke="${COLOURS.blue}" stroke-width="2"/>` },
      ...(refs.budgetCents !== null
        ? [{ label: 'budget', swatch: `<line x1="-8" x2="8" y1="0" y2="0" stroke="${COLOURS.vermillion}" stroke-dasharray="6 3"/>` }]
        : []),
      ...(refs.quoteCents !== null
        ? [{ label: 'quote', swatch: `<line x1="-8" x2="8" y1="0" y2="0" stroke="${COLOURS.grey}" stroke-dasharray="2 3"/>` }]
        : []),
    ]);
  return svgChart(
    'chart-spend',
    title,
    `${usd(end.cents)} paid within ${duration(end.seconds)} of publishing${refs.budgetCents !== null ? `, budget ${usd(refs.budgetCents)}` : ''}.`,
    body,
  );
}
