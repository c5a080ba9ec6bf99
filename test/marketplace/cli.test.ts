import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { CreateQualificationTypeCommand, MTurkClient } from '@aws-sdk/client-mturk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY } from '../../src/config.js';
import { paths } from '../../src/paths.js';
import { MARKETPLACE_DB_SUFFIX } from '@qrelay/marketplace';
import { runCli } from '../support/cli.js';
import { useTestDatabase } from '../support/db.js';
import { keepAliveSdkHandler } from '../../src/keep-alive-agents.js';

const db = useTestDatabase();
let server: ChildProcess;
let url: string;
let exited: Promise<number | null>;

beforeAll(async () => {
  await db.connection.useDb(`${db.connection.name}${MARKETPLACE_DB_SUFFIX}`).dropDatabase();
  server = spawn(
    process.execPath,
    ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), 'marketplace', '--port', '0', '--host', '127.0.0.1'],
    {
      cwd: paths.root,
      env: { ...process.env, LOG_LEVEL: 'warn', MARKETPLACE_INITIAL_BALANCE: '1.00' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the marketplace did not start in 30 s')), 30_000);
    createInterface({ input: server.stdout! }).on('line', (line) => {
      const m = /MTurk Requester API at (http:\/\/\S+?) /.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`the marketplace exited with ${code}`)));
  });
});

afterAll(async () => {
  if (server.exitCode === null) server.kill('SIGTERM');
  await exited;
});

