import type { Vote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';
import type { ScoredAssignment } from '../quality/index.js';
import { ARM_NAMES, type ArmName, type ArmObservations } from './compare.js';

/**
 * What the debate experiment compares, from a batch's scored assignments (pure): per arm,
 * every answer to an attention check (the checks measure the worker whether or not their
 * votes count), the votes that decide labels (`used`: the counted votes, the first
 * `voteTarget` per item, as κ in the report counts them) and each assignment's work time
 * with the number of items on its page (real items and checks: the page shows both alike).
 * `armOf` names a worker's arm; a worker in no arm is left out. Both arms are always
 * returned, 'debate' first, as compareArms takes them.
 */
export function armObservations(
  scored: readonly ScoredAssignment[],
  used: readonly Vote<Judgment>[],
  armOf: (workerId: string) => ArmName | undefined,
): ArmObservations[] {
  const arms = new Map<ArmName, ArmObservations>(ARM_NAMES.map((arm) => [arm, { arm, checks: [], votes: [], seconds: [] }]));
  const of = (workerId: string) => {
    const arm = armOf(workerId);
    return arm === undefined ? undefined : arms.get(arm);
  };
  for (const { assignment, hit } of scored) {
    const into = of(assignment.worker);
    if (!into) continue;
    const answers = new Map(assignment.answers.map((a) => [a.item, a.label]));
    for (const check of hit.checks) {
      const answer = answers.get(check.item);
      if (answer !== undefined)
        into.checks.push({ workerId: assignment.worker, expected: check.expected === 'yes', answer: answer === 'yes' });
    }
    if (assignment.workTimeMs !== undefined)
      into.seconds.push({
        workerId: assignment.worker,
        items: hit.items.length + hit.checks.length,
        seconds: assignment.workTimeMs / 1000,
      });
  }
  for (const v of used) of(v.worker)?.votes.push({ itemId: v.item, workerId: v.worker, answer: v.label === 'yes' });
  return [...arms.values()];
}
