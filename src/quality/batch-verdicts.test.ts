import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { seededRng } from '../hits/random.js';
import { batchVerdicts, rejudgedVerdicts } from './batch-verdicts.js';
import { scoreAssignments } from './counted-votes.js';
import type { AssignmentRecord, HitRecord } from './types.js';
import { answerOutcomes, workerEvidence } from './worker-evidence.js';
import { workerVerdict } from './worker-verdict.js';

type Kind = 'careful' | 'clicker' | 'always-yes' | 'always-no';

/**
 * A hostile batch, drawn with a fixed seed: `hits` HITs of 9 real items (40% relevant) and
 * one check (polarities alternating), each done by 3 workers drawn at random from a pool of
 * 24 careful workers (right 95% of the time), 8 random clickers, 6 always-yes and 6 always-no.
 */
function hostileBatch(seed: string, hits = 120): { scored: ReturnType<typeof scoreAssignments>; kinds: Map<string, Kind> } {
  const rng = seededRng(seed);
  const kinds = new Map<string, Kind>();
  const pool: [Kind, number][] = [
    ['careful', 24],
    ['clicker', 8],
    ['always-yes', 6],
    ['always-no', 6],
  ];
  for (const [kind, n] of pool) for (let i = 0; i < n; i++) kinds.set(`${kind}-${i}`, kind);
  const workers = [...kinds.keys()];
  const answer = (kind: Kind, truth: Judgment): Judgment => {
    if (kind === 'always-yes') return 'yes';
    if (kind === 'always-no') return 'no';
    if (kind === 'clicker') return rng.next() < 0.5 ? 'yes' : 'no';
    return rng.next() < 0.95 ? truth : truth === 'yes' ? 'no' : 'yes';
  };
  const hitRecords: HitRecord[] = [];
  const assignments: AssignmentRecord[] = [];
  for (let h = 0; h < hits; h++) {
    const items = Array.from({ length: 9 }, (_, i) => `h${h}-r${i}`);
    const truth = new Map(items.map((item) => [item, (rng.next() < 0.4 ? 'yes' : 'no') as Judgment]));
    const check = { item: `h${h}-g`, expected: (h % 2 === 0 ? 'yes' : 'no') as Judgment };
    hitRecords.push({ hitId: `H${h}`, items, checks: [check] });
    const chosen = new Set<string>();
    while (chosen.size < 3) chosen.add(workers[Math.floor(rng.next() * workers.length)]!);
    for (const worker of chosen) {
      const kind = kinds.get(worker)!;
      assignments.push({
        assignmentId: `A${h}-${worker}`,
        hitId: `H${h}`,
        worker,
        status: 'submitted',
        answers: [
          ...items.map((item) => ({ item, label: answer(kind, truth.get(item)!) })),
          { item: check.item, label: answer(kind, check.expected) },
        ],
      });
    }
  }
  return { scored: scoreAssignments(assignments, hitRecords), kinds };
}

describe('batchVerdicts', () => {
  const seeds = ['b1', 'b2', 'b3'];

  it('stops every non-working worker of a hostile batch (45% of the pool) and no careful one', () => {
    for (const seed of seeds) {
      const { scored, kinds } = hostileBatch(seed);
      const { verdicts, fit } = batchVerdicts(scored);
      expect(fit.fitted).toBe(true);
      for (const [worker, verdict] of verdicts) expect(verdict.stop, `${seed} ${worker}`).toBe(kinds.get(worker) !== 'careful');
    }
  });

  it("compares with the working workers' answers: the careful workers' agreement is near their accuracy, not blurred by the clickers", () => {
    const { scored, kinds } = hostileBatch('b1');
    const { evidence, leftOut } = batchVerdicts(scored);
    const rate = (e: Map<string, { compared: readonly { reference: Judgment; answer: Judgment }[] }>) => {
      let agreed = 0;
      let n = 0;
      for (const [w, x] of e)
        if (kinds.get(w) === 'careful') {
          n += x.compared.length;
          agreed += x.compared.filter((c) => c.answer === c.reference).length;
        }
      return agreed / n;
    };
    const everyone = workerEvidence(scored);
    expect(rate(evidence)).toBeGreaterThan(0.9);
    expect(rate(everyone)).toBeLessThan(rate(evidence) - 0.03);
    expect([...leftOut].every((w) => kinds.get(w) !== 'careful')).toBe(true);
    expect(leftOut.size).toBe(20);
  });

  it('catches more than the fixed prior on all answers does', () => {
    let fixed = 0;
    let fitted = 0;
    for (const seed of seeds) {
      const { scored, kinds } = hostileBatch(seed, 40);
      const bad = [...kinds].filter(([, k]) => k !== 'careful').map(([w]) => w);
      const plain = workerEvidence(scored);
      const { verdicts } = batchVerdicts(scored);
      fixed += bad.filter((w) => plain.has(w) && workerVerdict(plain.get(w)!).stop).length;
      fitted += bad.filter((w) => verdicts.get(w)?.stop).length;
    }
    expect(fitted).toBeGreaterThan(fixed);
  });

  it('leaves the stopped workers out of the references and keeps their own evidence whole', () => {
    const { scored } = hostileBatch('b2', 40);
    const stopped = new Set(['careful-0']);
    const { evidence, leftOut } = batchVerdicts(scored, stopped);
    expect(leftOut.has('careful-0')).toBe(true);
    const own = scored.filter((s) => s.assignment.worker === 'careful-0').length;
    expect(evidence.get('careful-0')?.checks.length ?? 0).toBe(own);
  });

  it('names a copying pair and compares each copier without the other: their agreement is their accuracy, not 100%', () => {
    // 60 HITs of 9 items and a check, each done by the pair (one answer for both, right 70% of
    // the time) and one of 10 careful workers (right 95% of the time)
    const rng = seededRng('copiers');
    const hits: HitRecord[] = [];
    const assignments: AssignmentRecord[] = [];
    const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');
    for (let h = 0; h < 60; h++) {
      const items = Array.from({ length: 9 }, (_, i) => `h${h}-r${i}`);
      const check = { item: `h${h}-g`, expected: (h % 2 === 0 ? 'yes' : 'no') as Judgment };
      hits.push({ hitId: `H${h}`, items, checks: [check] });
      const truths = [...items.map(() => (rng.next() < 0.4 ? 'yes' : 'no') as Judgment), check.expected];
      const pair = truths.map((t) => (rng.next() < 0.7 ? t : flip(t)));
      const careful = truths.map((t) => (rng.next() < 0.95 ? t : flip(t)));
      const keys = [...items, check.item];
      const answers = (labels: Judgment[]) => keys.map((item, i) => ({ item, label: labels[i]! }));
      for (const [worker, labels] of [
        ['p1', pair],
        ['p2', pair],
        [`careful-${h % 10}`, careful],
      ] as const)
        assignments.push({ assignmentId: `A${h}-${worker}`, hitId: `H${h}`, worker, status: 'submitted', answers: answers(labels) });
    }
    const scored = scoreAssignments(assignments, hits);
    const { copying, evidence, verdicts } = batchVerdicts(scored);
    expect(copying.map((c) => c.workers)).toEqual([['p1', 'p2']]);
    const rate = (e: { compared: readonly { reference: Judgment; answer: Judgment }[] } | undefined) =>
      e ? e.compared.filter((c) => c.answer === c.reference).length / e.compared.length : NaN;
    // against the raw majority each copier agrees wherever the other two do not tie: always
    expect(rate(workerEvidence(scored).get('p1'))).toBe(1);
    expect(rate(evidence.get('p1'))).toBeGreaterThan(0.6);
    expect(rate(evidence.get('p1'))).toBeLessThan(0.85);
    // and the careful workers are compared with the pair as one source
    for (let c = 0; c < 10; c++) expect(verdicts.get(`careful-${c}`)?.stop).toBe(false);
  });
});

