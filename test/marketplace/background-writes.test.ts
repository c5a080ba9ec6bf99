import {
  ApproveAssignmentCommand,
  AssociateQualificationWithWorkerCommand,
  CreateHITCommand,
  CreateQualificationTypeCommand,
  DisassociateQualificationFromWorkerCommand,
  GetAccountBalanceCommand,
  GetHITCommand,
  GetQualificationScoreCommand,
  ListAssignmentsForHITCommand,
  ListWorkersWithQualificationTypeCommand,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { hitParams, htmlQuestion, newWorker, useMarketplace } from './support.js';

/**
 * A throwaway marketplace (a simulation's private one) writes new HITs and their questions,
 * HIT changes, submitted answers, payments and workers' qualification values after they show (`writes:
 * 'background'`, packages/marketplace/src/store/background-writer.ts): the same answers at
 * once, the same documents in the database once flushed, on close and before an export,
 * and a write that fails is not lost silently.
 */
const h = useMarketplace({ writes: 'background' });

const storedHit = (id: string) =>
  h.db.connection
    .useDb(h.running.marketplace.dbName)
    .collection<{ _id: string; version: number; assignments: { id: string; status: string }[] }>('hits')
    .findOne({ _id: id });

describe('HIT changes, answers, payments and qualification values written in the background', () => {
  it('answers from the new state at once and has it in the database after a flush, a close and an export', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'background-1', MaxAssignments: 2 })));
    const hitId = HIT!.HITId!;
    const w = await newWorker(h);
    const a = await h.running.workers.acceptHit(w.workerId, hitId);
    await h.running.workers.submitAssignment(w.workerId, a.assignmentId, { relevance: 'yes', why: 'stated directly' });
    await client.send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }));
    // the answer comes from memory: the approval shows whether or not it is written yet
    expect((await client.send(new GetHITCommand({ HITId: hitId }))).HIT).toMatchObject({ NumberOfAssignmentsCompleted: 1 });
    await h.running.marketplace.flush();
    const flushed = await storedHit(hitId);
    expect(flushed?.version).toBe(h.running.marketplace.hits.versionOf(hitId));
    expect(flushed?.assignments).toEqual([expect.objectContaining({ id: a.assignmentId, status: 'Approved' })]);

    // a burst of changes to many HITs (each written after it shows, 50 a bulk write), then
    // the records, read from the database, at once: the export waits for the last of them
    const hits = h.running.marketplace.hits;
    const copies = Array.from({ length: 150 }, (_, i) => `${hitId}C${String(i).padStart(3, '0')}`);
    for (const id of copies) await hits.insert({ ...hits.get(hitId)!, id, assignments: [] });
    await Promise.all(
      copies.map((id) => {
        const current = hits.get(id)!;
        return hits.replace({ ...current, requesterAnnotation: 'changed' }, hits.versionOf(id)!);
      }),
    );
    const res = await fetch(`${h.running.url}/admin/records`, { headers: { authorization: `Bearer ${h.running.adminToken}` } });
    const records = (await res.json()) as { hits: { _id: string; version: number; requesterAnnotation?: string }[] };
    const exported = records.hits.filter((x) => copies.includes(x._id));
    expect(exported.map((x) => [x.version, x.requesterAnnotation])).toEqual(copies.map(() => [2, 'changed']));
    const w2 = await newWorker(h);
    const b = await h.running.workers.acceptHit(w2.workerId, hitId);

    // and one more, then a restart: closing writes it, the next start reads it back
    await h.running.workers.submitAssignment(w2.workerId, b.assignmentId, { relevance: 'no', why: 'off topic' });
    const before = (await client.send(new GetHITCommand({ HITId: hitId }))).HIT;
    await h.stop();
    expect((await storedHit(hitId))?.assignments.map((x) => x.status)).toEqual(['Approved', 'Submitted']);
    await h.start();
    expect((await h.client().send(new GetHITCommand({ HITId: hitId }))).HIT).toEqual(before);
  });

  it('creates a HIT in memory at once: its question, a retry and a restart agree, and the database has both after a flush', async () => {
    const client = h.client();
    const db = h.db.connection.useDb(h.running.marketplace.dbName);
    const params = hitParams({ UniqueRequestToken: 'background-5', Question: htmlQuestion('<p>held for a moment</p>') });
    const { HIT } = await client.send(new CreateHITCommand(params));
    const hitId = HIT!.HITId!;
    // the HIT and its question are answered from memory, written or not
    const shown = (await client.send(new GetHITCommand({ HITId: hitId }))).HIT;
    expect(shown?.Question).toContain('held for a moment');
    const w = await newWorker(h);
    await h.running.workers.acceptHit(w.workerId, hitId);
    // a retry with the same token is told the HIT exists, as MTurk tells it
    await expect(client.send(new CreateHITCommand(params))).rejects.toThrow(new RegExp(`HITId ${hitId}`));
    await h.running.marketplace.flush();
    expect(await db.collection<{ _id: string; xml: string }>('questions').findOne({ _id: hitId })).toMatchObject({
      xml: expect.stringContaining('held for a moment'),
    });
    expect(await db.collection<{ _id: string; uniqueRequestToken?: string }>('hits').findOne({ _id: hitId })).toMatchObject({
      uniqueRequestToken: 'background-5',
      assignments: [expect.objectContaining({ workerId: w.workerId, status: 'Accepted' })],
    });
    const before = (await client.send(new GetHITCommand({ HITId: hitId }))).HIT;
    await h.stop();
    await h.start();
    expect((await h.client().send(new GetHITCommand({ HITId: hitId }))).HIT).toEqual(before);
  });

  it('reads an answer submitted a moment ago from memory, and has it in the database after a flush', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'background-3' })));
    const w = await newWorker(h);
    const a = await h.running.workers.acceptHit(w.workerId, HIT!.HITId!);
    await h.running.workers.submitAssignment(w.workerId, a.assignmentId, { relevance: 'no', why: 'a different product' });
    const listed = await client.send(new ListAssignmentsForHITCommand({ HITId: HIT!.HITId! }));
    expect(listed.Assignments?.[0]?.Answer).toContain('a different product');
    await h.running.marketplace.flush();
    const stored = await h.db.connection
      .useDb(h.running.marketplace.dbName)
      .collection<{ _id: string; xml: string; hitId: string }>('answers')
      .findOne({ _id: a.assignmentId });
    expect(stored).toMatchObject({ hitId: HIT!.HITId!, xml: listed.Assignments![0]!.Answer });
  });

  it('posts a payment in memory at once: the balance shows it, the database has it after a flush, the audit agrees', async () => {
    const client = h.client();
    const ledger = () => h.db.connection.useDb(h.running.marketplace.dbName).collection<{ _id: string; amountCents: number }>('ledger');
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'background-4', Reward: '0.50' })));
    const w = await newWorker(h);
    const a = await h.running.workers.acceptHit(w.workerId, HIT!.HITId!);
    await h.running.workers.submitAssignment(w.workerId, a.assignmentId, { relevance: 'yes', why: 'named in the text' });
    const before = Number((await client.send(new GetAccountBalanceCommand({}))).AvailableBalance);
    await client.send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }));
    // the reward and MTurk's fee (20% of it, at least $0.01) leave the balance at once
    const after = Number((await client.send(new GetAccountBalanceCommand({}))).AvailableBalance);
    expect(Math.round((before - after) * 100)).toBe(60);
    await h.running.marketplace.flush();
    expect(await ledger().findOne({ _id: `approval:${a.assignmentId}` })).toMatchObject({ amountCents: -60 });
    const audit = await h.running.marketplace.ledger.audit();
    expect(audit.storedBalanceCents).toBe(audit.workingBalanceCents);
    expect(audit.entries).toBe(await ledger().countDocuments());
    // a restart reads the same balance back from the stored entries
    await h.stop();
    await h.start();
    expect(Number((await h.client().send(new GetAccountBalanceCommand({}))).AvailableBalance)).toBe(after);
  });

  it("sets a worker's qualification value in memory at once: reads, listings and a restart agree", async () => {
    const client = h.client();
    const stored = () =>
      h.db.connection
        .useDb(h.running.marketplace.dbName)
        .collection<{ _id: string; integerValue: number; status: string }>('worker_qualifications')
        .find({})
        .toArray();
    const { QualificationType } = await client.send(
      new CreateQualificationTypeCommand({ Name: 'Reputation here', Description: 'a score', QualificationTypeStatus: 'Active' }),
    );
    const typeId = QualificationType!.QualificationTypeId!;
    const w = await newWorker(h);
    const score = async () =>
      (await h.client().send(new GetQualificationScoreCommand({ QualificationTypeId: typeId, WorkerId: w.workerId }))).Qualification;
    for (const value of [70, 80])
      await client.send(
        new AssociateQualificationWithWorkerCommand({
          QualificationTypeId: typeId,
          WorkerId: w.workerId,
          IntegerValue: value,
          SendNotification: false,
        }),
      );
    expect(await score()).toMatchObject({ IntegerValue: 80, Status: 'Granted' });
    // a listing reads the database: what is held for a background write is written first
    const listed = await client.send(new ListWorkersWithQualificationTypeCommand({ QualificationTypeId: typeId }));
    expect(listed.Qualifications?.map((q) => [q.WorkerId, q.IntegerValue])).toEqual([[w.workerId, 80]]);
    await client.send(
      new DisassociateQualificationFromWorkerCommand({ QualificationTypeId: typeId, WorkerId: w.workerId, Reason: 'test' }),
    );
    expect(await score()).toMatchObject({ IntegerValue: 80, Status: 'Revoked' });
    await h.running.marketplace.flush();
    expect((await stored()).filter((d) => d._id.includes(w.workerId))).toEqual([
      expect.objectContaining({ integerValue: 80, status: 'Revoked' }),
    ]);
    await h.stop();
    await h.start();
    expect(await score()).toMatchObject({ IntegerValue: 80, Status: 'Revoked' });
  });

  it('fails the next flush and every later change when a write did not reach the HIT', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'background-2' })));
    const hitId = HIT!.HITId!;
    await h.running.marketplace.flush(); // the new HIT is in the database
    // the document vanishes underneath the marketplace (an operator, another process): the background write matches nothing
    await h.db.connection.useDb(h.running.marketplace.dbName).collection<{ _id: string }>('hits').deleteOne({ _id: hitId });
    const w = await newWorker(h);
    await h.running.workers.acceptHit(w.workerId, hitId);
    await expect(h.running.marketplace.flush()).rejects.toThrow(/1 of 1 HITs written in the background were not in the database/);
    const w2 = await newWorker(h);
    await expect(h.running.workers.acceptHit(w2.workerId, hitId)).rejects.toThrow(/written in the background/);
  });
});
