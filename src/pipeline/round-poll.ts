/**
 * Which HITs a collection round polls when the platform tells us what changed (MTurk event
 * notifications: src/simulation/event-receiver.ts, the service's notifications route). A
 * round reconciles only the HITs named since the last round, and polls every collecting HIT
 * on its first round, every FULL_POLL_EVERY rounds, and after HITs were created (their HIT
 * type may not be subscribed yet): notifications are best-effort (MTurk's own say so), so a
 * lost one delays an assignment by at most FULL_POLL_EVERY rounds and never loses it. A
 * round that would declare the batch complete polls the rest first (collect.ts), so a batch
 * is never declared complete on what the notifications said alone.
 */

/** Rounds between two full polls (the first round is one). */
export const FULL_POLL_EVERY = 10;

export interface RoundPollState {
  /** Rounds run so far (0 before the first). */
  roundsRun: number;
  /** Platform HIT ids named by notifications since the last round. */
  notified: ReadonlySet<string>;
  /** The last round created HITs (a repost). */
  createdHits: boolean;
}

/** The HIT ids the next round polls, or undefined for every collecting HIT (pure). */
export function hitsToPoll(state: RoundPollState, fullEvery = FULL_POLL_EVERY): string[] | undefined {
  if (state.roundsRun % fullEvery === 0 || state.createdHits) return undefined;
  return [...state.notified].sort();
}
