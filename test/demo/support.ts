import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateHITCommand, MTurkClient } from '@aws-sdk/client-mturk';
import { afterAll, beforeAll } from 'vitest';
import { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY } from '../../src/config.js';
import { MARKETPLACE_DB_SUFFIX } from '@qrelay/marketplace';
import { paths } from '../../src/paths.js';
import { useTestDatabase, type TestDatabase } from '../support/db.js';

import { freePort } from '../support/free-port.js';

export { freePort };

export interface DemoEnvironment {
  db: TestDatabase;
  /** QRELAY_DATA_DIR, MARKETPLACE_URL, PORT for the child processes (MONGODB_URI comes from the test setup). */
  env: Record<string, string>;
  dataDir: string;
  apiUrl: string;
  marketplaceUrl: string;
}

/** This file's own database (and marketplace database), data directory and free ports. */
export function useDemoEnvironment(): DemoEnvironment {
  const db = useTestDatabase();
  const e = { db, env: {}, dataDir: '', apiUrl: '', marketplaceUrl: '' } as DemoEnvironment;
  beforeAll(async () => {
    await db.connection.useDb(`${db.connection.name}${MARKETPLACE_DB_SUFFIX}`).dropDatabase();
    e.dataDir = mkdtempSync(join(tmpdir(), 'qrelay-demo-test-'));
    const [api, market] = [await freePort(), await freePort()];
    e.apiUrl = `http://127.0.0.1:${api}`;
    e.marketplaceUrl = `http://127.0.0.1:${market}`;
    e.env = { QRELAY_DATA_DIR: e.dataDir, MARKETPLACE_URL: e.marketplaceUrl, PORT: String(api) };
  });
  afterAll(() => rmSync(e.dataDir, { recursive: true, force: true }));
  return e;
}

export interface SpawnedCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches, rejects when the process exits first or time runs out. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The qrelay CLI from source in a child process, its output collected as it comes. */
export function spawnCli(args: string[], env: Record<string, string>): SpawnedCli {
  const child = spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), ...args], {
    cwd: paths.root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of waiters) w();
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => {
    done = true;
    for (const w of waiters) w();
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 240_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(out)) finish(() => resolve());
          else if (done)
            finish(() => reject(new Error(`qrelay ${args.join(' ')} exited before printing ${pattern}; stdout:\n${out}\nstderr:\n${err}`)));
        };
        const timer = setTimeout(
          () =>
            finish(() =>
              reject(new Error(`qrelay ${args.join(' ')}: no ${pattern} within ${timeoutMs} ms; stdout:\n${out}\nstderr:\n${err}`)),
            ),
          timeoutMs,
        );
        const finish = (then: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** The "files" block of the summary: label and absolute path per line. */
export function summaryFiles(stdout: string): Map<string, string> {
  const files = new Map<string, string>();
  const block = stdout.slice(stdout.lastIndexOf('\nfiles '));
  for (const m of block.matchAll(/^(?:files {7}| {12})(.+?) {2,}(\/\S+)$/gm)) files.set(m[1]!.trim(), m[2]!);
  return files;
}

/** A HIT created now on the marketplace that serves real clients: its CreationTime says what its clock reads. */
export async function createdAt(url: string): Promise<Date> {
  const client = new MTurkClient({
    endpoint: url,
    region: 'us-east-1',
    credentials: { accessKeyId: DEV_MARKETPLACE_ACCESS_KEY_ID, secretAccessKey: DEV_MARKETPLACE_SECRET_ACCESS_KEY },
  });
  try {
    const question = `<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd"><HTMLContent><![CDATA[<!DOCTYPE html><html><body><form></form></body></html>]]></HTMLContent><FrameHeight>400</FrameHeight></HTMLQuestion>`;
    const out = await client.send(
      new CreateHITCommand({
        Title: 'clock probe',
        Description: 'clock probe',
        Reward: '0.01',
        AssignmentDurationInSeconds: 600,
        LifetimeInSeconds: 3600,
        MaxAssignments: 1,
        Question: question,
      }),
    );
    return out.HIT!.CreationTime!;
  } finally {
    client.destroy();
  }
}
