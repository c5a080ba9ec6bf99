import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import type { Forecast } from '../../src/simulation/forecast.js';
import { POPULATION_DEFAULTS } from '../../src/simulation/population.js';
import { spawnCli, useDemoEnvironment } from '../demo/support.js';

/**
 * `qrelay simulate --population FILE` with the fields docs/population.md says are enough:
 * `size` and `shares` alone (the rest takes its documented default, the seed too), and
 * `seed`, `size` and `shares` (the held-out quality check's file).
 */

const e = useDemoEnvironment();
const CASES = 9;

async function simulate(population: object, as: string): Promise<Forecast> {
  const file = join(e.dataDir, `${as}.json`);
  writeFileSync(file, JSON.stringify(population));
  const cli = spawnCli(['simulate', 'b', '--population', file, '--as', as, '--json'], e.env);
  expect((await cli.exited).code, cli.stderr()).toBe(0);
  return JSON.parse(cli.stdout()) as Forecast;
}

describe('a population file with only size and shares', () => {
  it('is accepted by qrelay simulate, with the documented defaults', { timeout: 900_000 }, async () => {
    const lines = readFileSync(join(paths.samples, 'escalations.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, CASES);
    writeFileSync(join(e.dataDir, 'cases.jsonl'), `${lines.join('\n')}\n`);
    for (const args of [
      ['import', join(e.dataDir, 'cases.jsonl'), '--batch', 'b', '--kind', 'escalations'],
      ['import', join(paths.samples, 'gold.jsonl'), '--batch', 'b', '--kind', 'gold'],
    ]) {
      const cli = spawnCli(args, e.env);
      expect((await cli.exited).code, cli.stderr()).toBe(0);
    }

    const minimal = await simulate({ size: 12, shares: { spammer: 0.1 } }, 'minimal');
    expect(minimal).toMatchObject({ batch: 'minimal', simulated: true, seed: POPULATION_DEFAULTS.seed, items: CASES });
    expect(minimal.labels + minimal.unresolved).toBe(CASES);
    expect(minimal.workers.length).toBeGreaterThan(0);

    const seeded = await simulate({ seed: 'held-out', size: 12, shares: { alwaysYes: 0.1 } }, 'seeded');
    expect(seeded).toMatchObject({ batch: 'seeded', simulated: true, seed: 'held-out', items: CASES });
    expect(seeded.labels + seeded.unresolved).toBe(CASES);
  });
});
