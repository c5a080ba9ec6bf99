import { describe, expect, it } from 'vitest';
import type { DebateTurn, GoldItem } from '../domain/cases.js';
import { adaptDebate, checkDebateFor, donorPool, type DebateDonor } from './check-debate-donor.js';
import { findQuoteSpans } from './highlight.js';

const turn = (over: Partial<DebateTurn>): DebateTurn => ({
  round: 1,
  agent: 'A',
  stance: 'relevant',
  label: 'yes',
  reasoning: '',
  references: [],
  ...over,
});

const donor = (over: Partial<DebateDonor> = {}): DebateDonor => ({
  key: 'aaaaaaaaaaaaaaaa',
  query: 'how long is the danube river',
  answers: ['2,850 km', '1,770 miles'],
  chunk: 'Four capitals stand on the Danube. Measured from Donaueschingen, the river covers 2,850 km before its delta.',
  debate: [
    turn({
      reasoning:
        'The query asks "how long is the danube river". The sentence "Measured from Donaueschingen, the river covers 2,850 km before its delta." gives 2,850 km, so it supports "2,850 km" or "1,770 miles".',
      references: ['Measured from Donaueschingen, the river covers 2,850 km before its delta.'],
    }),
    turn({
      agent: 'B',
      stance: 'irrelevant',
      label: 'no',
      reasoning: 'Only the capitals are named. Not relevant.',
      references: ['Four capitals stand on the Danube.'],
    }),
  ],
  ...over,
});

const gold = (over: Partial<GoldItem> = {}): GoldItem => ({
  query_id: 'g1',
  query: 'which sea does the danube flow into',
  answers: ['the Black Sea'],
  chunk_id: 'gc1',
  chunk: 'The Danube ends in a wide delta. After 2,850 km it reaches the Black Sea in Romania and Ukraine.',
  label: 'yes',
  dataset: 'sample',
  ...over,
});

describe('adaptDebate', () => {
  it("keeps the donor's turns and wording, with the check's query, answers and sentences in place of the donor's", () => {
    const adapted = adaptDebate(donor(), gold());
    expect(adapted.map((t) => [t.round, t.agent, t.stance, t.label])).toEqual(
      donor().debate.map((t) => [t.round, t.agent, t.stance, t.label]),
    );
    const [a, b] = adapted;
    expect(a!.reasoning).toContain('The query asks "which sea does the danube flow into"');
    expect(a!.reasoning).toContain('"the Black Sea"');
    expect(a!.reasoning).not.toContain('1,770 miles');
    expect(b!.reasoning).toBe('Only the capitals are named. Not relevant.');
    // every quote is a sentence of the check's chunk, so the page highlights it
    for (const t of adapted) for (const r of t.references) expect(findQuoteSpans(gold().chunk, r).length).toBeGreaterThan(0);
    // the quote inside the reasoning follows its reference
    expect(a!.reasoning).toContain(`"${a!.references[0]}"`);
  });

  it("keeps a quote the check's chunk holds too, and gives distinct quotes distinct sentences when it can", () => {
    const shared = 'Four capitals stand on the Danube.';
    const adapted = adaptDebate(donor(), gold({ chunk: `${shared} It reaches the Black Sea after a long way through many lands.` }));
    expect(adapted[1]!.references).toEqual([shared]);
    expect(adapted[0]!.references).toEqual(['It reaches the Black Sea after a long way through many lands.']);
  });
});

describe('checkDebateFor', () => {
  const pool = donorPool([donor(), donor({ key: 'bbbbbbbbbbbbbbbb', query: 'what is insulin', answers: ['a hormone'] })]);

  it("shows a gold item's own debate as it is", () => {
    const own = [turn({ reasoning: 'mine' })];
    expect(checkDebateFor({ ...gold(), debate: own }, { seed: 's', pool, exclude: new Set() })).toEqual({ debate: own, source: 'gold' });
  });

  it("adapts a batch debate, of the check's query first, never one of the same page", () => {
    const same = checkDebateFor(gold({ query: 'how long is the danube river' }), { seed: 's', pool, exclude: new Set() });
    expect(same.source).toBe('derived');
    expect(same.debate[1]!.reasoning).toBe('Only the capitals are named. Not relevant.');
    const other = checkDebateFor(gold({ query: 'how long is the danube river' }), {
      seed: 's',
      pool,
      exclude: new Set(['aaaaaaaaaaaaaaaa']),
    });
    expect(other.source).toBe('derived');
    expect(other.debate[0]!.reasoning).toContain('how long is the danube river');
  });

  it('falls back to the template when the batch has no debate to adapt, and is deterministic', () => {
    const empty = donorPool([]);
    const first = checkDebateFor(gold(), { seed: 's', pool: empty, exclude: new Set() });
    expect(first.source).toBe('template');
    expect(checkDebateFor(gold(), { seed: 's', pool: empty, exclude: new Set() })).toEqual(first);
    expect(checkDebateFor(gold(), { seed: 's', pool, exclude: new Set() })).toEqual(
      checkDebateFor(gold(), { seed: 's', pool, exclude: new Set() }),
    );
  });
});
