import { randomBytes } from 'node:crypto';
import { SizedCache } from '../store/sized-cache.js';

/**
 * An answer's wire JSON, encoded. A HIT's Question (its whole page: 46 KB a HIT in the
 * paper's batch) goes out in every GetHIT, ListHITs and CreateHIT answer that shows the HIT,
 * unchanged: its JSON text is encoded once, kept, and copied into each answer, where
 * `JSON.stringify` escaped and encoded all of it again every time (a `qrelay simulate` at
 * the paper's scale answers hundreds of MB of them). The answer is the same bytes either way.
 *
 * The encodings are kept by HIT id (a HIT's Question never changes once the HIT exists:
 * services/hits.ts), one store per marketplace's API (`questionEncodings`). Kept by the
 * Question's text, each entry also held that text, 46 KB of two-byte characters a page,
 * as much memory again as the encodings themselves.
 */

/** Encoded Questions kept at most (bytes). */
const QUESTION_BUDGET = 32 * 1024 * 1024;

/** Questions shorter than this are left to `JSON.stringify`. */
const KEPT_FROM = 4096;

interface Encoded {
  /** The Question's length: a HIT id whose Question is not this one's (never, but checked) is encoded anew. */
  length: number;
  json: Buffer;
}

export type QuestionEncodings = SizedCache<Encoded>;

/** A marketplace API's store of encoded Questions, by HIT id. */
export const questionEncodings = (): QuestionEncodings => new SizedCache<Encoded>(QUESTION_BUDGET, (e) => e.json.length);

/**
 * Stands for a kept Question in the first pass: a NUL (which JSON always escapes, so no
 * string of the answer can end up as this text unescaped) and this process's random nonce.
 */
const MARK = `\u0000${randomBytes(9).toString('hex')}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');

function encodedQuestion(kept: QuestionEncodings, hitId: string, question: string): Buffer {
  const entry = kept.get(hitId);
  if (entry?.length === question.length) return entry.json;
  const json = Buffer.from(JSON.stringify(question), 'utf8');
  kept.set(hitId, { length: question.length, json });
  return json;
}

/** `body` as JSON, its HITs' long Questions from `kept` (encoded and kept there when missing). */
export function wireJson(body: unknown, kept: QuestionEncodings): Buffer {
  const questions: { hitId: string; question: string }[] = [];
  const text = JSON.stringify(body, function (this: unknown, key, value: unknown) {
    if (key !== 'Question' || typeof value !== 'string' || value.length < KEPT_FROM) return value;
    const hitId = (this as { HITId?: unknown }).HITId;
    if (typeof hitId !== 'string') return value;
    questions.push({ hitId, question: value });
    return `${MARK}${questions.length - 1}`;
  });
  if (questions.length === 0) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (const m of text.matchAll(MARKED)) {
    const q = questions[Number(m[1])]!;
    parts.push(Buffer.from(text.slice(from, m.index), 'utf8'), encodedQuestion(kept, q.hitId, q.question));
    from = m.index + m[0].length;
  }
  parts.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(parts);
}
