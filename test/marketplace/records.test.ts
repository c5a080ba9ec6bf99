import {
  ApproveAssignmentCommand,
  AssociateQualificationWithWorkerCommand,
  CreateHITCommand,
  CreateQualificationTypeCommand,
  CreateWorkerBlockCommand,
  GetAccountBalanceCommand,
  GetHITCommand,
  ListAssignmentsForHITCommand,
  ListBonusPaymentsCommand,
  ListWorkerBlocksCommand,
  ListWorkersWithQualificationTypeCommand,
  MTurkClient,
  SendBonusCommand,
} from '@aws-sdk/client-mturk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exportRequesterRecords,
  MARKETPLACE_DB_SUFFIX,
  splitRecords,
  type ImportSummary,
  type RequesterRecords,
} from '@qrelay/marketplace';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startMarketplaceWithSimulation, type SimulatedMarketplace } from '../../src/simulation/index.js';
import { CREDENTIALS, hitParams, useMarketplace } from './support.js';
import { keepAliveSdkHandler } from '../../src/keep-alive-agents.js';

/**
 * A requester's records carried from one marketplace to another (GET/POST /admin/records):
 * a source marketplace with a worker who took a qualification, worked a HIT, was approved,
 * paid a bonus and blocked; its records imported into a second marketplace, where the SDK
 * then finds all of it. A qualification type whose name the target already has is merged
 * into it; a second import, and an import cut short then run again, add nothing twice.
 */

const target = useMarketplace();
let source: SimulatedMarketplace;
let sourceClient: MTurkClient;
const SOURCE_DB = () => target.db.connection.useDb(`${target.db.connection.name}_src`, { useCache: true });

const post = async (body: unknown) => {
  const res = await fetch(`${target.running.url}/admin/records`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.running.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as ImportSummary & { detail?: string; errors?: { path: string }[] } };
};

const fixture = { hitId: '', assignmentId: '', workerId: '', sourceTypeId: '', targetTypeId: '' };

beforeAll(async () => {
  await SOURCE_DB().useDb(`${SOURCE_DB().name}${MARKETPLACE_DB_SUFFIX}`).dropDatabase();
  source = await startMarketplaceWithSimulation({
    config: loadConfig({ ...process.env, MARKETPLACE_URL: 'http://127.0.0.1:8090' }),
    logger: createLogger('silent'),
    connection: SOURCE_DB(),
    port: 0,
    host: '127.0.0.1',
    loopIntervalMs: 60_000,
  });
  sourceClient = new MTurkClient({
    endpoint: source.url,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    maxAttempts: 1,
    requestHandler: keepAliveSdkHandler(),
  });
  const type = await sourceClient.send(
    new CreateQualificationTypeCommand({ Name: 'Relevance exam', Description: 'the exam', QualificationTypeStatus: 'Active' }),
  );
  fixture.sourceTypeId = type.QualificationType!.QualificationTypeId!;
  const worker = await source.workers.createWorker({ displayName: 'records-worker', workerId: 'ARECORDSWORKER1' });
  fixture.workerId = worker.workerId;
  await sourceClient.send(
    new AssociateQualificationWithWorkerCommand({ QualificationTypeId: fixture.sourceTypeId, WorkerId: worker.workerId, IntegerValue: 93 }),
  );
  const { HIT } = await sourceClient.send(
    new CreateHITCommand(
      hitParams({
        QualificationRequirements: [{ QualificationTypeId: fixture.sourceTypeId, Comparator: 'GreaterThanOrEqualTo', IntegerValues: [90] }],
        RequesterAnnotation: 'records-test',
      }),
    ),
  );
  fixture.hitId = HIT!.HITId!;
  const a = await source.workers.acceptHit(worker.workerId, fixture.hitId);
  fixture.assignmentId = a.assignmentId;
  await source.workers.submitAssignment(worker.workerId, a.assignmentId, { relevance: 'yes' });
  await sourceClient.send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }));
  await sourceClient.send(
    new SendBonusCommand({
      WorkerId: worker.workerId,
      AssignmentId: a.assignmentId,
      BonusAmount: '0.25',
      Reason: 'thanks',
      UniqueRequestToken: 'b1',
    }),
  );
  await sourceClient.send(new CreateWorkerBlockCommand({ WorkerId: worker.workerId, Reason: 'enough for today' }));

  // the target already has a type of that name: the source's is merged into it
  const existing = await target
    .client()
    .send(new CreateQualificationTypeCommand({ Name: 'relevance exam', Description: 'ours', QualificationTypeStatus: 'Active' }));
  fixture.targetTypeId = existing.QualificationType!.QualificationTypeId!;
});

