import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import { VENV_PYTHON, venvComplete } from '../support/python-venv.js';
import { CREDENTIALS, useMarketplace } from './support.js';

/**
 * An independent client agrees: boto3's pytest suite (test/python/) against a marketplace
 * started here, over HTTP, with a simulated worker driven through the admin routes.
 */

const h = useMarketplace();
const PYTHON = VENV_PYTHON;

describe('boto3 against the marketplace', () => {
  it('passes the pytest interoperability suite', async () => {
    // the vitest globalSetup (test/support/global-setup.ts) makes .venv before any test runs
    if (!venvComplete())
      throw new Error(
        'the boto3 test needs .venv with test/python/requirements.txt, which the test setup creates: run the tests through vitest (npm test)',
      );
    // fast enough for the simulated worker to arrive in about a real second, slow enough that no
    // deadline of the test's HITs (a month's lifetime, a day's auto-approval) passes on a busy machine
    h.running.marketplace.clock.setSpeed(100);
    // asynchronously: the marketplace answering boto3 runs in this process
    const run = await promisify(execFile)(PYTHON, ['-m', 'pytest', 'test/python', '-q', '-p', 'no:cacheprovider'], {
      cwd: paths.root,
      encoding: 'utf8',
      timeout: 240_000, // a safety net against a hang
      env: {
        ...process.env,
        PYTHONDONTWRITEBYTECODE: '1', // no __pycache__ in the working tree
        MARKETPLACE_ENDPOINT: h.running.url,
        MARKETPLACE_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
        MARKETPLACE_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        MARKETPLACE_ADMIN_TOKEN: h.running.adminToken,
      },
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      if (/No module named pytest|No module named 'boto3'/.test(err.stderr ?? '') || /ModuleNotFoundError/.test(err.stdout ?? '')) {
        throw new Error(
          `.venv lacks boto3 or pytest: delete .venv and run the tests again (the test setup recreates it)\n${err.stdout ?? ''}${err.stderr ?? ''}`,
        );
      }
      throw new Error(`pytest failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    });
    expect(run.stdout).toMatch(/^2 passed/m);
  });
});
