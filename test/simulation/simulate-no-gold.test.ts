import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pipelineModels } from '../../src/db/models/index.js';
import { paths } from '../../src/paths.js';
import { spawnCli, useDemoEnvironment } from '../demo/support.js';

/**
 * `qrelay simulate` on a batch without a gold pool (its HITs would carry attention checks):
 * one line naming the user's batch, checked before anything is copied, so no simulated copy
 * is left behind and running it again says the same rather than asking for --replace.
 */

const e = useDemoEnvironment();

function run(args: string[]) {
  const cli = spawnCli(args, e.env);
  return cli.exited.then(({ code }) => ({ code, stdout: cli.stdout(), stderr: cli.stderr() }));
}

describe('qrelay simulate on a batch without gold', () => {
  it('names the batch, leaves no copy, and says the same when run again', { timeout: 300_000 }, async () => {
    const lines = readFileSync(join(paths.samples, 'escalations.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, 6);
    writeFileSync(join(e.dataDir, 'cases.jsonl'), `${lines.join('\n')}\n`);
    const imported = await run(['import', join(e.dataDir, 'cases.jsonl'), '--batch', 'newcomer1', '--kind', 'escalations']);
    expect(imported.code, imported.stderr).toBe(0);

    const expected = `qrelay: batch newcomer1 has no gold items for the attention checks its simulated HITs would carry: import a gold pool (qrelay import <file> --batch newcomer1 --kind gold), then simulate again`;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const r = await run(['simulate', 'newcomer1']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('qrelay: '))).toEqual([expected]);
      const batches = await pipelineModels(e.db.connection).batches.find({}, { _id: 1 }).lean();
      expect(batches.map((b) => b._id)).toEqual(['newcomer1']);
    }
  });
});