afterAll(async () => {
  sourceClient?.destroy();
  await source?.close();
});

const balance = async () => Number((await target.client().send(new GetAccountBalanceCommand({}))).AvailableBalance);

describe('a requester records export and import', () => {
  let records: RequesterRecords;

  it('refuses a document that does not match its schema, naming the field, and writes nothing', async () => {
    records = await exportRequesterRecords(SOURCE_DB());
    const bad = JSON.parse(JSON.stringify(records)) as { hits: Array<Record<string, unknown>> };
    delete bad.hits[0]!.expiration;
    const r = await post(bad);
    expect(r.status).toBe(400);
    expect(r.body.errors?.map((e) => e.path)).toContain('body.hits.0.expiration');
    expect(target.running.marketplace.hits.get(fixture.hitId)).toBeUndefined();
  });

  it('an import cut short, then the whole import: every record once, the payments debited once', async () => {
    const before = await balance();
    const parts = splitRecords(records);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    // only the account's records: as if the importer had been stopped after its first request
    expect((await post(parts[0])).status).toBe(200);
    const r = await post(records);
    expect(r.status).toBe(200);
    expect(r.body.added.hits).toBe(1);
    expect(r.body.present.workers).toBe(1);
    expect(r.body.qualificationTypeIds).toEqual({ [fixture.sourceTypeId]: fixture.targetTypeId });
    // $0.50 + $0.10 fee for the approval, $0.25 + $0.05 for the bonus
    expect(Math.round((before - (await balance())) * 100)).toBe(90);
  });

  it('the target serves the records through the MTurk API', async () => {
    const c = target.client();
    const { HIT } = await c.send(new GetHITCommand({ HITId: fixture.hitId }));
    expect(HIT?.RequesterAnnotation).toBe('records-test');
    expect(HIT?.QualificationRequirements?.[0]?.QualificationTypeId).toBe(fixture.targetTypeId);
    const { Assignments } = await c.send(new ListAssignmentsForHITCommand({ HITId: fixture.hitId }));
    expect(Assignments).toHaveLength(1);
    expect(Assignments![0]).toMatchObject({ AssignmentId: fixture.assignmentId, WorkerId: fixture.workerId, AssignmentStatus: 'Approved' });
    expect(Assignments![0]!.Answer).toContain('relevance');
    const bonuses = await c.send(new ListBonusPaymentsCommand({ AssignmentId: fixture.assignmentId }));
    expect(bonuses.BonusPayments?.map((b) => b.BonusAmount)).toEqual(['0.25']);
    const blocks = await c.send(new ListWorkerBlocksCommand({}));
    expect(blocks.WorkerBlocks).toContainEqual({ WorkerId: fixture.workerId, Reason: 'enough for today' });
    const scores = await c.send(new ListWorkersWithQualificationTypeCommand({ QualificationTypeId: fixture.targetTypeId }));
    expect(scores.Qualifications?.map((q) => [q.WorkerId, q.IntegerValue])).toEqual([[fixture.workerId, 93]]);
    // a repeated bonus token is known here too
    await expect(
      c.send(
        new SendBonusCommand({
          WorkerId: fixture.workerId,
          AssignmentId: fixture.assignmentId,
          BonusAmount: '0.25',
          Reason: 'thanks',
          UniqueRequestToken: 'b1',
        }),
      ),
    ).rejects.toMatchObject({ name: 'RequestError' });
  });

  it('a second import changes nothing', async () => {
    const before = await balance();
    const r = await post(records);
    expect(r.status).toBe(200);
    expect(Object.values(r.body.added).reduce((n, v) => n + (v ?? 0), 0)).toBe(0);
    expect(r.body.present.hits).toBe(1);
    expect(await balance()).toBe(before);
  });

  it('refuses workers whose display name another worker here holds, before writing anything', async () => {
    await target.running.workers.createWorker({ displayName: 'taken-name', workerId: 'AHOLDER1' });
    const other: RequesterRecords = {
      ...records,
      workers: [{ ...records.workers[0]!, _id: 'ANEWCOMER1', displayName: 'Taken-Name' }],
      hits: [],
      ledger: [],
    };
    const r = await post(JSON.parse(JSON.stringify(other)));
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/^workers: 1 display name is held by other workers here: Taken-Name \(ANEWCOMER1\)/);
    expect(await target.running.workers.getWorker('ANEWCOMER1')).toBeUndefined();
  });
});
