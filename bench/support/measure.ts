import { spawnSync } from 'node:child_process';
import { paths } from '../../src/paths.js';

/** What /usr/bin/time saw of one whole process. */
export interface Measured {
  /** Its peak resident memory (max RSS), MiB. */
  peakMiB: number;
  seconds: number;
  stdout: string;
}

/**
 * Runs a command under /usr/bin/time (peak RSS and wall time of the whole process, as a
 * user would see them); the reason as a string when it cannot run or fails.
 */
export function measureProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Measured | string {
  const res = spawnSync('/usr/bin/time', ['-f', '%M %e', command, ...args], {
    cwd: paths.root,
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 30,
  });
  if (res.error) return res.error.message;
  const last = res.stderr.trim().split('\n').at(-1) ?? '';
  const match = /^(\d+) ([\d.]+)$/.exec(last);
  if (res.status !== 0 || !match) return `exit ${res.status}: ${res.stderr.trim().split('\n').slice(-3).join(' / ')}`;
  return { peakMiB: Number(match[1]) / 1024, seconds: Number(match[2]), stdout: res.stdout };
}
