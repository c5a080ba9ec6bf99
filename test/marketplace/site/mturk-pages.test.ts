import { CreateHITCommand, ListAssignmentsForHITCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { parseAnswersXml } from '@qrelay/marketplace';
import { classicMturkPage, crowdFormPage, htmlQuestionOf } from '../mturk-page-fixtures.js';
import { hitParams, useMarketplace } from '../support.js';
import { SiteClient } from './client.js';

/**
 * HIT pages written for MTurk over real HTTP: the frame serves them with MTurk's script
 * addresses rewritten to the marketplace's copies (which it serves) and MTurk's submission
 * address pointed at the assignment's; the submission endpoint takes POST and GET, under
 * turkSubmitTo and at /mturk/externalSubmit for the logged-in worker. (In Chromium:
 * mturk-browser.test.ts.)
 */

const h = useMarketplace();
const PASSWORD = 'correct horse battery';
let n = 0;

async function accepted(page: string) {
  n++;
  const worker = await h.running.workers.createWorker({ displayName: `mturk-page-${n}`, password: PASSWORD });
  const client = new SiteClient(h.running.url);
  await client.login(worker.displayName, PASSWORD);
  const { HIT } = await h.client().send(new CreateHITCommand(hitParams({ Question: htmlQuestionOf(page), MaxAssignments: 1 })));
  const preview = await client.get(`/worker/hits/${HIT!.HITId}`);
  const accept = await client.post(`/worker/hits/${HIT!.HITId}/accept`, { _csrf: SiteClient.csrf(preview.html) });
  const assignmentId = /\/worker\/assignments\/([A-Z0-9]+)$/.exec(accept.location!)![1]!;
  const work = await client.get(accept.location!);
  const frameUrl = new URL(SiteClient.frameSrc(work.html));
  return {
    worker,
    client,
    hitId: HIT!.HITId!,
    assignmentId,
    frameUrl,
    turkSubmitTo: frameUrl.searchParams.get('turkSubmitTo')!,
    csrf: SiteClient.csrf(work.html),
  };
}

async function answerOf(hitId: string): Promise<Map<string, string>> {
  const { Assignments } = await h.client().send(new ListAssignmentsForHITCommand({ HITId: hitId }));
  expect(Assignments).toHaveLength(1);
  expect(Assignments![0]!.AssignmentStatus).toBe('Submitted');
  return new Map(parseAnswersXml(Assignments![0]!.Answer!).map((a) => [a.questionIdentifier, a.freeText ?? '']));
}

describe('HIT pages written for MTurk', () => {
  it("serves them with MTurk's scripts and submission address rewritten to the marketplace's", async () => {
    const a = await accepted(classicMturkPage());
    const frame = await new SiteClient(h.running.url).get(a.frameUrl.toString());
    expect(frame.status).toBe(200);
    expect(frame.html).toContain(`<script type="text/javascript" src="${h.running.url}/mturk/externalHIT_v1.js"></script>`);
    expect(frame.html).toContain(`action="${a.turkSubmitTo}/mturk/externalSubmit"`);
    expect(frame.html).not.toContain('amazonaws.com');
    expect(frame.headers.get('content-security-policy')).toContain(
      `script-src 'unsafe-inline' ${h.running.url}/mturk/externalHIT_v1.js ${h.running.url}/mturk/crowd-html-elements.js;`,
    );
    for (const name of ['externalHIT_v1.js', 'crowd-html-elements.js']) {
      const script = await fetch(`${h.running.url}/mturk/${name}`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await script.text()).toMatch(
        name === 'externalHIT_v1.js' ? /function turkGetParam\(name, defaultValue\)/ : /customElements\.define/,
      );
    }
    expect((await fetch(`${h.running.url}/mturk/other.js`)).status).toBe(404);
  });

  it('takes the form by GET under turkSubmitTo, as MTurk does', async () => {
    const a = await accepted(classicMturkPage());
    const query = new URLSearchParams([
      ['assignmentId', a.assignmentId],
      ['relevance', 'no'],
      ['comment', 'sent by GET'],
    ]);
    const res = await fetch(`${a.turkSubmitTo}/mturk/externalSubmit?${query}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Your work was submitted.');
    expect(Object.fromEntries(await answerOf(a.hitId))).toEqual({ relevance: 'no', comment: 'sent by GET' });
  });

  it('takes a crowd-form submission (taskAnswers) as one answer', async () => {
    const a = await accepted(crowdFormPage());
    const taskAnswers = JSON.stringify([{ relevant: { yes: true }, notRelevant: { no: false }, comment: 'ok' }]);
    const res = await new SiteClient(h.running.url).post(`${a.turkSubmitTo}/mturk/externalSubmit`, {
      assignmentId: a.assignmentId,
      taskAnswers,
    });
    expect(res.status).toBe(200);
    expect((await answerOf(a.hitId)).get('taskAnswers')).toBe(taskAnswers);
  });

  it("takes POST and GET at /mturk/externalSubmit for the logged-in worker's own open assignment", async () => {
    const a = await accepted(classicMturkPage());
    const b = await accepted(classicMturkPage());
    // not logged in
    expect(
      (await new SiteClient(h.running.url).post('/mturk/externalSubmit', { assignmentId: a.assignmentId, relevance: 'yes' })).status,
    ).toBe(401);
    // another worker's assignment
    expect((await b.client.post('/mturk/externalSubmit', { assignmentId: a.assignmentId, relevance: 'yes' })).status).toBe(404);
    // sent from another site
    const cross = await fetch(`${h.running.url}/mturk/externalSubmit?assignmentId=${a.assignmentId}&relevance=yes`, {
      headers: {
        cookie: (a.client as unknown as { cookieHeader: { cookie: string } }).cookieHeader.cookie,
        'sec-fetch-site': 'cross-site',
      },
    });
    expect(cross.status).toBe(403);
    // from a sandboxed frame (Origin: null), with the worker's cookie
    const framed = await fetch(`${h.running.url}/mturk/externalSubmit`, {
      method: 'POST',
      headers: {
        cookie: (a.client as unknown as { cookieHeader: { cookie: string } }).cookieHeader.cookie,
        origin: 'null',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ assignmentId: a.assignmentId, relevance: 'yes' }).toString(),
    });
    expect(framed.status).toBe(403);
    const posted = await a.client.post('/mturk/externalSubmit', { assignmentId: a.assignmentId, relevance: 'yes', comment: 'by POST' });
    expect(posted.status).toBe(200);
    expect(Object.fromEntries(await answerOf(a.hitId))).toEqual({ relevance: 'yes', comment: 'by POST' });
    const got = await b.client.get(`/mturk/externalSubmit?assignmentId=${b.assignmentId}&relevance=no&comment=by+GET`);
    expect(got.status).toBe(200);
    expect(Object.fromEntries(await answerOf(b.hitId))).toEqual({ relevance: 'no', comment: 'by GET' });
    // submitted: not again
    expect((await a.client.post('/mturk/externalSubmit', { assignmentId: a.assignmentId, relevance: 'no' })).status).toBe(409);
  });
});
