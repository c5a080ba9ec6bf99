import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { deflated } from '../store/packed-texts.js';
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
 *
 * The encodings are kept deflated (zlib's fastest level, as store/packed-texts.ts keeps
 * the Questions' XML): a requester polling every HIT of a batch (ListHITs) lists them all
 * in turn, and 32 MB of plain encodings held some 700 of the paper's 46 KB pages, fewer
 * than a batch's HITs, so that every one of them was encoded again on every full poll.
 * Deflated to a fifth, the budget holds every HIT of a 40,560-case batch, and unpacking
 * one costs about half of what encoding it again does. A Question is packed the second
 * time it is encoded, not the first: CreateHIT answers with its HIT, and packing every
 * page a requester publishes but never lists again would be waste.
 */

/** Encoded Questions kept at most (deflated bytes). */
const QUESTION_BUDGET = 48 * 1024 * 1024;

/** Questions shorter than this are left to `JSON.stringify`. */
const KEPT_FROM = 4096;

interface Encoded {
  /** The Question's length: a HIT id whose Question is not this one's (never, but checked) is encoded anew. */
  length: number;
  /** Its JSON text's UTF-8 bytes, deflated; none yet when it was encoded only once (CreateHIT's answer). */
  packed?: Buffer;
}

export type QuestionEncodings = SizedCache<Encoded>;

/** What an entry without its encoding is counted as (bytes). */
const SEEN_BYTES = 64;

/** A marketplace API's store of encoded Questions, by HIT id. */
export const questionEncodings = (): QuestionEncodings => new SizedCache<Encoded>(QUESTION_BUDGET, (e) => e.packed?.length ?? SEEN_BYTES);

/**
 * Stands for a kept Question in the first pass: a NUL (which JSON always escapes, so no
 * string of the answer can end up as this text unescaped) and this process's random nonce.
 */
const MARK = `\u0000${randomBytes(9).toString('hex')}:`;
const MARKED = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');

function encodedQuestion(kept: QuestionEncodings, hitId: string, question: string): Buffer {
  const entry = kept.get(hitId);
  const same = entry?.length === question.length;
  if (same && entry.packed) return inflateRawSync(entry.packed);
  const json = Buffer.from(JSON.stringify(question), 'utf8');
  // packed when encoded a second time: a HIT's first answer (CreateHIT's) is often its only one
  kept.set(hitId, same ? { length: question.length, packed: deflated(json) } : { length: question.length });
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
