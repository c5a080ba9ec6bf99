import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finalLabels, type EscalatedCase, type GoldItem } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { simKey } from '../hits/index.js';
import { checkPopulation, type OracleEntry, type PopulationProfile } from '../simulation/index.js';
import { paths } from '../paths.js';

/**
 * The bundled sample benchmark (samples/README.md) as the demo uses it: its files, a
 * deterministic subset of the escalated cases (`--sample-size n`: the first n lines), the
 * oracle the simulated workers answer from, and the simulated population.
 */

export const SAMPLE_CASES = 270;

export const sampleFiles = {
  escalations: join(paths.samples, 'escalations.jsonl'),
  consensus: join(paths.samples, 'consensus.jsonl'),
  gold: join(paths.samples, 'gold.jsonl'),
  base: join(paths.samples, 'qrels', 'base.tsv'),
  population: join(paths.samples, 'population.json'),
  runs: ['bm25', 'dense', 'hybrid', 'rerank', 'overlap'].map((name) => join(paths.samples, 'runs', `${name}.trec`)),
};

function jsonLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

/** The first `size` lines of the sample's escalated cases (all of them without a size). */
export function sampleCaseLines(size: number | undefined): string[] {
  const lines = jsonLines(sampleFiles.escalations);
  if (size === undefined) return lines;
  if (!Number.isSafeInteger(size) || size < 1 || size > lines.length)
    throw new UserError(`--sample-size: expected a whole number from 1 to ${lines.length}, got ${size}`);
  return lines.slice(0, size);
}

/** The escalations file to import: the sample's own, or the subset written into `dir`. */
export function escalationsFile(size: number | undefined, dir: string): string {
  if (size === undefined || size === SAMPLE_CASES) return sampleFiles.escalations;
  const file = join(dir, `escalations-first-${size}.jsonl`);
  writeFileSync(
    file,
    sampleCaseLines(size)
      .map((l) => `${l}\n`)
      .join(''),
  );
  return file;
}

/**
 * What the simulated workers know (pure): the hidden truth of every case and the label an
 * LLM gave it (agent A's final label, as the e2e test does), and the gold items' labels for
 * the attention checks. Keys are the HIT page's `data-sim-key`s.
 */
export function oracleFor(cases: readonly EscalatedCase[], gold: readonly GoldItem[]): Record<string, OracleEntry> {
  const entries: Record<string, OracleEntry> = {};
  for (const c of cases) {
    if (!c.hidden_label) continue;
    const model = finalLabels(c.debate).get('A');
    entries[simKey(c.query_id, c.chunk_id)] = { truth: c.hidden_label, ...(model && { model }) };
  }
  for (const g of gold) entries[simKey(g.query_id, g.chunk_id)] = { truth: g.label, check: true };
  return entries;
}

/** The oracle of the sample subset (the sample files are canonical JSON, one record a line). */
export function sampleOracle(size: number | undefined): Record<string, OracleEntry> {
  const cases = sampleCaseLines(size).map((l) => JSON.parse(l) as EscalatedCase);
  const gold = jsonLines(sampleFiles.gold).map((l) => JSON.parse(l) as GoldItem);
  return oracleFor(cases, gold);
}

export function samplePopulation(file = sampleFiles.population): PopulationProfile {
  const checked = checkPopulation(JSON.parse(readFileSync(file, 'utf8')));
  if (!checked.ok) throw new UserError(`${file}: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  return checked.profile;
}
