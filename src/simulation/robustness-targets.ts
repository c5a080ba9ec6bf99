import type { Forecast } from './forecast.js';

/**
 * Issue 35's targets that the default population cannot measure, on one `qrelay simulate
 * --json` forecast (pure): what quality control does to honest workers whose check accuracy
 * equals their item accuracy, and how long a careful-then-careless worker goes on after
 * their change point. Reads only the forecast's `workers[]` (kind, trueAccuracy,
 * changeAfter, assignments, decisions), so it measures whatever the pipeline does.
 */

/** The honest workers held to the no-false-stop targets: item accuracy at least this on both classes. */
const HONEST_FLOOR = 0.8;
/** A careless worker is to be stopped within this many assignments after their change point. */
export const CARELESS_WITHIN = 2;

export interface RobustnessFigures {
  /** Honest workers (kind `honest`, true accuracy ≥ HONEST_FLOOR) with an assignment: their assignments lost (discarded or rejected), and how many of them were stopped. */
  readonly honest: {
    readonly workers: number;
    readonly assignments: number;
    readonly lost: number;
    readonly share: number | null;
    readonly stopped: number;
  };
  /**
   * Careful-then-careless workers who submitted more assignments than their change point: how
   * many each submitted after it, how many were stopped, and how many were stopped within
   * `CARELESS_WITHIN` assignments of the change (the target is every one of them: a
   * worker who turned careless on their last HIT and was never stopped submitted only one
   * assignment after the change, and is no success).
   */
  readonly careless: { readonly afterChange: readonly number[]; readonly stopped: number; readonly stoppedWithin: number };
}

export function robustnessFigures(forecast: Pick<Forecast, 'workers'>): RobustnessFigures {
  const honest = forecast.workers.filter(
    (w) =>
      w.kind === 'honest' &&
      w.assignments > 0 &&
      w.trueAccuracy !== null &&
      Math.min(w.trueAccuracy.relevant, w.trueAccuracy.notRelevant) >= HONEST_FLOOR,
  );
  const assignments = honest.reduce((n, w) => n + w.assignments, 0);
  const lost = honest.reduce((n, w) => n + w.discardedAssignments + w.rejectedAssignments, 0);
  const changed = forecast.workers.filter((w) => w.kind === 'careless' && w.changeAfter !== undefined && w.assignments > w.changeAfter);
  return {
    honest: {
      workers: honest.length,
      assignments,
      lost,
      share: assignments === 0 ? null : lost / assignments,
      stopped: honest.filter((w) => w.blocked).length,
    },
    careless: {
      afterChange: changed.map((w) => w.assignments - (w.changeAfter ?? 0)),
      stopped: changed.filter((w) => w.blocked).length,
      stoppedWithin: changed.filter((w) => w.blocked && w.assignments - (w.changeAfter ?? 0) <= CARELESS_WITHIN).length,
    },
  };
}
