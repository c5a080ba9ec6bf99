import type { Marketplace } from '../core.js';

/** Stores the answer of a submission (before its assignment becomes Submitted): store/answers.ts. */
export function storeAnswer(mp: Marketplace, assignmentId: string, hitId: string, xml: string): Promise<void> {
  return mp.answers.store(assignmentId, hitId, xml);
}

/** The stored answers of these assignments (those that have one). */
export function answersOf(mp: Marketplace, ids: string[]): Promise<Map<string, string>> {
  return mp.answers.of(ids);
}
