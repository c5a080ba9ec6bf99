import { CreateQualificationTypeCommand, GetQualificationScoreCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { advance, useMarketplace } from '../support.js';
import { SiteClient } from './client.js';

/**
 * Qualification tests on the worker site with the retake policy: a requester's 24-hour
 * RetryDelayInSeconds no longer locks out a worker whose test page was reloaded or who
 * failed once; by default one retake 10 minutes after the last request, then MTurk's rule.
 * The policy is set per test through the admin interface.
 */

const h = useMarketplace();
const PASSWORD = 'correct horse battery';
/** A one-question test: is Paris the capital of France (yes/no). */
const selections = ['yes', 'no']
  .map((id) => `<Selection><SelectionIdentifier>${id}</SelectionIdentifier><Text>${id}</Text></Selection>`)
  .join('');
const FORM = `<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd"><Question><QuestionIdentifier>capital</QuestionIdentifier><QuestionContent><Text>Is Paris the capital of France?</Text></QuestionContent><AnswerSpecification><SelectionAnswer><Selections>${selections}</Selections></SelectionAnswer></AnswerSpecification></Question></QuestionForm>`;
const KEY = `<AnswerKey xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd">
  <Question><QuestionIdentifier>capital</QuestionIdentifier><AnswerOption><SelectionIdentifier>yes</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>
  <QualificationValueMapping><PercentageMapping><MaximumSummedScore>1</MaximumSummedScore></PercentageMapping></QualificationValueMapping>
</AnswerKey>`;

let n = 0;
async function setting() {
  n++;
  const { QualificationType } = await h.client().send(
    new CreateQualificationTypeCommand({
      Name: `Relevance exam ${n}`,
      Description: 'an exam',
      QualificationTypeStatus: 'Active',
      Test: FORM,
      AnswerKey: KEY,
      TestDurationInSeconds: 600,
      RetryDelayInSeconds: 86_400,
    }),
  );
  const worker = await h.running.workers.createWorker({ displayName: `retaker-${n}`, password: PASSWORD });
  const client = new SiteClient(h.running.url);
  await client.login(worker.displayName, PASSWORD);
  const typeId = QualificationType!.QualificationTypeId!;
  const request = async () =>
    client.post(`/worker/qualifications/${typeId}/request`, { _csrf: SiteClient.csrf((await client.get('/worker/qualifications')).html) });
  const answer = async (testHtml: string, choice: string) =>
    client.post(`/worker/qualifications/${typeId}/test`, { _csrf: SiteClient.csrf(testHtml), 'q.capital': choice });
  const score = async () =>
    (await h.client().send(new GetQualificationScoreCommand({ QualificationTypeId: typeId, WorkerId: worker.workerId }))).Qualification!
      .IntegerValue;
  return { typeId, client, request, answer, score };
}

const policy = (typeId: string, init: RequestInit = {}) =>
  fetch(`${h.running.url}/admin/qualification-types/${typeId}/retake-policy`, {
    ...init,
    headers: { authorization: `Bearer ${h.running.adminToken}`, 'content-type': 'application/json' },
  });

describe('retaking a qualification test', () => {
  it('reloading the test page gives the same test; after a failed test, one retake 10 minutes on, then the 24-hour delay', async () => {
    const s = await setting();
    const test = await s.request();
    expect(test.status).toBe(200);
    expect((await s.request()).html).toBe(test.html); // a reload: the same test, still open
    const failed = await s.answer(test.html, 'no');
    expect(failed.html).toContain('Your score: <strong>0</strong>');
    expect(await s.score()).toBe(0);
    // the result page reloaded (the form posted again) starts nothing
    expect((await s.answer(test.html, 'yes')).status).toBe(409);
    const early = await s.request();
    expect(early.status).toBe(409);
    expect(early.html).toMatch(/again after .*\(1 retake left\)/);
    const quals = await s.client.get('/worker/qualifications');
    expect(quals.html).toMatch(/You can request it again in 10 minutes|You can request it again in 9 minutes/);
    await advance(h, 600);
    const retake = await s.request();
    expect(retake.status).toBe(200);
    expect((await s.answer(retake.html, 'yes')).html).toContain('Your score: <strong>100</strong>');
    expect(await s.score()).toBe(100);
    await advance(h, 3600);
    const spent = await s.request();
    expect(spent.status).toBe(409);
    expect(spent.html).not.toContain('retake left');
    await advance(h, 86_400);
    expect((await s.request()).status).toBe(200); // MTurk's RetryDelayInSeconds, as ever
  });

  it('a test that ran out of time can be retaken too', async () => {
    const s = await setting();
    expect((await s.request()).status).toBe(200);
    await advance(h, 601);
    expect((await s.request()).status).toBe(200);
  });

  it('follows the policy set per test through the admin interface', async () => {
    const s = await setting();
    expect(await (await policy(s.typeId)).json()).toEqual({
      qualificationTypeId: s.typeId,
      retakePolicy: { retakes: 1, delaySeconds: 600 },
      default: true,
    });
    const bad = await policy(s.typeId, { method: 'PUT', body: JSON.stringify({ retakes: -1, delaySeconds: 60 }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: [{ path: 'body.retakes' }] });
    expect((await policy('NOSUCHTYPE')).status).toBe(404);
    const set = await policy(s.typeId, { method: 'PUT', body: JSON.stringify({ retakes: 2, delaySeconds: 60 }) });
    expect(await set.json()).toEqual({ qualificationTypeId: s.typeId, retakePolicy: { retakes: 2, delaySeconds: 60 }, default: false });
    for (let take = 0; take < 3; take++) {
      const test = await s.request();
      expect(test.status, `take ${take + 1}`).toBe(200);
      await s.answer(test.html, 'no');
      await advance(h, 60);
    }
    expect((await s.request()).status).toBe(409);
    // kept across a restart
    await h.stop();
    await h.start();
    expect(await (await policy(s.typeId)).json()).toMatchObject({ retakePolicy: { retakes: 2, delaySeconds: 60 } });
  });
});
