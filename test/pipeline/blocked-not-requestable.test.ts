import {
  AssociateQualificationWithWorkerCommand,
  GetQualificationTypeCommand,
  ListQualificationRequestsCommand,
  ListQualificationTypesCommand,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { requireBatch } from '../../src/batches/index.js';
import { BLOCKED_QUALIFICATION, BLOCKED_TYPE_NAME } from '../../src/pipeline/blocked-qualification.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { useMarketplace } from '../marketplace/support.js';
import { SiteClient } from '../marketplace/site/client.js';
import { importSampleBatch, tempDir, testContext } from './support.js';

/**
 * Issue 33 item 2: the qualification qrelay blocks workers with (every HIT type requires it
 * NOT to exist) is never requestable on the worker site, and its name and description tell
 * the worker nothing hostile: the batch is published by the pipeline through the real SDK,
 * workers look at the bundled marketplace's worker site over HTTP.
 */

const h = useMarketplace();
const dir = tempDir();
const PASSWORD = 'a long enough password';
const HOSTILE = /block|bad|fail|did not follow|stopp|ban/i;

/** The page's "You can request" part. */
const requestablePart = (html: string) => html.slice(html.indexOf('<h2>You can request</h2>'));

describe("qrelay's blocking qualification on the worker site", () => {
  it('is not requestable, and its name tells the worker nothing hostile', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'blk-a', 4);
    await publishBatch(ctx, 'blk-a', { preset: 'quick', target: h.running.url }, 'local');
    const typeId = (await requireBatch(ctx, 'blk-a')).qualificationIds[BLOCKED_QUALIFICATION]!;
    expect(typeId).toBeTruthy();

    // the Requester API: a neutral name, not requestable, not among the requestable types
    const client = h.client();
    const { QualificationType } = await client.send(new GetQualificationTypeCommand({ QualificationTypeId: typeId }));
    expect(QualificationType).toMatchObject({ Name: BLOCKED_TYPE_NAME, IsRequestable: false, QualificationTypeStatus: 'Active' });
    expect(`${QualificationType!.Name} ${QualificationType!.Description} ${QualificationType!.Keywords}`).not.toMatch(HOSTILE);
    const requestable = await client.send(new ListQualificationTypesCommand({ MustBeRequestable: true, MaxResults: 100 }));
    expect((requestable.QualificationTypes ?? []).map((t) => t.QualificationTypeId)).not.toContain(typeId);

    // a worker in good standing: it is not offered, and asking for it anyway is refused
    await h.running.workers.createWorker({ displayName: 'erin', password: PASSWORD });
    const erin = new SiteClient(h.running.url);
    await erin.login('erin', PASSWORD);
    const quals = await erin.get('/worker/qualifications');
    expect(quals.status).toBe(200);
    expect(requestablePart(quals.html)).not.toContain(typeId);
    expect(requestablePart(quals.html)).not.toContain(BLOCKED_TYPE_NAME);
    const asked = await erin.post(`/worker/qualifications/${typeId}/request`, { _csrf: SiteClient.csrf(quals.html) });
    expect(asked.status).toBeGreaterThanOrEqual(400);
    expect(asked.html).toContain('not open to requests');
    const requests = await client.send(new ListQualificationRequestsCommand({ QualificationTypeId: typeId }));
    expect(requests.QualificationRequests ?? []).toEqual([]);
    expect((await erin.get('/worker/qualifications')).html).not.toMatch(/Your request waits/);

    // a blocked worker: the HITs say what keeps them out in neutral words, and offer no request
    const frank = await h.running.workers.createWorker({ displayName: 'frank', password: PASSWORD });
    await client.send(
      new AssociateQualificationWithWorkerCommand({
        QualificationTypeId: typeId,
        WorkerId: frank.workerId,
        IntegerValue: 1,
        SendNotification: false,
      }),
    );
    const site = new SiteClient(h.running.url);
    await site.login('frank', PASSWORD);
    const hits = await site.get('/worker/hits');
    expect(hits.html).toContain(`${BLOCKED_TYPE_NAME} not held`);
    expect(hits.html).not.toContain('Request the qualification');
    const own = await site.get('/worker/qualifications');
    expect(own.html).toContain(`<td>${BLOCKED_TYPE_NAME}</td>`);
    expect(requestablePart(own.html)).not.toContain(typeId);
    expect(own.html).not.toMatch(HOSTILE);
  });
});
