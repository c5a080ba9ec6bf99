import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { seededRng } from '../hits/random.js';
import { scoreAssignments } from './counted-votes.js';
import { llmAssistedVerdicts, type LlmItemInfo } from './llm-flags.js';
import { betaUpperTail, llmFollowingVerdicts, llmLabelOf, type FollowingAnswer } from './llm-following.js';
import type { Answer, AssignmentRecord, HitRecord } from './types.js';

/**
 * Synthetic evidence: 80 items with a truth; one LLM verdict per item, right on 75% of them
 * (an adjudicator of its own, unrelated to any worker's accuracy); 10 careful workers right on
 * 85–90% of the items, errors independent of the LLM's; then the workers under test.
 */
const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');
const rng = seededRng('llm-following');
const items = Array.from({ length: 80 }, (_, i) => {
  const truth: Judgment = rng.next() < 0.4 ? 'yes' : 'no';
  return { id: `b|i${i}`, truth, llm: rng.next() < 0.75 ? truth : flip(truth) };
});
const llmLabels = new Map(items.map((it) => [it.id, it.llm]));

function worker(name: string, answer: (it: (typeof items)[number], u: number) => Judgment, event = () => false): FollowingAnswer[] {
  const r = seededRng(name);
  return items.map((it) => ({ item: it.id, answer: answer(it, r.next()), event: event() }));
}
const carefulAt = (accuracy: number) => (it: (typeof items)[number], u: number) => (u < accuracy ? it.truth : flip(it.truth));
const careful = new Map(Array.from({ length: 10 }, (_, w) => [`C${w}`, worker(`C${w}`, carefulAt(0.85 + (w % 3) * 0.025))]));

/** A worker's own accuracy against the truth. */
const accuracyOf = (list: readonly FollowingAnswer[]) =>
  list.filter((a) => items.find((it) => it.id === a.item)!.truth === a.answer).length / list.length;

