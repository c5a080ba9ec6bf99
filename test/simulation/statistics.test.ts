import { describe, expect, it } from 'vitest';
import type { SimulationProgress, WorkerKind } from '../../src/simulation/index.js';
import { itemKeys } from '../marketplace/hit-pages.js';
import { hitParams, useMarketplace } from '../marketplace/support.js';
import { admin, basePopulation, createHits, runUntil, submittedAnswers } from './support.js';

/**
 * The simulated population answers as its profile says. 60 HITs x 3 assignments x 10
 * items (1,800 answers, as on DREAM-sized HIT pages), a seeded population of 40 workers of every kind, time sped up.
 * Observed accuracy per kind is compared with what the drawn workers' parameters predict
 * for the items they actually answered: the sum over answers of P(right), with a
 * tolerance of 4 binomial standard deviations (sqrt of the sum of p(1-p)); a false alarm
 * has odds of about 1 in 16,000 per check, and the seed makes the run repeatable anyway.
 * Always-yes/no and LLM-like workers (agreement 1) are deterministic and checked exactly.
 */

const h = useMarketplace();
const HITS = 60;
const PER_HIT = 10;

interface DrawnWorker {
  workerId: string;
  kind: WorkerKind;
  accuracy: { relevant: number; notRelevant: number };
}

describe('the simulated population', () => {
  it('answers with the accuracy of each worker kind, within statistical tolerance', async () => {
    const keys = itemKeys('stats', HITS * PER_HIT);
    // 40% relevant; the model label is wrong on every 5th item
    const truth = new Map(keys.map((k, i) => [k, (i % 5 < 2 ? 'yes' : 'no') as 'yes' | 'no']));
    const model = new Map(keys.map((k, i) => [k, i % 5 === 4 ? (truth.get(k) === 'yes' ? 'no' : 'yes') : truth.get(k)!]));
    const client = h.client();
    const hits = await createHits(client, keys, PER_HIT, hitParams({ MaxAssignments: 3, AssignmentDurationInSeconds: 1800 }));

    const population = await admin<{ workers: DrawnWorker[] }>(
      h,
      'PUT',
      '/population',
      basePopulation({
        seed: 'statistics',
        size: 40,
        shares: { spammer: 0.2, alwaysYes: 0.1, alwaysNo: 0.1, llm: 0.1 },
        abandonRate: 0.03,
        returnRate: 0.03,
        // no hard items, and an LLM that always sides with the model label: each kind's accuracy is then its parameters'
        items: { hardShare: 0 },
        llm: { agentAgreement: 1 },
      }),
    );
    expect(population.workers.map((w) => w.kind).sort()).toEqual([
      ...Array(4).fill('alwaysNo'),
      ...Array(4).fill('alwaysYes'),
      ...Array(20).fill('diligent'),
      ...Array(4).fill('llm'),
      ...Array(8).fill('spammer'),
    ]);
    const oracle = Object.fromEntries(keys.map((k) => [k, { truth: truth.get(k)!, model: model.get(k)! }]));
    expect(await admin(h, 'PUT', '/oracle', oracle)).toEqual({ size: keys.length });
    // from here on a simulated day passes in half a second (the simulation slows time down when it has to)
    h.running.marketplace.clock.setSpeed(200_000);
    await admin(h, 'POST', '/start');
    const progress = await runUntil(h, (p) => p.assignments.submitted >= HITS * 3);
    const stopped = await admin<SimulationProgress>(h, 'POST', '/stop');
    expect(stopped.state).toBe('stopped');
    expect(stopped.clock.held).toBe(false);
    expect(progress.errors).toEqual({ count: 0 });

    const answers = await submittedAnswers(client, hits);
    expect(answers).toHaveLength(HITS * 3 * PER_HIT);
    const byWorker = new Map(population.workers.map((w) => [w.workerId, w]));
    for (const hit of hits) expect(new Set(answers.filter((a) => a.hitId === hit.hitId).map((a) => a.workerId)).size).toBe(3);

    const tally = new Map<WorkerKind, { n: number; correct: number; expected: number; variance: number }>();
    for (const a of answers) {
      const w = byWorker.get(a.workerId)!;
      const t = truth.get(a.key)!;
      expect(a.answer === 'yes' || a.answer === 'no').toBe(true);
      expect(a.ms).toBeGreaterThan(0);
      let p: number;
      if (w.kind === 'diligent') p = t === 'yes' ? w.accuracy.relevant : w.accuracy.notRelevant;
      else if (w.kind === 'spammer') p = 0.5;
      else if (w.kind === 'alwaysYes') {
        expect(a.answer).toBe('yes');
        p = t === 'yes' ? 1 : 0;
      } else if (w.kind === 'alwaysNo') {
        expect(a.answer).toBe('no');
        p = t === 'no' ? 1 : 0;
      } else {
        expect(a.answer).toBe(model.get(a.key));
        p = model.get(a.key) === t ? 1 : 0;
      }
      const s = tally.get(w.kind) ?? { n: 0, correct: 0, expected: 0, variance: 0 };
      s.n++;
      if (a.answer === t) s.correct++;
      s.expected += p;
      s.variance += p * (1 - p);
      tally.set(w.kind, s);
    }
    for (const [kind, s] of tally) {
      expect(s.n, kind).toBeGreaterThan(50);
      expect(
        Math.abs(s.correct - s.expected),
        `${kind}: ${s.correct} right of ${s.n}, expected ${s.expected.toFixed(1)}`,
      ).toBeLessThanOrEqual(4 * Math.sqrt(s.variance) + 1e-9);
      // the simulation's own tally agrees with what the Requester API returned
      expect(stopped.byKind[kind]).toMatchObject({ judged: s.n, correct: s.correct });
    }
    const spam = tally.get('spammer')!;
    expect(spam.correct / spam.n).toBeGreaterThan(0.5 - 4 * Math.sqrt(0.25 / spam.n));
    expect(spam.correct / spam.n).toBeLessThan(0.5 + 4 * Math.sqrt(0.25 / spam.n));
  });
});
