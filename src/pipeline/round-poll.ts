/**
 * Which HITs a collection round polls when the platform tells us what changed (MTurk event
 * notifications: src/simulation/event-receiver.ts, the service's notifications route). A
 * round reconciles only the HITs named since the last round, and polls every collecting HIT
 * every FULL_POLL_EVERY rounds: notifications are best-effort (MTurk's own say so), so a
 * lost one delays an assignment by at most FULL_POLL_EVERY rounds and never loses it. A
 * round that would declare the batch complete polls the rest first (collect.ts), so a batch
 * is never declared complete on what the notifications said alone.
 *
 * No notification is lost to a HIT type not subscribed yet: whoever creates HITs subscribes
 * their types before any worker can see them (`qrelay simulate` after publishing and after a
 * round that posted HITs, before the crowd goes on), so the first round, and a round after
 * HITs were created, poll only what they were told of, as any other (decision 0019; each
 * full poll of a 40,560-case batch lists 4,500 HITs of 46 KB).
 */

/** Rounds between two full polls: the 11th, 21st, ... round polls every collecting HIT. */
export const FULL_POLL_EVERY = 10;

export interface RoundPollState {
  /** Rounds run so far (0 before the first). */
  roundsRun: number;
  /** Platform HIT ids named by notifications since the last round. */
  notified: ReadonlySet<string>;
}

/** The HIT ids the next round polls, or undefined for every collecting HIT (pure). */
export function hitsToPoll(state: RoundPollState, fullEvery = FULL_POLL_EVERY): string[] | undefined {
  if (state.roundsRun > 0 && state.roundsRun % fullEvery === 0) return undefined;
  return [...state.notified].sort();
}
