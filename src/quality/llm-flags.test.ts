import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { seededRng } from '../hits/random.js';
import { scoreAssignments } from './counted-votes.js';
import type { LlmAssistedVerdict } from './llm-assisted.js';
import { flagStopsTheWorker, llmAssistedVerdicts, type LlmItemInfo } from './llm-flags.js';
import type { Answer, AssignmentRecord, HitRecord } from './types.js';
import { workerStatistics } from './worker-stats.js';

/**
 * A batch of 60 contested items in 6 HITs of 10; the agents' final labels disagree on every
 * item and the truth sides with agent A on half of them. 12 careful workers (90% right,
 * ~45 s an item, a rare focus loss) and 3 LLM-assisted ones (follow agent B 85% of the time,
 * ~12 s an item, copy and leave the page on every item), each doing every HIT.
 */
const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');
const rng = seededRng('llm-flags');
const items = Array.from({ length: 60 }, (_, i) => {
  const A: Judgment = rng.next() < 0.5 ? 'yes' : 'no';
  return { id: `b|i${i}`, agents: { A, B: flip(A) }, truth: i % 2 === 0 ? A : flip(A) };
});
const info = new Map<string, LlmItemInfo>(
  items.map((it) => [it.id, { agentLabels: { A: it.agents.A, B: it.agents.B }, textLength: 2500 }]),
);
const hits: HitRecord[] = Array.from({ length: 6 }, (_, h) => ({
  hitId: `H${h}`,
  items: items.slice(h * 10, h * 10 + 10).map((it) => it.id),
  checks: [],
}));

function answers(kind: 'careful' | 'llm', worker: string, hit: number, extra: (i: number) => Partial<Answer> = () => ({})): Answer[] {
  const r = seededRng(`${worker}|${hit}`);
  return items.slice(hit * 10, hit * 10 + 10).map((it, i) =>
    kind === 'careful'
      ? {
          item: it.id,
          label: r.next() < 0.9 ? it.truth : flip(it.truth),
          timeMs: 40_000 + r.next() * 20_000,
          ...(r.next() < 0.03 && { focusLosses: 1 }),
          ...extra(i),
        }
      : {
          item: it.id,
          label: r.next() < 0.85 ? it.agents.B : it.agents.A,
          timeMs: 10_000 + r.next() * 5_000,
          copies: 1,
          focusLosses: 1,
          ...extra(i),
        },
  );
}
const assignment = (worker: string, hit: number, list: Answer[]): AssignmentRecord => ({
  assignmentId: `${worker}-${hit}`,
  hitId: `H${hit}`,
  worker,
  status: 'approved',
  answers: list,
});
const careful = Array.from({ length: 12 }, (_, w) => `C${w}`);
const llm = ['L0', 'L1', 'L2'];
const batch = (llmExtra?: (i: number) => Partial<Answer>) =>
  scoreAssignments(
    [
      ...careful.flatMap((w) => hits.map((_, h) => assignment(w, h, answers('careful', w, h)))),
      ...llm.flatMap((w) => hits.map((_, h) => assignment(w, h, answers('llm', w, h, llmExtra)))),
    ],
    hits,
  );

