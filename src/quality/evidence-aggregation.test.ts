import { describe, expect, it } from 'vitest';
import { labelsByItem, majorityVote, type ConfusionCounts } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import { countedVotes, scoreAssignments } from './counted-votes.js';
import {
  CATEGORIES,
  confusionPriorFromEvidence,
  dawidSkeneWithEvidence,
  evidenceVotes,
  labelDifferences,
  LLM_SOURCE,
  sharedSources,
  votesBySource,
} from './evidence-aggregation.js';
import { workerEvidence } from './worker-evidence.js';
import type { AssignmentRecord, HitRecord } from './types.js';

const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

/**
 * 8 HITs of 6 real items and 2 checks (one per polarity). Every HIT is taken by three
 * careful workers, each wrong on one item of the HIT, and on HITs 0-3 also by an always-yes
 * worker and a second always-yes worker, whose assignments fail the "no" check.
 */
function batch() {
  const truth = new Map<string, Judgment>();
  const hits: HitRecord[] = [];
  const assignments: AssignmentRecord[] = [];
  for (let h = 0; h < 8; h++) {
    const items = Array.from({ length: 6 }, (_, i) => `h${h}i${i}`);
    items.forEach((item, i) => truth.set(item, (h + i) % 3 === 0 ? 'yes' : 'no'));
    const checks = [
      { item: `check-yes-${h % 2}`, expected: 'yes' as const },
      { item: `check-no-${h % 2}`, expected: 'no' as const },
    ];
    hits.push({ hitId: `H${h}`, items, checks });
    const workers = ['careful-a', 'careful-b', 'careful-c', ...(h < 4 ? ['yes-1', 'yes-2'] : [])];
    workers.forEach((worker, w) => {
      const answers = [
        ...items.map((item, i) => {
          const t = truth.get(item)!;
          const label: Judgment = worker.startsWith('yes') ? 'yes' : i === (w + h) % 6 ? flip(t) : t;
          return { item, label };
        }),
        ...checks.map((c) => ({ item: c.item, label: worker.startsWith('yes') ? ('yes' as const) : c.expected })),
      ];
      assignments.push({ assignmentId: `A${h}-${worker}`, hitId: `H${h}`, worker, status: 'approved', answers });
    });
  }
  return { truth, hits, assignments };
}

