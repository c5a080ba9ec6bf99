import type { Marketplace } from '../core.js';
import { insertOrReplaceText } from '../store/models.js';
import { SizedCache } from '../store/sized-cache.js';

/**
 * Submitted answers (QuestionFormAnswers XML) by assignment id. Each is written once when
 * its assignment is submitted, and read when the requester reviews it (ListAssignmentsForHIT,
 * GetAssignment), often more than once: what this process wrote is kept in memory (up to
 * ANSWER_BUDGET characters, the most recent first), so a review costs no read per
 * assignment. Only writes fill the cache, so it never holds an answer older than the one
 * stored; after a restart, answers are read from the database.
 */
const ANSWER_BUDGET = 32 * 1024 * 1024;
const caches = new WeakMap<Marketplace, SizedCache<string>>();

function cacheOf(mp: Marketplace): SizedCache<string> {
  let cache = caches.get(mp);
  if (!cache) caches.set(mp, (cache = new SizedCache<string>(ANSWER_BUDGET, (xml) => xml.length)));
  return cache;
}

/** Stores the answer of a submission (before its assignment becomes Submitted). */
export async function storeAnswer(mp: Marketplace, assignmentId: string, hitId: string, xml: string): Promise<void> {
  await insertOrReplaceText(mp.models.answers, { _id: assignmentId, xml, hitId });
  cacheOf(mp).set(assignmentId, xml);
}

/** The stored answers of these assignments (those that have one). */
export async function answersOf(mp: Marketplace, ids: string[]): Promise<Map<string, string>> {
  const cache = cacheOf(mp);
  const out = new Map<string, string>();
  const missing: string[] = [];
  for (const id of ids) {
    const xml = cache.get(id);
    if (xml !== undefined) out.set(id, xml);
    else missing.push(id);
  }
  // by `_id` one at a time: the dev database answers these from its index, and scans for `$in`
  const docs = await Promise.all(missing.map((id) => mp.models.answers.findById(id).lean()));
  for (const d of docs) if (d) out.set(d._id, d.xml);
  return out;
}