describe('llmAssistedVerdicts', () => {
  it('flags the LLM-assisted workers and no careful one, with the evidence', () => {
    const verdicts = llmAssistedVerdicts(batch(), info);
    for (const w of llm) {
      const v = verdicts.get(w)!;
      expect(v.flagged).toBe(true);
      expect(v.agentAgreement.agent).toBe('B');
      expect(v.evidence.join(' ')).toMatch(/followed agent B on \d+ of 60 items/);
      expect(v.evidence.join(' ')).toMatch(/copied, pasted or left the page on 60 of 60 items/);
    }
    for (const w of careful) expect(verdicts.get(w)!.flagged).toBe(false);
  });

  it('compares each worker with the careful others: the baseline leaves out the worker and every worker flagged', () => {
    const verdicts = llmAssistedVerdicts(batch(), info);
    // L0's baseline: the careful workers' answers only (the other LLM users are flagged in the first pass)
    const others = batch()
      .filter((s) => careful.includes(s.assignment.worker))
      .flatMap((s) => s.assignment.answers);
    const followedA = others.filter((a) => a.label === items.find((it) => it.id === a.item)!.agents.A).length;
    expect(verdicts.get('L0')!.agentAgreement.baseline).toBeCloseTo(1 - followedA / others.length, 12);
    // a careful worker's baseline leaves out their own answers and the LLM users'
    const c0 = careful[0]!;
    const rest = batch()
      .filter((s) => careful.includes(s.assignment.worker) && s.assignment.worker !== c0)
      .flatMap((s) => s.assignment.answers);
    const restA = rest.filter((a) => a.label === items.find((it) => it.id === a.item)!.agents.A).length;
    const v = verdicts.get(c0)!;
    const expected = v.agentAgreement.agent === 'A' ? restA / rest.length : 1 - restA / rest.length;
    expect(v.agentAgreement.baseline).toBeCloseTo(expected, 12);
  });

  it('takes the careful baseline from the work the review counts: discarded fast work does not speed it up', () => {
    // U reads at 32 s an item and leaves no page trace; as many spammers as careful workers answer at random in ~5 s an item
    const reader = hits.map((_, h) =>
      assignment(
        'U',
        h,
        answers('careful', 'U', h, () => ({ timeMs: 32_000 })),
      ),
    );
    const spam = (discarded: boolean) =>
      Array.from({ length: 12 }, (_, p) => `P${p}`).flatMap((w) =>
        hits.map((_, h) => {
          const r = seededRng(`${w}|${h}`);
          const list = items.slice(h * 10, h * 10 + 10).map((it) => ({
            item: it.id,
            label: (r.next() < 0.5 ? 'yes' : 'no') as Judgment,
            timeMs: 4_000 + r.next() * 2_000,
          }));
          return { ...assignment(w, h, list), ...(discarded && { discarded: true }) };
        }),
      );
    const crowd = careful.flatMap((w) => hits.map((_, h) => assignment(w, h, answers('careful', w, h))));
    const of = (extra: AssignmentRecord[]) => llmAssistedVerdicts(scoreAssignments([...crowd, ...reader, ...extra], hits), info).get('U')!;
    const alone = of([]);
    const discarded = of(spam(true));
    const counted = of(spam(false));
    // the spammers' discarded work is no part of what careful people do: U is compared as without them
    expect(discarded.factors.speed).toBe(alone.factors.speed);
    expect(discarded.agentAgreement.baseline).toBe(alone.agentAgreement.baseline);
    expect(alone.factors.speed).toBeGreaterThan(3);
    // counted, their speed pulls the careful centre and spread towards theirs, and U looks less fast
    expect(counted.factors.speed).toBeLessThan(alone.factors.speed);
  });

  it('does not flag a careful worker who reads fast and goes with agent A, without page events or shared errors', () => {
    // S reads like the LLM users (~12 s an item) and sides with agent A on 85% of the items, never leaving the page
    const skimmer = hits.map((_, h) => {
      const r = seededRng(`S|${h}`);
      return assignment(
        'S',
        h,
        items.slice(h * 10, h * 10 + 10).map((it) => ({
          item: it.id,
          label: r.next() < 0.85 ? it.agents.A : it.agents.B,
          timeMs: 10_000 + r.next() * 5_000,
        })),
      );
    });
    const scored = scoreAssignments(
      [...careful.flatMap((w) => hits.map((_, h) => assignment(w, h, answers('careful', w, h)))), ...skimmer],
      hits,
    );
    const v = llmAssistedVerdicts(scored, info).get('S')!;
    // each signal alone favours LLM use, and their product passes the older rule's 100
    expect(v.factors.speed).toBeGreaterThan(10);
    expect(v.factors.agreement).toBeGreaterThan(10);
    expect(v.factors.combined).toBeGreaterThan(100);
    expect(v.posterior!.events).toBeLessThan(1);
    expect(v.posterior!.probability).toBeLessThan(0.95);
    expect(v.flagged).toBe(false);
    expect(v.evidence).toEqual([]);
  });

  it('reads the canary words the pages carried in the comments', () => {
    const withCanary = batch((i) => ({ canary: `word${i}`, ...(i === 3 && { comment: 'Relevant. (code word: WORD3)' }) }));
    const verdicts = llmAssistedVerdicts(withCanary, info);
    expect(verdicts.get('L0')).toMatchObject({ flagged: true, canary: true });
    const carefulCanary = scoreAssignments(
      hits.map((_, h) =>
        assignment(
          'C0',
          h,
          answers('careful', 'C0', h, (i) => ({ canary: `word${i}`, comment: 'the chunk is clear' })),
        ),
      ),
      hits,
    );
    expect(llmAssistedVerdicts(carefulCanary, info).get('C0')!.canary).toBe(false);
  });

  it('ignores items whose agents agree or that it knows nothing of, and checks', () => {
    const agreeing = new Map([...info].map(([id, x]) => [id, { ...x, agentLabels: { A: 'yes' as Judgment, B: 'yes' as Judgment } }]));
    const v = llmAssistedVerdicts(batch(), agreeing).get('L0')!;
    expect(v.agentAgreement).toMatchObject({ items: 0, agent: null });
    expect(llmAssistedVerdicts(batch(), new Map()).get('L0')!.agentAgreement.items).toBe(0);
  });

  it('puts `llm-assisted` into the worker flags, with the evidence, only when given the items', () => {
    const stats = workerStatistics(batch(), {}, info);
    const l0 = stats.find((s) => s.worker === 'L0')!;
    expect(l0.flags).toContain('llm-assisted');
    expect(l0.llmEvidence?.length).toBeGreaterThanOrEqual(2);
    expect(stats.find((s) => s.worker === 'C0')!.flags).not.toContain('llm-assisted');
    expect(stats.find((s) => s.worker === 'C0')).not.toHaveProperty('llmEvidence');
    expect(workerStatistics(batch()).find((s) => s.worker === 'L0')!.flags).not.toContain('llm-assisted');
  });

  it('flags LLM users of one model without the canary or the agents: events on most items and errors shared with them', () => {
    // the agents agree on every item (no agent signal); the LLM is right on 75% of items, the same verdict for every user
    const agreeing = new Map([...info].map(([id, x]) => [id, { ...x, agentLabels: { A: 'yes' as Judgment, B: 'yes' as Judgment } }]));
    const r = seededRng('one-model');
    const verdict = new Map(items.map((it) => [it.id, r.next() < 0.75 ? it.truth : flip(it.truth)]));
    const llmUsers = ['M0', 'M1', 'M2', 'M3'];
    const scored = scoreAssignments(
      [
        ...careful.flatMap((w) => hits.map((_, h) => assignment(w, h, answers('careful', w, h)))),
        ...llmUsers.flatMap((w, n) =>
          hits.map((_, h) =>
            assignment(
              w,
              h,
              answers('careful', w, h, (i) => ({
                label: verdict.get(items[h * 10 + i]!.id)!,
                // M0 and M1 paste each item into a chat in another tab; M2 and M3 use an extension the page does not see
                ...(n < 2 ? { copies: 1, focusLosses: 1 } : { copies: 0, focusLosses: 0 }),
              })),
            ),
          ),
        ),
      ],
      hits,
    );
    const verdicts = llmAssistedVerdicts(scored, agreeing);
    for (const w of llmUsers) {
      const v = verdicts.get(w)!;
      expect(v.flagged).toBe(true);
      expect(v.canary).toBe(false);
      expect(v.posterior!.probability).toBeGreaterThanOrEqual(0.95);
      expect(v.evidence.join(' ')).toMatch(/P\(LLM-assisted\) \d+\.\d% ≥ 95%/);
    }
    expect(verdicts.get('M0')!.posterior!.events).toBeGreaterThan(100);
    expect(verdicts.get('M2')!.posterior!.shared).toBeGreaterThan(100);
    for (const w of careful) expect(verdicts.get(w)!.flagged).toBe(false);
  });
});

