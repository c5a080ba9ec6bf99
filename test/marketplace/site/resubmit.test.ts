import { ApproveAssignmentCommand, CreateHITCommand, GetAssignmentCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { parseAnswersXml } from '@qrelay/marketplace';
import { classicMturkPage, htmlQuestionOf } from '../mturk-page-fixtures.js';
import { hitParams, useMarketplace } from '../support.js';
import { SiteClient } from './client.js';

/**
 * A refused resubmission changes nothing: the marketplace checks the assignment's state
 * before it stores an answer, so a second form sent to externalSubmit (POST or GET, under
 * turkSubmitTo or for the logged-in worker) is answered 409 and the first answer stays,
 * whether the assignment is only submitted or already approved.
 */

const h = useMarketplace();
const PASSWORD = 'correct horse battery';
let n = 0;

async function submittedOnce() {
  n++;
  const worker = await h.running.workers.createWorker({ displayName: `resubmit-${n}`, password: PASSWORD });
  const client = new SiteClient(h.running.url);
  await client.login(worker.displayName, PASSWORD);
  const { HIT } = await h
    .client()
    .send(new CreateHITCommand(hitParams({ Question: htmlQuestionOf(classicMturkPage()), MaxAssignments: 1 })));
  const preview = await client.get(`/worker/hits/${HIT!.HITId}`);
  const accept = await client.post(`/worker/hits/${HIT!.HITId}/accept`, { _csrf: SiteClient.csrf(preview.html) });
  const assignmentId = /\/worker\/assignments\/([A-Z0-9]+)$/.exec(accept.location!)![1]!;
  const work = await client.get(accept.location!);
  const turkSubmitTo = new URL(SiteClient.frameSrc(work.html)).searchParams.get('turkSubmitTo')!;
  const first = await client.post(`${turkSubmitTo}/mturk/externalSubmit`, { assignmentId, relevance: 'yes', comment: 'first' });
  expect(first.status).toBe(200);
  return { client, assignmentId, turkSubmitTo };
}

async function storedAnswer(assignmentId: string) {
  const { Assignment } = await h.client().send(new GetAssignmentCommand({ AssignmentId: assignmentId }));
  return {
    status: Assignment!.AssignmentStatus,
    answer: Object.fromEntries(parseAnswersXml(Assignment!.Answer!).map((a) => [a.questionIdentifier, a.freeText ?? ''])),
  };
}

async function resubmitEveryWay(a: Awaited<ReturnType<typeof submittedOnce>>): Promise<number[]> {
  const second = { assignmentId: a.assignmentId, relevance: 'no', comment: 'second' };
  const query = new URLSearchParams(second).toString();
  return [
    (await a.client.post(`${a.turkSubmitTo}/mturk/externalSubmit`, second)).status,
    (await fetch(`${a.turkSubmitTo}/mturk/externalSubmit?${query}`)).status,
    (await a.client.post('/mturk/externalSubmit', second)).status,
    (await a.client.get(`/mturk/externalSubmit?${query}`)).status,
  ];
}

describe('a resubmission to externalSubmit', () => {
  it('is refused after approval (POST and GET) and the first answer stays', async () => {
    const a = await submittedOnce();
    await h.client().send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }));
    expect(await resubmitEveryWay(a)).toEqual([409, 409, 409, 409]);
    expect(await storedAnswer(a.assignmentId)).toEqual({ status: 'Approved', answer: { relevance: 'yes', comment: 'first' } });
  });

  it('is refused while the first is awaiting review, and the first answer stays', async () => {
    const a = await submittedOnce();
    expect(await resubmitEveryWay(a)).toEqual([409, 409, 409, 409]);
    expect(await storedAnswer(a.assignmentId)).toEqual({ status: 'Submitted', answer: { relevance: 'yes', comment: 'first' } });
  });
});