describe('rejudgedVerdicts', () => {
  const { scored } = hostileBatch('b1', 120);
  // the batch as fitted (its first 100 HITs' assignments), and grown by a fifth
  const earlier = scored.slice(0, 300);
  const kept = batchVerdicts(earlier);
  const workersOf = (s: typeof scored) => new Set(s.map((x) => x.assignment.worker));

  it("on the batch it was fitted on, re-judging everyone gives the fit's own verdicts", () => {
    const again = rejudgedVerdicts(earlier, kept, workersOf(earlier));
    expect(again.verdicts).toEqual(kept.verdicts);
    expect(again.evidence).toEqual(kept.evidence);
    expect(again.fit).toBe(kept.fit);
    expect(again.leftOut).toBe(kept.leftOut);
  });

  it('keeps the verdict of a worker without new work and re-judges those given', () => {
    const grown = rejudgedVerdicts(scored, kept, new Set(['careful-0', 'clicker-0']));
    for (const [worker, verdict] of kept.verdicts)
      if (worker !== 'careful-0' && worker !== 'clicker-0') expect(grown.verdicts.get(worker), worker).toBe(verdict);
    const judged = workerVerdict(grown.evidence.get('careful-0')!, kept.fit.policy);
    expect(grown.verdicts.get('careful-0')).toEqual(judged);
    expect(grown.verdicts.get('careful-0')?.evidence).not.toEqual(kept.verdicts.get('careful-0')?.evidence);
    expect(grown.verdicts.get('clicker-0')?.stop).toBe(true);
  });

  it('compares the new items with references from the kept weights, and judges a worker new since the fit', () => {
    const newcomer = scored
      .filter((s) => s.assignment.hitId === 'H110')
      .map((s) => ({ ...s, assignment: { ...s.assignment, worker: 'new-0' } }));
    const grown = rejudgedVerdicts([...scored, ...newcomer.slice(0, 1)], kept, new Set(['careful-1']));
    const before = kept.evidence.get('careful-1')!.compared.length;
    expect(grown.evidence.get('careful-1')!.compared.length).toBeGreaterThan(before);
    expect(grown.verdicts.get('careful-1')).toEqual(workerVerdict(grown.evidence.get('careful-1')!, kept.fit.policy));
    expect(grown.verdicts.get('new-0')).toEqual(workerVerdict(grown.evidence.get('new-0')!, kept.fit.policy));
  });

  it("gives the judged workers' outcomes against its references, as answerOutcomes does", () => {
    const grown = rejudgedVerdicts(scored, kept, new Set(['careful-0', 'clicker-0']));
    const judged = scored.filter((s) => ['careful-0', 'clicker-0'].includes(s.assignment.worker));
    expect(new Map(grown.outcomes)).toEqual(answerOutcomes(judged, new Set(), grown.references));
    expect(batchVerdicts(earlier).outcomes).toBeUndefined();
  });

  it('keeps the evidence of a worker not judged again, whose answers it does not compare again', () => {
    const grown = rejudgedVerdicts(scored, kept, new Set(['careful-0']));
    expect(grown.evidence.get('careful-2')).toBe(kept.evidence.get('careful-2'));
    expect(grown.verdicts.get('careful-2')).toBe(kept.verdicts.get('careful-2'));
    // the judged worker's verdict is the same as with everyone's answers compared again
    const everyone = rejudgedVerdicts(scored, kept, workersOf(scored));
    expect(grown.verdicts.get('careful-0')).toEqual(everyone.verdicts.get('careful-0'));
    expect(grown.evidence.get('careful-0')).toEqual(everyone.evidence.get('careful-0'));
  });
});