describe('Dawid–Skene with gold checks and worker priors from the evidence', () => {
  it('collects every answer, the checks as gold, and the real items', () => {
    const { hits, assignments } = batch();
    const e = evidenceVotes(scoreAssignments(assignments, hits));
    // real items: 3 careful workers on 48, 2 always-yes on 24; checks: the 4 check items once per worker who met them
    expect(e.votes).toHaveLength(3 * 48 + 2 * 24 + 3 * 4 + 2 * 4);
    expect(e.gold).toEqual({ 'check-yes-0': 'yes', 'check-no-0': 'no', 'check-yes-1': 'yes', 'check-no-1': 'no' });
    expect(e.realItems.size).toBe(48);
  });

  it('leaves out only what a person excluded, and counts each worker once per item', () => {
    const { hits, assignments } = batch();
    const first = assignments[0]!;
    const changed: AssignmentRecord[] = [
      { ...first, overridden: 'excluded' },
      { ...assignments[1]!, status: 'rejected' },
      ...assignments.slice(2),
      { ...first, assignmentId: 'again', hitId: 'H1' as string, answers: [] },
    ];
    const e = evidenceVotes(scoreAssignments(changed, hits));
    expect(e.votes.filter((v) => v.worker === first.worker && v.item.startsWith('h0'))).toHaveLength(0);
    expect(e.votes.filter((v) => v.worker === assignments[1]!.worker && v.item.startsWith('h0'))).toHaveLength(6);
  });

  it('gives an always-yes worker a prior whose rows are alike, and a careful one a diagonal prior', () => {
    const { hits, assignments } = batch();
    const evidence = workerEvidence(scoreAssignments(assignments, hits));
    const spam = confusionPriorFromEvidence(evidence.get('yes-1')!);
    expect(spam.yes.yes / (spam.yes.yes + spam.yes.no)).toBeCloseTo(spam.no.yes / (spam.no.yes + spam.no.no), 2);
    const careful = confusionPriorFromEvidence(evidence.get('careful-a')!);
    expect(careful.yes.yes).toBeGreaterThan(2.9);
    expect(careful.no.no).toBeGreaterThan(2.9);
    for (const row of [spam.yes, spam.no, careful.yes, careful.no]) expect(row.yes + row.no).toBeCloseTo(4, 9);
  });

  it('recovers the truth where a majority of every answer follows two always-yes workers', () => {
    const { truth, hits, assignments } = batch();
    const scored = scoreAssignments(assignments, hits);
    // the protocol's majority counts only assignments that passed every check: here, the careful ones
    const majority = majorityVote<Judgment>().fit(countedVotes(scored), CATEGORIES);
    const ds = dawidSkeneWithEvidence(scored, { kind: 'unresolved' });
    expect(labelsByItem(ds.result)).toEqual(truth);
    expect(ds.goldItems).toBe(4);
    expect(ds.result.items).toHaveLength(48);
    expect(ds.result.items.every((it) => !it.item.startsWith('check'))).toBe(true);
    // majority over every answer (no checks) is fooled where a careful worker erred beside two always-yes workers
    const naive = majorityVote<Judgment>().fit(evidenceVotes(scored).votes, CATEGORIES);
    const fooled = [...truth].filter(([item, t]) => labelsByItem(naive).get(item) !== t);
    expect(fooled.length).toBeGreaterThan(0);
    expect(labelsByItem(majority)).toEqual(truth);
  });

  it('lists the items on which majority and Dawid–Skene differ', () => {
    const diff = labelDifferences(
      {
        items: [
          { item: 'b', label: 'yes' },
          { item: 'a', label: 'no' },
          { item: 'c', label: null },
        ],
      },
      {
        items: [
          { item: 'a', label: 'no', probabilities: { yes: 0.1, no: 0.9 } },
          { item: 'b', label: 'no', probabilities: { yes: 0.3, no: 0.7 } },
          { item: 'c', label: 'yes', probabilities: { yes: 0.8, no: 0.2 } },
        ],
      },
    );
    expect(diff).toEqual([
      { item: 'b', majority: 'yes', dawidSkene: 'no', probabilityYes: 0.3 },
      { item: 'c', majority: null, dawidSkene: 'yes', probabilityYes: 0.8 },
    ]);
  });
});

