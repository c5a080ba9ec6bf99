import { describe, expect, it } from 'vitest';
import { Agenda } from './schedule.js';
import { beta, categorical, exponential, gamma, geometric, hashUniform, logNormal, seededRng, standardNormal } from './random.js';

/**
 * The samplers against their textbook moments over 40,000 draws; tolerances are about
 * 5 standard errors of the estimated moment, so a correct sampler fails with odds far
 * below one in a million (and the seed makes every run the same anyway).
 */

const N = 40_000;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: number[]) => {
  const m = mean(xs);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
};
const draws = (f: () => number) => Array.from({ length: N }, f);

describe('seeded randomness', () => {
  it('repeats a seed and differs between seeds', () => {
    const a = seededRng('s');
    const b = seededRng('s');
    const c = seededRng('t');
    const xs = draws(() => a.next());
    expect(draws(() => b.next())).toEqual(xs);
    expect(c.next()).not.toBe(xs[0]);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Math.abs(mean(xs) - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / N));
    expect(hashUniform('a', 'b')).toBe(hashUniform('a', 'b'));
    expect(hashUniform('a', 'b')).not.toBe(hashUniform('ab', ''));
    const hs = Array.from({ length: N }, (_, i) => hashUniform('k', String(i)));
    expect(Math.abs(mean(hs) - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / N));
  });

  it('draws from the normal, log-normal, gamma and beta distributions', () => {
    const rng = seededRng('moments');
    const z = draws(() => standardNormal(rng));
    expect(Math.abs(mean(z))).toBeLessThan(5 / Math.sqrt(N));
    expect(Math.abs(variance(z) - 1)).toBeLessThan(5 * Math.sqrt(2 / N));
    const ln = draws(() => logNormal(rng, 30, 0.5)).sort((a, b) => a - b);
    expect(Math.abs(Math.log(ln[N / 2]!) - Math.log(30))).toBeLessThan(0.02);
    for (const shape of [0.4, 1, 3.5]) {
      const g = draws(() => gamma(rng, shape));
      expect(Math.abs(mean(g) - shape)).toBeLessThan(5 * Math.sqrt(shape / N));
    }
    const [a, b] = [18, 2];
    const bs = draws(() => beta(rng, a, b));
    const m = a / (a + b);
    const v = (a * b) / ((a + b) ** 2 * (a + b + 1));
    expect(Math.abs(mean(bs) - m)).toBeLessThan(5 * Math.sqrt(v / N));
    expect(Math.abs(variance(bs) - v) / v).toBeLessThan(0.05);
  });

  it('draws waiting times, counts and categories', () => {
    const rng = seededRng('counts');
    const e = draws(() => exponential(rng, 4));
    expect(Math.abs(mean(e) - 0.25)).toBeLessThan(5 * (0.25 / Math.sqrt(N)));
    const g = draws(() => geometric(rng, 8));
    expect(Math.min(...g)).toBe(1);
    expect(Math.abs(mean(g) - 8)).toBeLessThan(5 * Math.sqrt(56 / N));
    expect(geometric(rng, 1)).toBe(1);
    const c = draws(() => categorical(rng, [0.7, 0.3, 0]));
    expect(c.includes(2)).toBe(false);
    expect(Math.abs(c.filter((x) => x === 1).length / N - 0.3)).toBeLessThan(5 * Math.sqrt(0.21 / N));
  });
});

describe('the agenda', () => {
  it('gives events in time order, ties in the order they came', () => {
    const agenda = new Agenda<string>();
    const rng = seededRng('agenda');
    const times = Array.from({ length: 500 }, (_, i) => ({ at: Math.floor(rng.next() * 50), label: `e${i}` }));
    for (const t of times) agenda.push(t.at, t.label);
    expect(agenda.size).toBe(500);
    const out: string[] = [];
    while (agenda.peek()) out.push(agenda.pop()!.event);
    const expected = [...times].sort((a, b) => a.at - b.at || Number(a.label.slice(1)) - Number(b.label.slice(1))).map((t) => t.label);
    expect(out).toEqual(expected);
    expect(agenda.pop()).toBeUndefined();
  });
});
