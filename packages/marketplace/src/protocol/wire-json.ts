import { randomBytes } from 'node:crypto';
import { SizedCache } from '../store/sized-cache.js';

/**
 * An answer's wire JSON, encoded. A HIT's Question (its whole page: 46 KB a HIT in the
 * paper's batch) goes out in every GetHIT, ListHITs and CreateHIT answer that shows the HIT,
 * unchanged: its JSON text is encoded once, kept, and copied into each answer, where
 * `JSON.stringify` escaped and encoded all of it again every time (a `qrelay simulate` at
 * the paper's scale answers hundreds of MB of them). The answer is the same bytes either way.
 */

/** Encoded Questions kept at most (bytes). */
const QUESTION_BUDGET = 32 * 1024 * 1024;

/** Questions shorter than this are left to `JSON.stringify`. */
const KEPT_FROM = 4096;

const encoded = new SizedCache<Buffer>(QUESTION_BUDGET, (b) => b.length);

/**
 * Stands for a kept Question in the first pass: a NUL (which JSON always escapes, so no
 * string of the answer can end up as this text unescaped) and this process's random nonce.
 */
const MARK = `\u0000${randomBytes(9).toString('hex')}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');

function encodedQuestion(question: string): Buffer {
  let json = encoded.get(question);
  if (!json) encoded.set(question, (json = Buffer.from(JSON.stringify(question), 'utf8')));
  return json;
}

export function wireJson(body: unknown): Buffer {
  const questions: string[] = [];
  const text = JSON.stringify(body, (key, value: unknown) => {
    if (key !== 'Question' || typeof value !== 'string' || value.length < KEPT_FROM) return value;
    questions.push(value);
    return `${MARK}${questions.length - 1}`;
  });
  if (questions.length === 0) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (const m of text.matchAll(MARKED)) {
    parts.push(Buffer.from(text.slice(from, m.index), 'utf8'), encodedQuestion(questions[Number(m[1])]!));
    from = m.index + m[0].length;
  }
  parts.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(parts);
}
