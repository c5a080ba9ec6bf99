/**
 * The small SVG toolkit the report charts are drawn with: escaping, coordinates, nice
 * axis ticks, the frame with labelled axes. Output is plain SVG markup with presentation
 * attributes (no CSS, no script, no external reference), so a chart shows the same inline
 * in the html report or saved on its own.
 */

/** Text or an attribute value from anywhere, safe inside SVG/HTML markup. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A coordinate with at most 1 decimal, without trailing zeros: the same bytes on every run. */
export function n(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  const fixed = (rounded === 0 ? 0 : rounded).toFixed(1); // never "-0"
  return fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed;
}

export interface Ticks {
  readonly step: number;
  readonly values: readonly number[];
  /** Decimals that show the step exactly. */
  readonly decimals: number;
}

/** Ticks 0, step, 2·step … up to at least `max`, with step 1, 2 or 5 × 10^k and about `target` intervals. */
export function niceTicks(max: number, target = 5): Ticks {
  const top = max > 0 && Number.isFinite(max) ? max : 1;
  const raw = top / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw - 1e-12)!;
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const count = Math.ceil(top / step - 1e-9);
  const values = Array.from({ length: count + 1 }, (_, i) => Number((i * step).toFixed(decimals)));
  return { step, values, decimals };
}

export const WIDTH = 640;
export const HEIGHT = 320;
export const PLOT = { left: 64, right: WIDTH - 20, top: 36, bottom: HEIGHT - 52 } as const;

/** Colours from the Okabe–Ito palette, distinguishable with the common colour-vision deficiencies. */
export const COLOURS = {
  blue: '#0072B2',
  orange: '#E69F00',
  vermillion: '#D55E00',
  green: '#009E73',
  grey: '#6b6b6b',
  grid: '#dddddd',
  ink: '#222222',
} as const;

export interface Axis {
  readonly ticks: Ticks;
  readonly label: string;
  /** Tick text; default the tick value with the ticks' decimals. */
  readonly format?: (value: number) => string;
}

export const scaleX = (axis: Axis) => (value: number) => PLOT.left + (value / axis.ticks.values.at(-1)!) * (PLOT.right - PLOT.left);
export const scaleY = (axis: Axis) => (value: number) => PLOT.bottom - (value / axis.ticks.values.at(-1)!) * (PLOT.bottom - PLOT.top);

/** Grid lines, both axes with tick labels, and the axis titles. */
export function axes(x: Axis, y: Axis): string {
  const sx = scaleX(x);
  const sy = scaleY(y);
  const fx = x.format ?? ((v: number) => v.toFixed(x.ticks.decimals));
  const fy = y.format ?? ((v: number) => v.toFixed(y.ticks.decimals));
  const parts: string[] = ['<g class="axes" stroke-width="1">'];
  for (const v of y.ticks.values) {
    parts.push(`<line x1="${n(PLOT.left)}" x2="${n(PLOT.right)}" y1="${n(sy(v))}" y2="${n(sy(v))}" stroke="${COLOURS.grid}"/>`);
    parts.push(`<text x="${n(PLOT.left - 6)}" y="${n(sy(v) + 4)}" text-anchor="end" fill="${COLOURS.ink}">${escapeXml(fy(v))}</text>`);
  }
  for (const v of x.ticks.values) {
    parts.push(`<line x1="${n(sx(v))}" x2="${n(sx(v))}" y1="${n(PLOT.bottom)}" y2="${n(PLOT.bottom + 5)}" stroke="${COLOURS.ink}"/>`);
    parts.push(`<text x="${n(sx(v))}" y="${n(PLOT.bottom + 18)}" text-anchor="middle" fill="${COLOURS.ink}">${escapeXml(fx(v))}</text>`);
  }
  parts.push(`<line x1="${n(PLOT.left)}" x2="${n(PLOT.right)}" y1="${n(PLOT.bottom)}" y2="${n(PLOT.bottom)}" stroke="${COLOURS.ink}"/>`);
  parts.push(`<line x1="${n(PLOT.left)}" x2="${n(PLOT.left)}" y1="${n(PLOT.top)}" y2="${n(PLOT.bottom)}" stroke="${COLOURS.ink}"/>`);
  parts.push(
    `<text class="axis-label" x="${n((PLOT.left + PLOT.right) / 2)}" y="${n(HEIGHT - 10)}" text-anchor="middle" fill="${COLOURS.ink}">${escapeXml(x.label)}</text>`,
  );
  const midY = (PLOT.top + PLOT.bottom) / 2;
  parts.push(
    `<text class="axis-label" x="16" y="${n(midY)}" text-anchor="middle" transform="rotate(-90 16 ${n(midY)})" fill="${COLOURS.ink}">${escapeXml(y.label)}</text>`,
  );
  parts.push('</g>');
  return parts.join('');
}

/** A legend entry drawn at the top of the chart. */
export interface LegendEntry {
  readonly label: string;
  /** The swatch: an SVG element drawn centred on (0, 0). */
  readonly swatch: string;
}

export function legend(entries: readonly LegendEntry[]): string {
  let x = PLOT.left;
  const parts = ['<g class="legend">'];
  for (const e of entries) {
    parts.push(`<g transform="translate(${n(x + 8)} 18)">${e.swatch}</g>`);
    parts.push(`<text x="${n(x + 20)}" y="22" fill="${COLOURS.ink}">${escapeXml(e.label)}</text>`);
    x += 36 + e.label.length * 6.5;
  }
  parts.push('</g>');
  return parts.join('');
}

/** The whole chart: an accessible SVG image (`role="img"`, named by its title, described by its description). */
export function svgChart(id: string, title: string, description: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" id="${escapeXml(id)}" class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" ` +
    `aria-labelledby="${escapeXml(id)}-title" aria-describedby="${escapeXml(id)}-desc" font-family="system-ui, sans-serif" font-size="12">` +
    `<title id="${escapeXml(id)}-title">${escapeXml(title)}</title><desc id="${escapeXml(id)}-desc">${escapeXml(description)}</desc>` +
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>${body}</svg>`
  );
}

/** The body of a chart without data: empty axes and a sentence saying why. */
export function noData(message: string, x: Axis, y: Axis): string {
  return `${axes(x, y)}<text class="no-data" x="${n((PLOT.left + PLOT.right) / 2)}" y="${n((PLOT.top + PLOT.bottom) / 2)}" text-anchor="middle" fill="${COLOURS.grey}">${escapeXml(message)}</text>`;
}
