import Handlebars from 'handlebars';

/**
 * Highlights the agents' quoted evidence inside a chunk. Quotes are matched in the raw
 * chunk text (whitespace-tolerant, otherwise exact), and only then is every piece of text
 * escaped; the only markup in the result is our own `<mark>` elements. Matching the
 * escaped text instead would miss quotes containing `&` or `<`, and building HTML before
 * escaping would let a chunk from the web inject markup.
 */

export const escapeHtml = (text: string): string => Handlebars.Utils.escapeExpression(text);

export interface EvidenceQuote {
  /** The quoted text, as the agent wrote it. */
  text: string;
  /** Index of the agent on the page (0, 1, ...): decides the highlight's class. */
  agent: number;
}

/** Quotes shorter than this (after trimming) would light up half the chunk; ignored. */
export const MIN_QUOTE_CHARS = 4;

const WRAPPING_QUOTES: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['\u201c', '\u201d'],
  ['\u2018', '\u2019'],
  ['\u00ab', '\u00bb'],
];

/** Trims the quote marks and ellipses agents put around a quotation. */
export function normaliseQuote(quote: string): string {
  let q = quote.trim();
  for (let changed = true; changed;) {
    changed = false;
    for (const [open, close] of WRAPPING_QUOTES) {
      if (q.length >= 2 && q.startsWith(open) && q.endsWith(close)) {
        q = q.slice(open.length, q.length - close.length).trim();
        changed = true;
      }
    }
    const unellipsed = q.replace(/^(\.\.\.|\u2026)\s*/u, '').replace(/\s*(\.\.\.|\u2026)$/u, '');
    if (unellipsed !== q) {
      q = unellipsed.trim();
      changed = true;
    }
  }
  return q;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every [start, end) span of `chunk` that matches `quote` up to runs of whitespace. */
export function findQuoteSpans(chunk: string, quote: string): Array<[number, number]> {
  const q = normaliseQuote(quote);
  if (q.replace(/\s/gu, '').length < MIN_QUOTE_CHARS) return [];
  const pattern = new RegExp(q.split(/\s+/u).map(escapeRegExp).join('\\s+'), 'gu');
  const spans: Array<[number, number]> = [];
  for (const m of chunk.matchAll(pattern)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/** The chunk as HTML: escaped text, with each agent's quotes wrapped in `<mark>`. */
export function highlightChunk(chunk: string, quotes: readonly EvidenceQuote[]): string {
  const starts: Array<{ at: number; agent: number; delta: 1 | -1 }> = [];
  for (const quote of quotes) {
    for (const [start, end] of findQuoteSpans(chunk, quote.text)) {
      starts.push({ at: start, agent: quote.agent, delta: 1 }, { at: end, agent: quote.agent, delta: -1 });
    }
  }
  if (starts.length === 0) return escapeHtml(chunk);

  const boundaries = [...new Set([0, chunk.length, ...starts.map((s) => s.at)])].sort((x, y) => x - y);
  const depth = new Map<number, number>(); // agent -> how many of its spans cover the current segment
  let out = '';
  let event = 0;
  starts.sort((x, y) => x.at - y.at);
  for (let b = 0; b < boundaries.length - 1; b++) {
    const from = boundaries[b] as number;
    const to = boundaries[b + 1] as number;
    while (event < starts.length && (starts[event] as (typeof starts)[number]).at <= from) {
      const e = starts[event] as (typeof starts)[number];
      depth.set(e.agent, (depth.get(e.agent) ?? 0) + e.delta);
      event++;
    }
    const text = escapeHtml(chunk.slice(from, to));
    const agents = [...depth].filter(([, n]) => n > 0).map(([agent]) => agent);
    if (agents.length === 0) out += text;
    else out += `<mark class="ev ${agents.length === 1 ? `ev-${agents[0]}` : 'ev-many'}">${text}</mark>`;
  }
  return out;
}
