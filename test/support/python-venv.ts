import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../src/paths.js';

/**
 * The Python virtual environment of the tests that run Python peers (boto3's pytest suite):
 * `.venv` at the repository root with test/python/requirements.txt installed. Created by
 * the vitest globalSetup when missing or incomplete, reused when complete. Complete means:
 * its interpreter runs, and a stamp written after the last successful install holds the
 * hash of the requirements file it installed (an edited requirements file reinstalls).
 */

export const VENV = join(paths.root, '.venv');
export const VENV_PYTHON = join(VENV, 'bin', 'python');
const REQUIREMENTS = join(paths.root, 'test', 'python', 'requirements.txt');
const STAMP = join(VENV, '.qrelay-requirements.sha256');

function requirementsHash(): string {
  return createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex');
}

function pythonRuns(python: string): boolean {
  try {
    execFileSync(python, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether `.venv` holds this requirements file's packages (see above). */
export function venvComplete(): boolean {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === requirementsHash() && pythonRuns(VENV_PYTHON);
}

/** Creates or completes `.venv`; a no-op when complete. Returns what it did, for the log. */
export function ensureVenv(log: (line: string) => void = () => {}): 'reused' | 'created' {
  if (venvComplete()) return 'reused';
  const python3 = process.env.QRELAY_PYTHON ?? 'python3';
  if (!pythonRuns(python3)) {
    throw new Error(
      `${python3} is missing: the tests need Python 3 (with its venv module) to create .venv for the boto3 test; install Python 3, or set QRELAY_PYTHON to its executable`,
    );
  }
  log(`test setup: creating the Python virtual environment .venv (${REQUIREMENTS.slice(paths.root.length + 1)}); reused by later runs`);
  const run = (cmd: string, args: string[]) => {
    try {
      execFileSync(cmd, args, { cwd: paths.root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      const detail = (e.stderr || e.stdout || e.message).trim().split('\n').slice(-3).join(' | ');
      throw new Error(`test setup: \`${cmd} ${args.join(' ')}\` failed: ${detail}`);
    }
  };
  // a .venv whose interpreter runs is completed in place (pip install is idempotent);
  // one whose interpreter does not (moved, half made) is made again
  if (!pythonRuns(VENV_PYTHON)) {
    rmSync(VENV, { recursive: true, force: true });
    run(python3, ['-m', 'venv', VENV]);
  }
  run(VENV_PYTHON, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS]);
  writeFileSync(STAMP, `${requirementsHash()}\n`);
  return 'created';
}
