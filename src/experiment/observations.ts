import type { ScoredAssignment } from '../quality/index.js';
import { ARM_NAMES, type ArmName, type ArmObservations } from './compare.js';

/**
 * What the debate experiment compares, from a batch's scored assignments (pure): per arm,
 * every answer the arm's workers gave, whether or not quality control counted it: every
 * answer to an attention check (balanced accuracy), every answer to a real item (κ: a
 * worker's first answer per item, as a worker's label counts once per item) and each
 * assignment's work time with the number of items on its page (real items and checks: the
 * page shows both alike).
 *
 * Not the counted votes: which answers count is decided from the answers themselves (checks
 * failed, a worker stopped), that is after the arm was assigned and partly by what the arm
 * changed, so comparing the arms on what was kept would compare two differently filtered
 * crowds rather than the debate's effect (a post-treatment selection). The DREAM human
 * study, whose figures the forecast is set against, likewise computed κ over all its
 * annotators' labels. `armOf` names a worker's arm; a worker in no arm is left out. Both
 * arms are always returned, 'debate' first, as compareArms takes them.
 */
export function armObservations(scored: readonly ScoredAssignment[], armOf: (workerId: string) => ArmName | undefined): ArmObservations[] {
  const arms = new Map<ArmName, ArmObservations>(ARM_NAMES.map((arm) => [arm, { arm, checks: [], votes: [], seconds: [] }]));
  // item -> the workers whose answer on it is already taken
  const answered = new Map<string, Set<string>>();
  for (const { assignment, hit } of scored) {
    const arm = armOf(assignment.worker);
    const into = arm === undefined ? undefined : arms.get(arm);
    if (!into) continue;
    const answers = new Map(assignment.answers.map((a) => [a.item, a.label]));
    for (const check of hit.checks) {
      const answer = answers.get(check.item);
      if (answer !== undefined)
        into.checks.push({ workerId: assignment.worker, expected: check.expected === 'yes', answer: answer === 'yes' });
    }
    for (const item of hit.items) {
      const answer = answers.get(item);
      if (answer === undefined) continue;
      let workers = answered.get(item);
      if (!workers) answered.set(item, (workers = new Set()));
      if (workers.has(assignment.worker)) continue;
      workers.add(assignment.worker);
      into.votes.push({ itemId: item, workerId: assignment.worker, answer: answer === 'yes' });
    }
    if (assignment.workTimeMs !== undefined)
      into.seconds.push({
        workerId: assignment.worker,
        items: hit.items.length + hit.checks.length,
        seconds: assignment.workTimeMs / 1000,
      });
  }
  return [...arms.values()];
}