describe('llmFollowingVerdicts', () => {
  it('flags a worker who gives the LLM verdict, and not a careful worker with the same accuracy', () => {
    const follower = worker('F', (it) => it.llm);
    // exactly as accurate as the LLM, but wrong on items drawn at random, whatever the LLM says
    const errors = items.filter((it) => it.llm !== it.truth).length;
    const r = seededRng('W');
    const wrong = new Set(
      items
        .map((it) => ({ id: it.id, key: r.next() }))
        .sort((a, b) => a.key - b.key)
        .slice(0, errors)
        .map((x) => x.id),
    );
    const weak = worker('W', (it) => (wrong.has(it.id) ? flip(it.truth) : it.truth));
    expect(accuracyOf(weak)).toBe(accuracyOf(follower));
    const verdicts = llmFollowingVerdicts(new Map([...careful, ['F', follower], ['W', weak]]), llmLabels);
    const f = verdicts.get('F')!;
    expect(f.flagged).toBe(true);
    expect(f.items).toBeGreaterThanOrEqual(8);
    expect(f.followed).toBe(f.items);
    expect(f.probability).toBeGreaterThanOrEqual(0.99);
    expect(f.evidence).toMatch(/^answered as the LLM did on \d+ of \d+ items where the other workers' majority said otherwise/);
    const w = verdicts.get('W')!;
    expect(w.flagged).toBe(false);
    expect(w.probability).not.toBeNull();
    expect(w.probability!).toBeLessThan(0.5);
    expect(w.evidence).toBeNull();
    for (const c of careful.keys()) expect(verdicts.get(c)!.flagged).toBe(false);
  });

  it('with page events beyond the others, a weaker following suffices; without them it does not', () => {
    // follows the LLM on 60% of the items, else answers as a careful person
    const partial = (it: (typeof items)[number], u: number) => (u < 0.6 ? it.llm : u < 0.95 ? it.truth : flip(it.truth));
    const quiet = worker('P', partial);
    const seen = worker('P', partial, () => true);
    const withQuiet = llmFollowingVerdicts(new Map([...careful, ['P', quiet]]), llmLabels).get('P')!;
    const withSeen = llmFollowingVerdicts(new Map([...careful, ['P', seen]]), llmLabels).get('P')!;
    expect(withQuiet.probability).toBe(withSeen.probability);
    expect(withQuiet.events).toBe(false);
    expect(withSeen.events).toBe(true);
    expect(withSeen.probability!).toBeGreaterThanOrEqual(0.95);
    expect(withQuiet.probability!).toBeLessThan(0.99);
    expect(withQuiet.flagged).toBe(false);
    expect(withSeen.flagged).toBe(true);
    expect(withSeen.evidence).toMatch(/with copies, pastes or focus losses on 80 of 80 items/);
  });

  it('does not flag a careful worker who is right where a noisy crowd is wrong and the LLM right', () => {
    // an LLM nearly always right and a crowd right on 70%: most contradicted items are the crowd's errors
    const good = new Map(items.map((it, i) => [it.id, i % 20 === 0 ? flip(it.truth) : it.truth]));
    const noisy = new Map(Array.from({ length: 10 }, (_, w) => [`N${w}`, worker(`N${w}`, carefulAt(0.7))]));
    const perfect = worker('P', (it) => it.truth);
    const v = llmFollowingVerdicts(new Map([...noisy, ['P', perfect]]), good).get('P')!;
    expect(v.items).toBeGreaterThanOrEqual(8);
    expect(v.followed / v.items).toBeGreaterThan(0.5);
    expect(v.flagged).toBe(false);
  });

  it('does not test a worker with too few items where the crowd contradicts the LLM', () => {
    const few = worker('F', (it) => it.llm).slice(0, 12);
    const v = llmFollowingVerdicts(new Map([...careful, ['F', few]]), llmLabels).get('F')!;
    expect(v.items).toBeLessThan(8);
    expect(v.probability).toBeNull();
    expect(v.flagged).toBe(false);
  });

  it('leaves non-references out of the majority, so that LLM users do not make the crowd', () => {
    // six LLM users and four careful workers: with everyone as references the LLM is the majority
    const crowd = new Map<string, FollowingAnswer[]>([
      ...[...careful].slice(0, 4),
      ...Array.from({ length: 6 }, (_, i) => [`F${i}`, worker(`F${i}`, (it) => it.llm)] as const),
    ]);
    const all = llmFollowingVerdicts(crowd, llmLabels);
    expect(all.get('F0')!.flagged).toBe(false);
    const carefulOnly = llmFollowingVerdicts(crowd, llmLabels, (w) => w.startsWith('C'));
    for (let i = 0; i < 6; i++) expect(carefulOnly.get(`F${i}`)!.flagged).toBe(true);
    for (const c of [...careful.keys()].slice(0, 4)) expect(carefulOnly.get(c)!.flagged).toBe(false);
  });

  it('says nothing without a typical share (fewer than two other workers with enough items)', () => {
    const v = llmFollowingVerdicts(new Map([['F', worker('F', (it) => it.llm)]]), llmLabels).get('F')!;
    expect(v).toMatchObject({ flagged: false, typical: null, probability: null });
  });
});

describe('llmLabelOf', () => {
  it("takes the agents' label where they agree, else the adjudicator's, else none", () => {
    expect(llmLabelOf({ A: 'yes', B: 'yes' }, 'no')).toBe('yes');
    expect(llmLabelOf({ A: 'yes', B: 'no' }, 'no')).toBe('no');
    expect(llmLabelOf({ A: 'yes', B: 'no' }, undefined)).toBeUndefined();
    expect(llmLabelOf(null, 'yes')).toBe('yes');
  });
});

describe('betaUpperTail', () => {
  it('matches closed forms', () => {
    expect(betaUpperTail(1, 1, 0.3)).toBeCloseTo(0.7, 3);
    expect(betaUpperTail(2, 1, 0.5)).toBeCloseTo(0.75, 3);
    expect(betaUpperTail(1, 3, 0.2)).toBeCloseTo(0.8 ** 3, 3);
    expect(betaUpperTail(3, 3, 0)).toBe(1);
    expect(betaUpperTail(3, 3, 1)).toBe(0);
  });
});

describe('llmAssistedVerdicts with adjudicator labels', () => {
  // the agents disagree on every item, so only the adjudicator gives the LLM's verdict
  const info = new Map<string, LlmItemInfo>(items.map((it) => [it.id, { agentLabels: { A: 'yes', B: 'no' } }]));
  const hits: HitRecord[] = Array.from({ length: 8 }, (_, h) => ({
    hitId: `H${h}`,
    items: items.slice(h * 10, h * 10 + 10).map((it) => it.id),
    checks: [],
  }));
  const assignments = (name: string, list: readonly FollowingAnswer[]): AssignmentRecord[] =>
    hits.map((hit, h) => ({
      assignmentId: `${name}-${h}`,
      hitId: hit.hitId,
      worker: name,
      status: 'approved',
      answers: list.filter((a) => hit.items.includes(a.item)).map((a): Answer => ({ item: a.item, label: a.answer })),
    }));
  const scored = scoreAssignments(
    [...careful, ['F', worker('F', (it) => it.llm)] as const].flatMap(([name, list]) => assignments(name, list)),
    hits,
  );

  it('flags the LLM follower only when the adjudicator labels are given, with the evidence', () => {
    expect(llmAssistedVerdicts(scored, info).get('F')!.flagged).toBe(false);
    const verdicts = llmAssistedVerdicts(scored, info, undefined, llmLabels);
    const f = verdicts.get('F')!;
    expect(f.flagged).toBe(true);
    expect(f.following?.flagged).toBe(true);
    expect(f.evidence.join(' ')).toMatch(/answered as the LLM did on/);
    for (const c of careful.keys()) expect(verdicts.get(c)!.flagged).toBe(false);
  });
});
