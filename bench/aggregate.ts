/**
 * Aggregation, agreement and quality control at BRIDGE scale: prints figures, asserts nothing.
 *   node --import tsx bench/aggregate.ts [cases=4056] [workers=200]
 * Builds a synthetic batch (HITs of 9 real items and one check of each polarity, 3
 * assignments each, 10% always-yes workers), then times scoring, counting, majority vote,
 * Dawid–Skene, Fleiss' κ, Krippendorff's α, worker statistics and the extra-assignment plan.
 */
import { dawidSkene, fleissKappa, krippendorffAlpha, majorityVote } from '../src/aggregate/index.js';
import type { Judgment } from '../src/domain/cases.js';
import {
  countedVotes,
  planExtraAssignments,
  scoreAssignments,
  validVoteCounts,
  workerStatistics,
  type AssignmentRecord,
  type HitRecord,
} from '../src/quality/index.js';

const [cases = 4056, workerCount = 200] = process.argv.slice(2).map(Number);
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

const truth = new Map<string, Judgment>();
const hits: HitRecord[] = [];
for (let start = 0, h = 0; start < cases; start += 9, h++) {
  const items = Array.from({ length: Math.min(9, cases - start) }, (_, n) => `q${start + n}:d${start + n}`);
  for (const item of items) truth.set(item, random() < 0.4 ? 'yes' : 'no');
  hits.push({
    hitId: `H${h}`,
    items,
    checks: [
      { item: `gold-yes-${h}`, expected: 'yes' },
      { item: `gold-no-${h}`, expected: 'no' },
    ],
  });
}
const workers = Array.from({ length: workerCount }, (_, w) => ({ id: `W${w}`, spam: w % 10 === 0, accuracy: 0.7 + 0.25 * random() }));
const assignments: AssignmentRecord[] = [];
for (const hit of hits) {
  const taken = new Set<number>();
  while (taken.size < 3) taken.add(Math.floor(random() * workerCount));
  for (const w of taken) {
    const worker = workers[w]!;
    const answer = (expected: Judgment): Judgment => (worker.spam ? 'yes' : random() < worker.accuracy ? expected : flip(expected));
    assignments.push({
      assignmentId: `${hit.hitId}-${worker.id}`,
      hitId: hit.hitId,
      worker: worker.id,
      status: 'submitted',
      workTimeMs: 11 * (worker.spam ? 4_000 : 40_000),
      answers: [
        ...hit.items.map((item) => ({ item, label: answer(truth.get(item)!) })),
        ...hit.checks.map((c) => ({ item: c.item, label: answer(c.expected) })),
      ],
    });
  }
}

function time<T>(label: string, f: () => T): T {
  const t = performance.now();
  const result = f();
  console.log(`${label.padEnd(26)} ${(performance.now() - t).toFixed(1).padStart(8)} ms`);
  return result;
}

const yn = ['yes', 'no'] as const;
console.log(`${cases} cases, ${hits.length} HITs, ${assignments.length} assignments, ${workerCount} workers`);
const scored = time('score attention checks', () => scoreAssignments(assignments, hits));
const votes = time('counted votes', () => countedVotes(scored));
const mv = time('majority vote', () => majorityVote<Judgment>().fit(votes, yn));
const ds = time('Dawid–Skene (defaults)', () => dawidSkene<Judgment>().fit(votes, yn));
const kappa = time("Fleiss' κ", () => fleissKappa.compute(votes, yn));
const alpha = time("Krippendorff's α", () => krippendorffAlpha.compute(votes, yn));
const stats = time('worker statistics', () => workerStatistics(scored));
const counts = validVoteCounts(votes);
const plan = time('extra-assignment plan', () =>
  planExtraAssignments({
    hits: hits.map((h) => ({ hitId: h.hitId, items: h.items, maxAssignments: 3, outstanding: 0 })),
    validVotes: counts,
  }),
);
const accuracy = (labels: ReadonlyMap<string, Judgment | null>) =>
  [...truth].filter(([item, t]) => labels.get(item) === t).length / truth.size;
console.log(`\nvotes ${votes.length}; unresolved MV ${mv.unresolved}; DS ${ds.iterations} iterations (converged ${ds.converged})`);
console.log(
  `accuracy MV ${accuracy(new Map(mv.items.map((i) => [i.item, i.label]))).toFixed(3)}, DS ${accuracy(new Map(ds.items.map((i) => [i.item, i.label]))).toFixed(3)}`,
);
console.log(`κ ${kappa.value?.toFixed(3)} over ${kappa.itemsUsed} items; α ${alpha.value?.toFixed(3)}`);
console.log(
  `flagged workers ${stats.filter((s) => s.flags.length > 0).length}; extra requests ${plan.requests.length}, stuck ${plan.stuck.length}`,
);
