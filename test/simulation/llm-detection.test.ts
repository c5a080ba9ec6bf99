import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import type { Forecast } from '../../src/simulation/forecast.js';
import { spawnCli, useDemoEnvironment } from '../demo/support.js';

/**
 * `qrelay simulate --json` flags LLM-assisted workers: the default population with a fifth of
 * its 30 workers LLM-assisted, on 90 cases of the sample. Their browsers leave the page
 * events the population says (docs/population.md), their answers follow the one LLM; the
 * report's detection (src/quality/llm-flags.ts) flags them with the evidence. Deterministic:
 * one fixed draw of the simulation.
 */

const e = useDemoEnvironment();
const CASES = 90;

describe('LLM-assisted workers in qrelay simulate', () => {
  it('are flagged llm-assisted with the evidence, and careful people are not', { timeout: 900_000 }, async () => {
    const lines = readFileSync(join(paths.samples, 'escalations.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, CASES);
    writeFileSync(join(e.dataDir, 'cases.jsonl'), `${lines.join('\n')}\n`);
    writeFileSync(
      join(e.dataDir, 'truth.jsonl'),
      lines
        .map((l) => JSON.parse(l) as { query_id: string; chunk_id: string; hidden_label: string })
        .map((c) => `${JSON.stringify({ query_id: c.query_id, chunk_id: c.chunk_id, label: c.hidden_label })}\n`)
        .join(''),
    );
    const population = JSON.parse(readFileSync(join(paths.samples, 'population.json'), 'utf8')) as {
      size: number;
      shares: Record<string, number>;
    };
    population.size = 30;
    population.shares.llm = 0.2;
    writeFileSync(join(e.dataDir, 'population.json'), JSON.stringify(population));
    for (const args of [
      ['import', join(e.dataDir, 'cases.jsonl'), '--batch', 'b', '--kind', 'escalations'],
      ['import', join(paths.samples, 'gold.jsonl'), '--batch', 'b', '--kind', 'gold'],
    ]) {
      const cli = spawnCli(args, e.env);
      expect((await cli.exited).code, cli.stderr()).toBe(0);
    }
    const cli = spawnCli(
      ['simulate', 'b', '--population', join(e.dataDir, 'population.json'), '--truth', join(e.dataDir, 'truth.jsonl'), '--json'],
      e.env,
    );
    expect((await cli.exited).code, cli.stderr()).toBe(0);
    const f = JSON.parse(cli.stdout()) as Forecast;
    const llm = f.workers.filter((w) => w.kind === 'llm' && w.assignments >= 2);
    const flagged = f.workers.filter((w) => w.flags.includes('llm-assisted'));
    const summary = f.workers.map((w) => `${w.workerId} ${w.kind} ${w.assignments} [${w.flags.join(',')}]`).join('\n');
    expect(llm.length, summary).toBeGreaterThanOrEqual(2);
    const caught = llm.filter((w) => w.flags.includes('llm-assisted'));
    expect(caught.length / llm.length, summary).toBeGreaterThanOrEqual(0.5);
    for (const w of caught) expect(w.llmEvidence?.join(' '), summary).toMatch(/followed agent|copied, pasted or left the page|canary/);
    for (const w of flagged) expect(['llm'], summary).toContain(w.kind);
  });
});
