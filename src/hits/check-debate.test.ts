import { describe, expect, it } from 'vitest';
import { finalLabels, type GoldItem } from '../domain/cases.js';
import { checkDebate, focalSentence, sentencesOf } from './check-debate.js';
import { summariseDebate } from './debate-view.js';
import { findQuoteSpans } from './highlight.js';

const gold = (over: Partial<GoldItem> = {}): GoldItem => ({
  query_id: 'q1',
  query: 'how long is the danube river',
  answers: ['2,850 km'],
  chunk_id: 'c1',
  chunk:
    'Four capitals stand on the Danube. Measured from Donaueschingen, the river covers 2,850 km before its delta. Floods in 2002 caused damage in "Passau".',
  label: 'yes',
  dataset: 'sample',
  ...over,
});

describe('sentencesOf', () => {
  it('splits a chunk into its verbatim sentences', () => {
    expect(sentencesOf('One thing. Two? "Three" said. (Four) ends!')).toEqual(['One thing.', 'Two?', '"Three" said.', '(Four) ends!']);
    expect(sentencesOf('no full stop at all')).toEqual(['no full stop at all']);
    expect(sentencesOf('Version 2.5 is out. Next.')).toEqual(['Version 2.5 is out.', 'Next.']);
  });
});

describe('focalSentence', () => {
  it('prefers a sentence holding an answer, else the one sharing most query words, never by the label', () => {
    expect(focalSentence(gold())).toEqual({
      sentence: 'Measured from Donaueschingen, the river covers 2,850 km before its delta.',
      holdsAnswer: true,
    });
    const noAnswer = gold({ answers: ['1,770 miles'] });
    expect(focalSentence(noAnswer)).toEqual({ sentence: 'Four capitals stand on the Danube.', holdsAnswer: false });
    expect(focalSentence({ ...noAnswer, answers: [] }).holdsAnswer).toBe(false);
  });
});

describe('checkDebate', () => {
  it('is the same for the same seed and item, and varies with the seed', () => {
    expect(checkDebate(gold(), 's1')).toEqual(checkDebate(gold(), 's1'));
    const texts = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((s) => JSON.stringify(checkDebate(gold(), s))));
    expect(texts.size).toBeGreaterThan(1);
  });

  it('does not depend on the gold label', () => {
    for (const seed of ['x', 'y', 'z']) expect(checkDebate(gold({ label: 'no' }), seed)).toEqual(checkDebate(gold({ label: 'yes' }), seed));
  });

  it('has the shape of an escalated debate: two rounds, A from relevant, B from irrelevant, final labels that disagree', () => {
    for (let i = 0; i < 200; i++) {
      const debate = checkDebate(gold({ chunk_id: `c${i}` }), `seed-${i}`);
      expect(debate.map((t) => [t.round, t.agent, t.stance])).toEqual([
        [1, 'A', 'relevant'],
        [1, 'B', 'irrelevant'],
        [2, 'A', 'relevant'],
        [2, 'B', 'irrelevant'],
      ]);
      expect(new Set(finalLabels(debate).values())).toEqual(new Set(['yes', 'no']));
    }
  });

  it('both ways round: following agent A is right about half the time, whatever the truth', () => {
    const finals = Array.from({ length: 400 }, (_, i) => finalLabels(checkDebate(gold({ chunk_id: `c${i}` }), 'seed')).get('A'));
    const yes = finals.filter((l) => l === 'yes').length;
    // ~15% of escalations end with both agents switched, as real ones do
    expect(yes / finals.length).toBeGreaterThan(0.75);
    expect(yes / finals.length).toBeLessThan(0.95);
  });

  it('quotes sentences found in the chunk, so the page highlights them', () => {
    for (let i = 0; i < 50; i++) {
      const g = gold({ chunk_id: `c${i}`, answers: i % 2 ? ['nothing here'] : ['2,850 km'] });
      const agents = summariseDebate(checkDebate(g, `s${i}`));
      expect(agents[0]!.references.length).toBe(1);
      for (const a of agents) for (const r of a.references) expect(findQuoteSpans(g.chunk, r).length).toBe(1);
      for (const a of agents) {
        expect(a.reasoning.length).toBeGreaterThan(80);
        expect(a.reasoning.length).toBeLessThan(600);
      }
    }
  });
});
