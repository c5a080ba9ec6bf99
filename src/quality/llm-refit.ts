/**
 * When a simulated collection round fits the LLM-assisted evidence of its batch again (pure;
 * docs/decisions/0011, 0013). The shared-error fit (llm-evidence.ts) runs over every vote of the
 * batch, and a simulated batch runs about as many rounds whatever its size (round-schedule.ts
 * in src/simulation), so fitting in every round costs the batch's size times its rounds. A
 * batch of up to EVERY_FIT_UP_TO assignments is fitted in every round, as before; a larger one
 * when its assignments grew by REFIT_GROWTH since the last fit, its rounds in between keeping
 * that fit's verdicts. The fits of a batch then cost a bounded multiple of one fit of the
 * whole batch (a geometric series), and a verdict lags the evidence by at most that share of
 * the batch's assignments.
 */

/**
 * Assignments up to which every round fits anew: the quality matrix's and the sample's batches
 * (some 100 to 300 assignments) always. It was 2,000 (decision 0011), which made the paper's
 * 4,056 cases (about 1,400 assignments) fit in every one of their 68 rounds, a quarter of the
 * rounds' CPU; 500 bounds them too (decision 0013, which also tests drift by the same rule).
 */
export const EVERY_FIT_UP_TO = 500;

/** Growth of the batch's assignments, as a share of those at the last fit, for the next fit. */
export const REFIT_GROWTH = 0.1;

/** Whether a round with `assignments` fits again, the last fit having seen `lastFit` (undefined: none yet). */
export function llmRefitDue(assignments: number, lastFit: number | undefined): boolean {
  if (lastFit === undefined || assignments <= EVERY_FIT_UP_TO || assignments < lastFit) return true;
  return assignments >= lastFit * (1 + REFIT_GROWTH);
}
