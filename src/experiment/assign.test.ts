import { describe, expect, it } from 'vitest';
import { armOf, assignArms, BLOCK_SIZE, EXPERIMENT_ARMS } from './assign.js';

describe('armOf', () => {
  it('splits every block of two arrivals between the arms', () => {
    for (const seed of ['a', 'b', 'qrelay-default-population']) {
      for (let block = 0; block < 50; block++) {
        const pair = [armOf(seed, block * BLOCK_SIZE), armOf(seed, block * BLOCK_SIZE + 1)];
        expect([...pair].sort()).toEqual([...EXPERIMENT_ARMS].sort());
      }
    }
  });

  it('depends on the seed and the rank alone', () => {
    const ranks = Array.from({ length: 40 }, (_, i) => i);
    expect(ranks.map((r) => armOf('s1', r))).toEqual(ranks.map((r) => armOf('s1', r)));
    expect(ranks.map((r) => armOf('s1', r))).not.toEqual(ranks.map((r) => armOf('s2', r)));
  });

  it('puts the debate first in some blocks and second in others', () => {
    const firsts = Array.from({ length: 100 }, (_, b) => armOf('seed', b * BLOCK_SIZE));
    const debateFirst = firsts.filter((a) => a === 'debate').length;
    expect(debateFirst).toBeGreaterThan(30);
    expect(debateFirst).toBeLessThan(70);
  });

  it('refuses a rank that is not a whole number from 0', () => {
    expect(() => armOf('s', -1)).toThrow(/arrival rank/);
    expect(() => armOf('s', 1.5)).toThrow(/arrival rank/);
  });
});

describe('assignArms', () => {
  it('gives the k-th new worker the arm of rank k, a returning worker their first arm', () => {
    const arms = assignArms('s', ['w1', 'w2', 'w1', 'w3', 'w4', 'w2']);
    expect([...arms.keys()]).toEqual(['w1', 'w2', 'w3', 'w4']);
    expect([...arms.values()]).toEqual([0, 1, 2, 3].map((r) => armOf('s', r)));
  });

  it('balances the arms within one worker over any prefix of arrivals', () => {
    const ids = Array.from({ length: 61 }, (_, i) => `w${i}`);
    const arms = [...assignArms('x', ids).values()];
    for (let n = 1; n <= arms.length; n++) {
      const debate = arms.slice(0, n).filter((a) => a === 'debate').length;
      expect(Math.abs(2 * debate - n)).toBeLessThanOrEqual(1);
    }
  });
});