describe('Dawid–Skene counts a shared source once', () => {
  const prior = (right: number): ConfusionCounts<Judgment> => ({ yes: { yes: right, no: 1 }, no: { yes: 1, no: right } });

  it("speaks for a source's members with their majority, drops a tie, and passes others through", () => {
    const sources = new Map([
      ['m1', 'model'],
      ['m2', 'model'],
      ['m3', 'model'],
    ]);
    const { votes, priors } = votesBySource(
      [
        { item: 'a', worker: 'c', label: 'no' },
        { item: 'a', worker: 'm1', label: 'yes' },
        { item: 'a', worker: 'm2', label: 'yes' },
        { item: 'a', worker: 'm3', label: 'no' },
        { item: 'b', worker: 'm1', label: 'yes' },
        { item: 'b', worker: 'm2', label: 'no' },
        { item: 'c', worker: 'm3', label: 'no' },
      ],
      { c: prior(3), m1: prior(2), m2: prior(4), m3: prior(6) },
      sources,
    );
    expect(votes).toEqual([
      { item: 'a', worker: 'c', label: 'no' },
      { item: 'a', worker: 'model', label: 'yes' },
      { item: 'c', worker: 'model', label: 'no' },
    ]);
    expect(priors).toEqual({ c: prior(3), model: prior(4) });
  });

  it('leaves votes and priors as they are without sources', () => {
    const votes = [{ item: 'a', worker: 'c', label: 'no' as const }];
    expect(votesBySource(votes, { c: prior(3) }, new Map())).toEqual({ votes, priors: { c: prior(3) } });
  });

  it('lets a careful worker decide where two users of one model agree on its errors', () => {
    const { truth, hits, assignments } = modelPair();
    const scored = scoreAssignments(assignments, hits);
    const wrong = (labels: ReadonlyMap<string, Judgment | null>) => [...truth].filter(([item, t]) => labels.get(item) !== t).length;
    const apart = dawidSkeneWithEvidence(scored, { kind: 'unresolved' }, new Map());
    const once = dawidSkeneWithEvidence(
      scored,
      { kind: 'unresolved' },
      new Map([
        ['m1', LLM_SOURCE],
        ['m2', LLM_SOURCE],
      ]),
    );
    // counted as two people, the pair outvotes the careful worker on the model's errors
    expect(wrong(labelsByItem(apart.result))).toBe(8);
    expect(wrong(labelsByItem(once.result))).toBe(0);
    expect(once.result.workers.map((w) => w.worker)).toEqual(['careful', LLM_SOURCE]);
    expect(once.votesUsed).toBe(apart.votesUsed);
  });

  it('counts the workers whose comments echo the canary as one source by default', () => {
    const { truth, hits, assignments } = modelPair();
    const echoed = assignments.map((a) =>
      a.worker === 'careful'
        ? a
        : {
            ...a,
            answers: a.answers.map((x, n) =>
              n === 0 ? { ...x, canary: 'quokka', comment: 'Relevant: quokka.' } : { ...x, canary: 'quokka' },
            ),
          },
    );
    const scored = scoreAssignments(echoed, hits);
    expect(sharedSources(scored)).toEqual(
      new Map([
        ['m1', LLM_SOURCE],
        ['m2', LLM_SOURCE],
      ]),
    );
    const labels = labelsByItem(dawidSkeneWithEvidence(scored, { kind: 'unresolved' }).result);
    expect([...truth].filter(([item, t]) => labels.get(item) !== t)).toEqual([]);
  });

  it('finds no shared source among careful workers without signs of a model', () => {
    const { hits, assignments } = batch();
    const careful = scoreAssignments(assignments, hits).filter((s) => !s.assignment.worker.startsWith('yes'));
    expect(sharedSources(careful)).toEqual(new Map());
  });
});

/**
 * 8 HITs of 6 real items and 2 checks taken by a careful worker, right everywhere, and two
 * users of one model, who give its verdict: wrong on one item per HIT and on one check in two HITs.
 */
function modelPair() {
  const truth = new Map<string, Judgment>();
  const hits: HitRecord[] = [];
  const assignments: AssignmentRecord[] = [];
  for (let h = 0; h < 8; h++) {
    const items = Array.from({ length: 6 }, (_, i) => `p${h}i${i}`);
    items.forEach((item, i) => truth.set(item, (h + i) % 3 === 0 ? 'yes' : 'no'));
    const checks = [
      { item: `py${h}`, expected: 'yes' as const },
      { item: `pn${h}`, expected: 'no' as const },
    ];
    hits.push({ hitId: `P${h}`, items, checks });
    for (const worker of ['careful', 'm1', 'm2']) {
      const model = worker !== 'careful';
      const answers = [
        ...items.map((item, i) => ({ item, label: model && i === h % 6 ? flip(truth.get(item)!) : truth.get(item)! })),
        ...checks.map((c, k) => ({ item: c.item, label: model && k === 0 && h % 2 === 0 ? flip(c.expected) : c.expected })),
      ];
      assignments.push({ assignmentId: `P${h}-${worker}`, hitId: `P${h}`, worker, status: 'approved', answers });
    }
  }
  return { truth, hits, assignments };
}
