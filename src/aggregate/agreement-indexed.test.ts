import { describe, expect, it } from 'vitest';
import { fleissKappa } from './fleiss-kappa.js';
import { krippendorffAlpha } from './krippendorff-alpha.js';
import { seededRng } from '../hits/random.js';
import { indexVotes, type Vote } from './votes.js';

/** Items with 1 to 5 raters of 12, labels skewed towards the item's own leaning. */
function randomVotes(seed: string, categories: readonly string[]): Vote[] {
  const rng = seededRng(seed);
  const random = () => rng.next();
  const votes: Vote[] = [];
  for (let i = 0; i < 60; i++) {
    const leaning = Math.floor(random() * categories.length);
    const raters = 1 + Math.floor(random() * 5);
    const workers = new Set<number>();
    while (workers.size < raters) workers.add(Math.floor(random() * 12));
    for (const w of workers) {
      const label = random() < 0.7 ? categories[leaning]! : categories[Math.floor(random() * categories.length)]!;
      votes.push({ item: `q${i}`, worker: `w${w}`, label });
    }
  }
  return votes;
}

describe('agreement measures on votes indexed once', () => {
  for (const measure of [fleissKappa, krippendorffAlpha]) {
    it(`${measure.displayName}: computeIndexed(indexVotes(votes)) is compute(votes), to the last bit`, () => {
      for (const [seed, categories] of [
        ['s1', ['yes', 'no']],
        ['s2', ['yes', 'no']],
        ['s3', ['0', '1', '2', '3']],
        ['s4', ['a', 'b', 'c']],
      ] as const) {
        const votes = randomVotes(seed, categories);
        const direct = measure.compute(votes, categories);
        expect(direct.value).not.toBeNull();
        expect(measure.computeIndexed(indexVotes(votes, categories))).toEqual(direct);
      }
      // and where the measure is undefined, the same reason
      const one = [{ item: 'q', worker: 'w', label: 'yes' }];
      expect(measure.computeIndexed(indexVotes(one, ['yes', 'no']))).toEqual(measure.compute(one, ['yes', 'no']));
      expect(measure.computeIndexed(indexVotes([], ['yes', 'no']))).toEqual(measure.compute([], ['yes', 'no']));
    });
  }
});