describe('llmAssistedVerdicts with gold checks: users of one model the page does not see, the majority on most items', () => {
  /**
   * 40 HITs of 5 items and one gold check (of 20 gold items), each done by 5 workers: 3 of 5
   * users of one model (M0-M4: its verdict, right on 70% of items and gold items alike; no page
   * event, a careful pace) and 2 of 10 careful workers (90% right, checks too).
   */
  const r = seededRng('one-model-group');
  const groupItems = Array.from({ length: 200 }, (_, i) => {
    const truth: Judgment = r.next() < 0.4 ? 'yes' : 'no';
    return { id: `g|i${i}`, truth, model: r.next() < 0.7 ? truth : flip(truth) };
  });
  const gold = Array.from({ length: 20 }, (_, i) => {
    const truth: Judgment = i % 2 ? 'yes' : 'no';
    return { id: `g|gold${i}`, truth, model: r.next() < 0.7 ? truth : flip(truth) };
  });
  const users = ['M0', 'M1', 'M2', 'M3', 'M4'];
  const people = Array.from({ length: 10 }, (_, w) => `P${w}`);
  const groupHits = (withChecks: boolean): HitRecord[] =>
    Array.from({ length: 40 }, (_, h) => ({
      hitId: `G${h}`,
      items: groupItems.slice(h * 5, h * 5 + 5).map((it) => it.id),
      checks: withChecks ? [{ item: gold[h % 20]!.id, expected: gold[h % 20]!.truth }] : [],
    }));
  const scoredGroup = (withChecks: boolean) =>
    scoreAssignments(
      Array.from({ length: 40 }, (_, h) =>
        [0, 1, 2, 3, 4].map((k) => {
          const worker = k < 3 ? users[(h + k) % 5]! : people[(2 * h + k) % 10]!;
          const a = seededRng(`${worker}|G${h}`);
          const label = (x: { truth: Judgment; model: Judgment }) => (k < 3 ? x.model : a.next() < 0.9 ? x.truth : flip(x.truth));
          const list: Answer[] = groupItems
            .slice(h * 5, h * 5 + 5)
            .map((it) => ({ item: it.id, label: label(it), timeMs: 40_000 + a.next() * 20_000 }));
          if (withChecks) list.push({ item: gold[h % 20]!.id, label: label(gold[h % 20]!) });
          return { assignmentId: `${worker}-G${h}`, hitId: `G${h}`, worker, status: 'approved' as const, answers: list };
        }),
      ).flat(),
      groupHits(withChecks),
    );

  it('flags the group through the checks its members fail together, stops none of them, and flags no careful worker', () => {
    const verdicts = llmAssistedVerdicts(scoredGroup(true), new Map());
    for (const w of users) {
      const v = verdicts.get(w)!;
      expect(v.flagged).toBe(true);
      expect(v.evidence.join(' ')).toMatch(/started with \d+ workers who agree beyond what their gold checks allow/);
      // their flag rests on the errors they share alone: it keeps them out of the references, it does not stop them
      expect(flagStopsTheWorker(v)).toBe(false);
    }
    for (const w of people) expect(verdicts.get(w)!.flagged).toBe(false);
  });

  it('reads the group as the truth without the checks (decision 0014)', () => {
    const verdicts = llmAssistedVerdicts(scoredGroup(false), new Map());
    for (const w of users) expect(verdicts.get(w)!.flagged).toBe(false);
  });
});

