import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { paths } from '../../src/paths.js';
import { spawnCli, type DemoEnvironment } from '../demo/support.js';

/**
 * The bundled sample imported as batch `batch` (its 270 escalated cases and its gold pool)
 * through the CLI, and its hidden labels written as a truth file for `simulate --truth`;
 * answers that file's path.
 */
export async function importSampleWithTruth(e: DemoEnvironment, batch = 'sample'): Promise<string> {
  const truth = join(e.dataDir, 'truth.jsonl');
  writeFileSync(
    truth,
    readFileSync(join(paths.samples, 'escalations.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { query_id: string; chunk_id: string; hidden_label: string })
      .map((c) => `${JSON.stringify({ query_id: c.query_id, chunk_id: c.chunk_id, label: c.hidden_label })}\n`)
      .join(''),
  );
  for (const args of [
    ['import', join(paths.samples, 'escalations.jsonl'), '--batch', batch, '--kind', 'escalations'],
    ['import', join(paths.samples, 'gold.jsonl'), '--batch', batch, '--kind', 'gold'],
  ]) {
    const cli = spawnCli(args, e.env);
    expect((await cli.exited).code, cli.stderr()).toBe(0);
  }
  return truth;
}
