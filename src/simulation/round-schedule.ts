/**
 * When `qrelay simulate` runs a collection round (pure). Every round reads the whole batch
 * so far: its worker-level decisions, its aggregation and labels, its reputation records,
 * and every 10th round a poll of every collecting HIT (src/pipeline/round-poll.ts). The
 * simulated crowd brings about the same number of assignments per simulated minute
 * whatever the batch's size, so a batch ten times larger runs ten times as many rounds,
 * each over ten times as much: a cost growing with the batch squared (issue 38, item 13:
 * 40,560 cases took 35 times the time of 4,056).
 *
 * So the rounds of a large batch are as many as those of a small one: a round that falls
 * due (ROUND_SECONDS of simulated time, run.ts) runs when the assignments submitted since
 * the last round reach ROUND_EVIDENCE_FRACTION of the batch's planned assignments beyond
 * the first EVERY_ROUND_UP_TO (its HITs times its vote target); otherwise the crowd works on
 * to the next due time. The whole-batch work of all rounds together then grows with the
 * batch, not with its square. A round still runs
 * - whenever the crowd is quiet (no open work left: the round's follow-up must ask for more,
 *   or declare the batch complete), and
 * - at least every MAX_ROUND_GAP_MS of simulated time (assignments returned or abandoned,
 *   HITs expiring: what a round must see even when little was submitted).
 * A batch of up to EVERY_ROUND_UP_TO planned assignments (the paper's 4,056 cases plan about
 * 1,400) has a threshold of nought: every due round runs, as before. The rules the rounds
 * apply (review, worker decisions, aggregation) are untouched; what changes for a large
 * batch is how often they are applied, and so how much a worker who is to be stopped can
 * submit before the next round stops them: at most the fraction of the batch, shared by
 * the whole crowd (a 40,560-case batch: some 230 assignments of 13,600, about two
 * simulated hours of the default population's work).
 */

/** Planned assignments up to which every due round runs. */
export const EVERY_ROUND_UP_TO = 2_000;

/**
 * Planned assignments up to which a batch with worker-level decisions runs a round after each
 * submission, as the notified service does (run.ts, decision 0010); larger batches run their
 * due rounds. A round per submission costs about a round per assignment: at the paper's 4,056
 * cases (1,360 planned) that was 1,144 rounds and 301 s against 50 s with due rounds, over the
 * `bars/scale` bar of 90 s (decision 0012). Up to 600 (some 1,800 cases) the forecast of a batch the size of the
 * quality matrix's or the sample's follows the service's cadence.
 */
export const NOTIFIED_ROUNDS_UP_TO = 600;

/** New submissions, as a share of the planned assignments beyond EVERY_ROUND_UP_TO, for a due round to run. */
export const ROUND_EVIDENCE_FRACTION = 0.02;

/** Simulated time after which a due round runs whatever was submitted: four hours. */
export const MAX_ROUND_GAP_MS = 4 * 3600_000;

export interface RoundDue {
  /** The crowd stopped early: no HIT has work left to take or in progress. */
  quiet: boolean;
  /** The batch's planned assignments: its HITs times its vote target. */
  planned: number;
  /** Assignments submitted since the last round ran. */
  sinceLastRound: number;
  /** Simulated milliseconds since the last round ran (since the start before the first). */
  msSinceLastRound: number;
}

/** The submissions since the last round that make a due round run (pure). */
export function evidenceThreshold(planned: number): number {
  return ROUND_EVIDENCE_FRACTION * Math.max(0, planned - EVERY_ROUND_UP_TO);
}

/** Whether the round that falls due now runs (pure). */
export function roundRuns(due: RoundDue): boolean {
  return due.quiet || due.msSinceLastRound >= MAX_ROUND_GAP_MS || due.sinceLastRound >= evidenceThreshold(due.planned);
}
