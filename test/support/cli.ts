import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { paths } from '../../src/paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the qrelay CLI from source (through tsx) with the given environment. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 240_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), ...args], {
      cwd: paths.root,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`qrelay ${args.join(' ')} did not finish in ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Stderr without the AWS SDK's Node version notice and JSON log lines. */
export function stderrLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter(
      (l) =>
        l.trim() !== '' &&
        !l.startsWith('{') &&
        !/NodeVersionSupportWarning|AWS SDK|node >=22|upgrade to node|a\.co\/|trace-warnings|versions published|will require|To continue receiving|security updates|More information/.test(
          l,
        ),
    );
}
