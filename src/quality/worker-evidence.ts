import type { Judgment } from '../domain/cases.js';
import type { ScoredAssignment } from './counted-votes.js';
import { median } from './worker-stats.js';
import type { WorkerEvidence } from './worker-verdict.js';
import { expectedAnswersOf, realItemsOf } from './hit-views.js';
import { itemAnswers, weightedReferences } from './worker-model.js';

/**
 * Each worker's evidence across a batch, for `workerVerdict` (pure): every attention check
 * they answered (both polarities, with its known answer), every real item they answered
 * where the other workers' answers have a majority (ties and items nobody else answered left
 * out), and their median time per item against the batch's typical one.
 *
 * Every submitted assignment is evidence, reviewed or not, counted or not: a worker's
 * behaviour does not change with our decision about it. The references are the other
 * workers' answers (one per worker and item, the first), except those of workers already
 * stopped (`excluded`) and of assignments a person excluded by hand: a stopped worker's
 * answers carry no information about the items and would only blur the majority.
 * `compares`: the workers whose answers on real items are compared with the references (all
 * by default); the others' evidence holds their checks and times but no comparison (a round
 * that re-judges some workers under a kept fit needs the others' times alone: batch-verdicts.ts).
 * `outcomes`, when given, gets each compared worker's assignments' answers as right or wrong,
 * what `answerOutcomes` gives on the same references, from the same look-ups.
 */
export function workerEvidence(
  scored: readonly ScoredAssignment[],
  excluded: ReadonlySet<string> = new Set(),
  references: Reference = referenceAnswers(scored, excluded),
  { compares = () => true, outcomes }: EvidenceOptions = {},
): Map<string, WorkerEvidence> {
  const othersMajority = references;

  const evidence = new Map<
    string,
    {
      checks: WorkerEvidence['checks'][number][];
      compared: WorkerEvidence['compared'][number][];
      ms: number[];
      seen: Set<string>;
      assignments: number;
    }
  >();
  for (const { assignment, hit } of scored) {
    let e = evidence.get(assignment.worker);
    if (!e) evidence.set(assignment.worker, (e = { checks: [], compared: [], ms: [], seen: new Set(), assignments: 0 }));
    e.assignments++;
    const compared = compares(assignment.worker);
    const expected = expectedAnswersOf(hit);
    const real = realItemsOf(hit);
    // answerOutcomes's, on the same references: every check answered, every real item with a reference
    const right: boolean[] | undefined = outcomes && compared ? [] : undefined;
    for (const a of assignment.answers) {
      if (a.timeMs !== undefined) e.ms.push(a.timeMs);
      const known = expected.get(a.item);
      if (known) {
        // a check met again (a gold pool too small for the batch) is one piece of evidence, not two: the first answer counts
        if (!e.seen.has(a.item)) e.checks.push({ expected: known, answer: a.label });
        e.seen.add(a.item);
        right?.push(a.label === known);
      } else if (compared && real.has(a.item)) {
        const reference = othersMajority(a.item, assignment.worker);
        if (reference) {
          e.compared.push({ reference, answer: a.label });
          right?.push(a.label === reference);
        }
      }
    }
    if (right) outcomes!.set(assignment.assignmentId, right);
  }

  const medians = new Map([...evidence].flatMap(([w, e]) => (e.ms.length > 0 ? [[w, median(e.ms) as number] as const] : [])));
  // The typical time is a reader's: the workers left out of the references (stopped, or taken
  // as not doing the task) click fast, and where they are many they would pull it down, so
  // that a fast clicker looked nearer the typical time. It needs a few workers to mean anything.
  const readers = [...medians].filter(([w]) => !excluded.has(w)).map(([, m]) => m);
  const typical = readers.length >= 3 ? median(readers) : medians.size >= 3 ? median([...medians.values()]) : null;
  const out = new Map<string, WorkerEvidence>();
  for (const [worker, e] of evidence) {
    const own = medians.get(worker);
    out.set(worker, {
      checks: e.checks,
      compared: e.compared,
      assignments: e.assignments,
      ...(typical && own !== undefined && { speed: own / typical }),
    });
  }
  return out;
}

export interface EvidenceOptions {
  compares?: (worker: string) => boolean;
  outcomes?: Map<string, boolean[]>;
}

/** The reference answer on a real item for a worker (quality/worker-model.ts's weighted one, or the others' majority); null: none. */
export type Reference = (item: string, worker: string) => Judgment | null;

/**
 * The other workers' majority on a real item, as `workerEvidence` compares with by default (one answer per
 * worker and item, the first; stopped workers and excluded assignments left out); null on a tie
 * or when nobody else answered.
 */
function referenceAnswers(scored: readonly ScoredAssignment[], excluded: ReadonlySet<string>): Reference {
  return weightedReferences(itemAnswers(scored, excluded));
}

/**
 * Each assignment's answers as right or wrong, in the order of the answers, for the drift test
 * (quality/drift.ts): a check against its known answer, a real item against the other workers'
 * majority (items without one left out), the same evidence `workerEvidence` pools.
 */
export function answerOutcomes(
  scored: readonly ScoredAssignment[],
  excluded: ReadonlySet<string> = new Set(),
  references: Reference = referenceAnswers(scored, excluded),
): Map<string, boolean[]> {
  const othersMajority = references;
  const out = new Map<string, boolean[]>();
  for (const { assignment, hit } of scored) {
    const expected = expectedAnswersOf(hit);
    const real = realItemsOf(hit);
    const outcomes: boolean[] = [];
    for (const a of assignment.answers) {
      const reference = expected.get(a.item) ?? (real.has(a.item) ? othersMajority(a.item, assignment.worker) : null);
      if (reference) outcomes.push(a.label === reference);
    }
    out.set(assignment.assignmentId, outcomes);
  }
  return out;
}
