/**
 * Where the demo's simulated times land on the bundled marketplace (pure). The simulation
 * ran hours of simulated time in seconds of real time, on a clock of its own; its records
 * are handed to a marketplace on real time, whose requester API must not answer times hours
 * away from now. So the simulated span, from the earliest record to the moment the
 * simulation ended, is mapped linearly onto the `pastMs` before the hand-over's `anchorMs`,
 * and the times still ahead when it ended (deadlines, auto-approval times, expirations) onto
 * the `futureMs` after it. Order is kept (equal times may result, never a swap); qrelay's
 * own database keeps the simulated times, which its reports measure latency by.
 */

export interface SimulatedSpan {
  /** The earliest time in the records. */
  earliestMs: number;
  /** The simulated clock when the simulation ended. */
  endMs: number;
  /** The latest time in the records (a deadline or auto-approval time may lie after the end). */
  latestMs: number;
}

export interface HandOverWindow {
  anchorMs: number;
  pastMs: number;
  futureMs: number;
}

/** The default window: five seconds either side of the hand-over (a check that reads them a minute later still finds them within a minute of now). */
export const HAND_OVER_WINDOW = { pastMs: 5_000, futureMs: 5_000 } as const;

export function handOverTime(span: SimulatedSpan, window: HandOverWindow): (t: Date) => Date {
  const past = Math.max(1, span.endMs - span.earliestMs);
  const future = Math.max(1, span.latestMs - span.endMs);
  return (t) => {
    const ms = t.getTime();
    const moved =
      ms <= span.endMs
        ? window.anchorMs - (window.pastMs * Math.min(past, span.endMs - ms)) / past
        : window.anchorMs + (window.futureMs * Math.min(future, ms - span.endMs)) / future;
    return new Date(Math.round(moved));
  };
}
