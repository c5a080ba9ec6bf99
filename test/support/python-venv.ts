import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../src/paths.js';

/**
 * The project's Python virtual environment, `.venv` at the repository root, for the Python
 * peers: the tests' (boto3's pytest suite, test/python/requirements.txt; made by the vitest
 * globalSetup) and the benchmarks' (ir_measures, crowd-kit, statsmodels, krippendorff:
 * bench/peers/requirements.txt; made by `npm run bench`). Created when missing, completed
 * when a requirements file is not installed yet, reused when complete. Complete for a
 * requirements file means: the interpreter runs, and a stamp written after its last
 * successful install holds its hash (an edited requirements file reinstalls).
 */

const relative = (file: string) => file.slice(paths.root.length + 1);

export const VENV = join(paths.root, '.venv');
export const VENV_PYTHON = join(VENV, 'bin', 'python');
export const TEST_REQUIREMENTS = join(paths.root, 'test', 'python', 'requirements.txt');
export const BENCH_REQUIREMENTS = join(paths.root, 'bench', 'peers', 'requirements.txt');

/** One stamp per requirements file (the tests' keeps its first name, so existing .venvs stay complete). */
function stampOf(requirements: string): string {
  return requirements === TEST_REQUIREMENTS
    ? join(VENV, '.qrelay-requirements.sha256')
    : join(VENV, `.qrelay-${createHash('sha256').update(requirements).digest('hex').slice(0, 12)}.sha256`);
}

function requirementsHash(requirements: string): string {
  return createHash('sha256').update(readFileSync(requirements)).digest('hex');
}

function installed(requirements: string): boolean {
  const stamp = stampOf(requirements);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === requirementsHash(requirements);
}

function pythonRuns(python: string): boolean {
  try {
    execFileSync(python, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether `.venv` holds these requirements files' packages (see above). */
export function venvComplete(requirements: readonly string[] = [TEST_REQUIREMENTS]): boolean {
  return requirements.every(installed) && pythonRuns(VENV_PYTHON);
}

/** Creates or completes `.venv` with these requirements files; a no-op when complete. Returns what it did, for the log. */
export function ensureVenv(
  log: (line: string) => void = () => {},
  requirements: readonly string[] = [TEST_REQUIREMENTS],
): 'reused' | 'created' {
  if (venvComplete(requirements)) return 'reused';
  const python3 = process.env.QRELAY_PYTHON ?? 'python3';
  if (!pythonRuns(python3)) {
    throw new Error(
      `${python3} is missing: Python 3 (with its venv module) is needed to create .venv for the Python peers (${requirements.map(relative).join(', ')}); install Python 3, or set QRELAY_PYTHON to its executable`,
    );
  }
  log(`setup: creating the Python virtual environment .venv (${requirements.map(relative).join(', ')}); reused by later runs`);
  const run = (cmd: string, args: string[]) => {
    try {
      execFileSync(cmd, args, { cwd: paths.root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      const detail = (e.stderr || e.stdout || e.message).trim().split('\n').slice(-3).join(' | ');
      throw new Error(`setup: \`${cmd} ${args.join(' ')}\` failed: ${detail}`);
    }
  };
  // a .venv whose interpreter runs is completed in place (pip install is idempotent);
  // one whose interpreter does not (moved, half made) is made again
  if (!pythonRuns(VENV_PYTHON)) {
    rmSync(VENV, { recursive: true, force: true });
    run(python3, ['-m', 'venv', VENV]);
  }
  for (const file of requirements.filter((r) => !installed(r))) {
    run(VENV_PYTHON, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', file]);
    writeFileSync(stampOf(file), `${requirementsHash(file)}\n`);
  }
  return 'created';
}
