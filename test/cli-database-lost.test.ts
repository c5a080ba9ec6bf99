import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevdb, type DevdbHandle } from '../src/db/devdb.js';
import { spawnCli } from './demo/support.js';
import { sampleLines, tempDir, writeLines } from './pipeline/support.js';
import { runCli } from './support/cli.js';
import { freePort } from './support/free-port.js';

/**
 * Issue 17, section 5: the dev database dies (SIGKILL) under a running `qrelay import`.
 * The command fails with one line saying what happened and that running it again is
 * safe; once the database runs again, the same command completes the import.
 */

const dir = tempDir('qrelay-lost-');
const dataDir = mkdtempSync(join(tmpdir(), 'qrelay-lost-devdb-'));
let devdb: DevdbHandle | undefined;

afterAll(async () => {
  await devdb?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `count` distinct escalated cases made from the sample's (the chunk ids numbered). */
function manyCases(count: number): string[] {
  const sample = sampleLines('escalations.jsonl').map((l) => JSON.parse(l) as Record<string, unknown>);
  return Array.from({ length: count }, (_, i) => {
    const c = sample[i % sample.length]!;
    return JSON.stringify({ ...c, chunk_id: `${String(c.chunk_id)}-${i}` });
  });
}

describe('a database that dies under a command', () => {
  it('ends the command with one line saying so and that rerunning is safe; the rerun completes it', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    devdb = await startDevdb({ address, dataDir });
    const env = { MONGODB_URI: `mongodb://${address}/lost`, QRELAY_DATA_DIR: dataDir };
    const file = writeLines(dir, 'many.jsonl', manyCases(6000));

    const cli = spawnCli(['import', file, '--batch', 'lost'], env);
    await cli.waitFor(/escalations records written/); // the commit is under way
    devdb.process.kill('SIGKILL');
    const exit = await cli.exited;
    expect(exit.code, cli.stdout()).toBe(1);
    const lines = cli
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('qrelay: '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^qrelay: the database stopped answering in the middle of the command \(Mongo\w+Error: .+\)\. Nothing is left half-done: .* run the same command again: that is safe/,
    );

    devdb = await startDevdb({ address, dataDir });
    const again = await runCli(['import', file, '--batch', 'lost'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/into batch lost: 6000 escalations records \(\d+ new, \d+ already in the batch\)/);
    const m = /\((\d+) new, (\d+) already/.exec(again.stdout)!;
    expect(Number(m[1]) + Number(m[2])).toBe(6000);
  });
});
