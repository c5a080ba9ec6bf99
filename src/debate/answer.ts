import type { Judgment } from '../domain/cases.js';
import { normalizeJudgment } from '../ingest/labels.js';

/**
 * Tolerant reading of model answers: the JSON object may come inside a code fence or with
 * text around it, keys and yes/no in any case. Anything else is not an answer, and the
 * caller asks again. Pure.
 */

export interface AgentAnswer {
  label: Judgment;
  reasoning: string;
  references: string[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * What is kept of an answer's reasoning and references: the debate travels to the crowd's
 * pages (MTurk caps a page at 64 KB) and into every output file, so a runaway answer must
 * not make a case that can never be published.
 */
export const MAX_REASON_CHARS = 4000;
export const MAX_REFERENCES = 10;
export const MAX_REFERENCE_CHARS = 1000;

/** `text` cut to `max` characters, saying how long it was. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = ` [… cut: ${text.length} characters in all]`;
  return `${text.slice(0, Math.max(0, max - note.length))}${note}`;
}

const FENCE = /```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g;

/** Every balanced `{...}` span of `text` (outermost ones), quotes and escapes respected. */
function objectSpans(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      if (depth > 0) inString = true;
    } else if (c === '{') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (c === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
}

/** The JSON objects an answer holds: fenced blocks first, then any object in the text. */
export function jsonObjectsIn(text: string): Record<string, unknown>[] {
  const places = [...text.matchAll(FENCE)].map((m) => m[1] ?? '');
  places.push(text);
  const found: Record<string, unknown>[] = [];
  for (const place of places) {
    for (const span of objectSpans(place)) {
      try {
        const value: unknown = JSON.parse(span);
        if (value && typeof value === 'object' && !Array.isArray(value)) found.push(value as Record<string, unknown>);
      } catch {
        // not JSON: try the next span
      }
    }
  }
  return found;
}

/** The value under `names` with keys compared without case. */
function field(object: Record<string, unknown>, names: readonly string[]): unknown {
  for (const [key, value] of Object.entries(object)) {
    if (names.includes(key.trim().toLowerCase())) return value;
  }
  return undefined;
}

function label(value: unknown): Judgment | undefined {
  const cleaned = typeof value === 'string' ? value.trim().replace(/[.!]+$/, '') : value;
  const normalized = normalizeJudgment(cleaned);
  return normalized === 'yes' || normalized === 'no' ? normalized : undefined;
}

function textList(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}

/** An agent's (or the adjudicator's) answer: `{reference, reason, response}`. */
export function parseAgentAnswer(text: string): Parsed<AgentAnswer> {
  const objects = jsonObjectsIn(text);
  if (objects.length === 0) return { ok: false, reason: 'the answer holds no JSON object' };
  for (const object of objects) {
    const response = label(field(object, ['response', 'answer', 'label', 'decision']));
    if (response === undefined) continue;
    const reason = field(object, ['reason', 'reasoning', 'explanation']);
    return {
      ok: true,
      value: {
        label: response,
        reasoning: typeof reason === 'string' ? capText(reason, MAX_REASON_CHARS) : '',
        references: textList(field(object, ['reference', 'references']))
          .slice(0, MAX_REFERENCES)
          .map((r) => capText(r, MAX_REFERENCE_CHARS)),
      },
    };
  }
  return { ok: false, reason: 'the JSON object has no "response" of yes or no' };
}

/** The prefilter's answer: `{"is_supported": true/false}` (or a bare true/false). */
export function parseFilterAnswer(text: string): Parsed<boolean> {
  for (const object of jsonObjectsIn(text)) {
    const value = field(object, ['is_supported', 'supported', 'issupported']);
    const judged = label(value);
    if (judged !== undefined) return { ok: true, value: judged === 'yes' };
  }
  const bare = /^\W*(true|false)\W*$/i.exec(text.trim());
  if (bare) return { ok: true, value: bare[1]!.toLowerCase() === 'true' };
  return { ok: false, reason: 'the answer holds no {"is_supported": true/false}' };
}

/** The follow-up message after an answer that could not be read. */
export function reaskMessage(why: string): string {
  return `Your answer could not be read (${why}). Reply again with only the JSON object of the output template, nothing else.`;
}