describe('flagStopsTheWorker: a stop rests on the worker’s own conduct', () => {
  const verdict = (over: Partial<LlmAssistedVerdict>): LlmAssistedVerdict => ({
    flagged: true,
    evidence: [],
    agentAgreement: { items: 0, agent: null, rate: null, baseline: null, p: null },
    medianMsPer1000Chars: null,
    eventItems: 0,
    canary: false,
    factors: { agreement: 1, speed: 1, events: 1, combined: 1 },
    posterior: { probability: 0.99, events: 1, shared: 1, eventBound: 0.1 },
    ...over,
  });

  it('stops on page events or speed that point to an LLM, the canary, or following the LLM', () => {
    expect(flagStopsTheWorker(verdict({ posterior: { probability: 0.99, events: 1000, shared: 0.5, eventBound: 0.1 } }))).toBe(true);
    // no events (factor ½: most careful people have none) but reading at a tenth of a careful pace
    expect(
      flagStopsTheWorker(
        verdict({
          factors: { agreement: 1, speed: 10, events: 1, combined: 10 },
          posterior: { probability: 0.99, events: 0.5, shared: 40, eventBound: 0.1 },
        }),
      ),
    ).toBe(true);
    expect(flagStopsTheWorker(verdict({ canary: true, posterior: { probability: 0.5, events: 0.5, shared: 1, eventBound: 0.1 } }))).toBe(
      true,
    );
    const { posterior: _unused, ...withoutPosterior } = verdict({});
    expect(flagStopsTheWorker(withoutPosterior)).toBe(true);
  });

  it('does not stop on errors shared with other LLM-like workers alone, nor when not flagged', () => {
    // the seed-1 bot crowd's careful workers: one focus loss in 27 items, a careful pace, shared errors 1e4
    expect(flagStopsTheWorker(verdict({ posterior: { probability: 0.999, events: 0.5, shared: 1e4, eventBound: 0.11 } }))).toBe(false);
    expect(
      flagStopsTheWorker(
        verdict({
          factors: { agreement: 1, speed: 1.5, events: 1, combined: 1.5 },
          posterior: { probability: 0.96, events: 0.5, shared: 300, eventBound: 0.1 },
        }),
      ),
    ).toBe(false);
    expect(flagStopsTheWorker(verdict({ flagged: false, posterior: { probability: 0.2, events: 1000, shared: 1, eventBound: 0.1 } }))).toBe(
      false,
    );
  });
});
