import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/paths.js';
import { exited, hasExited, stopChild, until, within } from './support/bounded.js';
import { freePort } from './support/free-port.js';

/** Ctrl-C on a long-running command: one line saying what stopped and what the next start continues. */

describe('Ctrl-C on qrelay serve', () => {
  it('prints one line naming what stopped and what the next start continues, and exits 0', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), 'serve', '--no-marketplace', '--port', String(port)],
      {
        cwd: paths.root,
        env: { ...process.env, LOG_LEVEL: 'warn', QRELAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'qrelay-stop-')) },
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    try {
      const health = async () => {
        if (hasExited(child)) throw new Error(`qrelay serve exited (code ${child.exitCode}) before it answered: ${stderr}`);
        return fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
      };
      await until(120_000, `qrelay serve answering /healthz on port ${port}`, health, (s) => s === 200, 200);
      child.kill('SIGINT');
      await within(60_000, 'qrelay serve exiting after SIGINT', exited(child));
      expect(child.exitCode, stderr).toBe(0);
      const lines = stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('{')); // JSON log lines
      expect(lines).toEqual([
        `qrelay: stopped the API at http://127.0.0.1:${port}; the next \`qrelay serve\` serves the same batches again, and their jobs continue where they stopped`,
      ]);
    } finally {
      await stopChild(child, 'SIGKILL');
    }
  });
});