describe('qrelay marketplace', () => {
  it('serves, and takes operator commands over its admin interface', async () => {
    const env = { MARKETPLACE_URL: url };
    const added = await runCli(
      ['marketplace', 'add-worker', '--name', 'Grace', '--country', 'gb', '--adult', '--submitted', '200', '--approved', '190'],
      env,
    );
    expect(added.stderr).toBe('');
    expect(JSON.parse(added.stdout)).toMatchObject({
      displayName: 'Grace',
      workerId: expect.stringMatching(/^A[A-Z0-9]+$/),
      profile: { locale: { Country: 'GB' }, adult: true, baseline: { submitted: 200, approved: 190 } },
    });
    const deposit = await runCli(['marketplace', 'deposit', '5.00', '--reference', 'r1'], env);
    expect(JSON.parse(deposit.stdout)).toEqual({ availableBalance: '6.00', duplicate: false });
    const status = await runCli(['marketplace', 'status'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({ availableBalance: '6.00', clockSpeed: 1 });
    const clock = await runCli(['marketplace', 'clock', '--speed', '60'], env);
    expect(JSON.parse(clock.stdout)).toMatchObject({ speed: 60 });
  });

  it("sets a lab annotator's profile with add-worker and update-worker (by id or name)", async () => {
    const env = { MARKETPLACE_URL: url };
    const added = await runCli(
      ['marketplace', 'add-worker', '--name', 'Lin', '--country', 'de', '--approved-hits', '600', '--approval-rate', '98'],
      env,
    );
    expect(added.stderr).toBe('');
    const lin = JSON.parse(added.stdout) as { workerId: string };
    expect(lin).toMatchObject({ displayName: 'Lin', profile: { locale: { Country: 'DE' }, baseline: { approved: 600, submitted: 612 } } });
    const updated = await runCli(
      [
        'marketplace',
        'update-worker',
        'LIN',
        '--approved-hits',
        '1000',
        '--approval-rate',
        '97',
        '--country',
        'fr',
        '--subdivision',
        'idf',
        '--adult',
        '--masters',
      ],
      env,
    );
    expect(updated.stderr).toBe('');
    expect(JSON.parse(updated.stdout)).toMatchObject({
      workerId: lin.workerId,
      profile: { locale: { Country: 'FR', Subdivision: 'IDF' }, adult: true, masters: true, baseline: { approved: 1000, submitted: 1030 } },
    });
    // only what is given changes; the rejected count stays when only the approved HITs change
    const again = await runCli(['marketplace', 'update-worker', lin.workerId, '--no-masters', '--approved-hits', '2000'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({
      profile: { locale: { Country: 'FR' }, adult: true, masters: false, baseline: { approved: 2000, submitted: 2030 } },
    });
    const [missing, nothing, tooFew, both] = await Promise.all([
      runCli(['marketplace', 'update-worker', 'nobody-here', '--adult'], env),
      runCli(['marketplace', 'update-worker', 'lin'], env),
      runCli(['marketplace', 'update-worker', 'lin', '--approved-hits', '50', '--approval-rate', '90'], env),
      runCli(['marketplace', 'update-worker', 'lin', '--approved', '5', '--approval-rate', '90'], env),
    ]);
    expect(missing.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^qrelay: the marketplace at .* answered 404: There is no worker with the id or name "nobody-here"/),
    ]);
    expect(nothing.stderr.trim()).toMatch(/^qrelay: nothing to change/);
    expect(tooFew.stderr.trim()).toMatch(/answered 409: profile\.approvedHits: an approval rate of 90% needs at least 90 approved HITs/);
    expect(both.stderr.trim()).toMatch(/^qrelay: give the earlier work one way/);
    for (const r of [missing, nothing, tooFew, both]) expect(r.code).toBe(1);
    // nothing half-written: the refused update left the profile as it was
    const listed = (await (
      await fetch(`${url}/admin/workers`, {
        headers: { authorization: `Bearer ${(await runCli(['marketplace', 'admin-token'], env)).stdout.trim()}` },
      })
    ).json()) as {
      workers: { workerId: string; profile: unknown }[];
    };
    expect(listed.workers.find((w) => w.workerId === lin.workerId)!.profile).toMatchObject({
      baseline: { approved: 2000, submitted: 2030 },
    });
  }, 300_000);

  it("shows and sets a qualification test's retake policy", async () => {
    const env = { MARKETPLACE_URL: url };
    const client = new MTurkClient({
      endpoint: url,
      region: 'us-east-1',
      credentials: { accessKeyId: DEV_MARKETPLACE_ACCESS_KEY_ID, secretAccessKey: DEV_MARKETPLACE_SECRET_ACCESS_KEY },
      maxAttempts: 1,
      requestHandler: keepAliveSdkHandler(),
    });
    const form = `<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd"><Question><QuestionIdentifier>q</QuestionIdentifier><QuestionContent><Text>Ready?</Text></QuestionContent><AnswerSpecification><FreeTextAnswer/></AnswerSpecification></Question></QuestionForm>`;
    const { QualificationType } = await client.send(
      new CreateQualificationTypeCommand({
        Name: 'CLI exam',
        Description: 'd',
        QualificationTypeStatus: 'Active',
        Test: form,
        TestDurationInSeconds: 300,
      }),
    );
    client.destroy();
    const typeId = QualificationType!.QualificationTypeId!;
    const shown = await runCli(['marketplace', 'retake-policy', typeId], env);
    expect(JSON.parse(shown.stdout)).toEqual({
      qualificationTypeId: typeId,
      retakePolicy: { retakes: 1, delaySeconds: 600 },
      default: true,
    });
    const set = await runCli(['marketplace', 'retake-policy', typeId, '--retakes', '3'], env);
    expect(JSON.parse(set.stdout)).toEqual({
      qualificationTypeId: typeId,
      retakePolicy: { retakes: 3, delaySeconds: 600 },
      default: false,
    });
    const missing = await runCli(['marketplace', 'retake-policy', 'NOSUCHTYPE', '--delay', '60'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^qrelay: the marketplace at .* answered 404: QualificationType NOSUCHTYPE does not exist/),
    ]);
  }, 300_000); // eight CLI processes: a safety net for a busy machine, not a speed target

  it('fails with one clear line', async () => {
    const [dup, wrongKey, bad, sim] = await Promise.all([
      runCli(['marketplace', 'add-worker', '--name', 'grace'], { MARKETPLACE_URL: url }),
      runCli(['marketplace', 'status'], { MARKETPLACE_URL: url, MARKETPLACE_SECRET_ACCESS_KEY: 'another-secret' }),
      runCli(['marketplace', 'chaos', '--fault-share', '2'], { MARKETPLACE_URL: url }),
      runCli(['marketplace', '--simulate', 'population.json']),
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^qrelay: the marketplace at .* answered 409: The name "grace" is taken/),
    ]);
    expect(wrongKey.stderr).toMatch(/^qrelay: the marketplace at .* refused the admin token/);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/expected a share from 0 to 1/);
    expect(sim.code).toBe(1);
    expect(sim.stderr.trim()).toMatch(/^qrelay: --simulate population\.json: cannot read it \(ENOENT: no such file or directory/);
  });

  it('stops gracefully on SIGTERM', async () => {
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
