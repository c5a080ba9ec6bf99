import {
  ApproveAssignmentCommand,
  CreateHITCommand,
  CreateQualificationTypeCommand,
  CreateWorkerBlockCommand,
  GetAssignmentCommand,
  ListAssignmentsForHITCommand,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { SYSTEM_QUALIFICATION_IDS } from '@qrelay/marketplace';
import { relevanceQuestion } from '../hit-pages.js';
import { hitParams, useMarketplace } from '../support.js';
import { SiteClient } from './client.js';

/**
 * The worker site over real HTTP, without a browser: sessions and CSRF, the HIT list and
 * its rules, accepting, the HIT frame and its capability, submitting, returning,
 * QuestionForm HITs, qualification tests, and that nobody sees another worker's work.
 */

const h = useMarketplace();
const PASSWORD = 'correct horse battery';
let n = 0;

async function account(profile = {}) {
  n++;
  const w = await h.running.workers.createWorker({ displayName: `site-${n}`, password: PASSWORD, profile });
  const client = new SiteClient(h.running.url);
  await client.login(w.displayName, PASSWORD);
  return { worker: w, client };
}

async function createHit(overrides: Record<string, unknown> = {}) {
  const { HIT } = await h.client().send(new CreateHITCommand(hitParams(overrides)));
  return HIT!;
}

describe('logging in and out', () => {
  it('checks the password and the CSRF token, and sets a signed HttpOnly SameSite=Lax cookie', async () => {
    await h.running.workers.createWorker({ displayName: 'Ada', password: PASSWORD });
    const c = new SiteClient(h.running.url);
    const page = await c.get('/worker/login');
    expect(c.lastSetCookie[0]).toMatch(/^qrelay_worker_session=[^;]+; Max-Age=43200; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    expect((await c.get('/worker/hits')).location).toBe('/worker/login?next=%2Fworker%2Fhits');
    const csrf = SiteClient.csrf(page.html);
    expect((await c.post('/worker/login', { name: 'ada', password: PASSWORD })).status).toBe(403);
    expect((await c.post('/worker/login', { _csrf: 'forged', name: 'ada', password: PASSWORD })).status).toBe(403);
    const wrong = await c.post('/worker/login', { _csrf: csrf, name: 'ada', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('The name or the password is not right.');
    const ok = await c.post('/worker/login', { _csrf: csrf, name: 'ada', password: PASSWORD, next: '//evil.example/x' });
    expect(ok).toMatchObject({ status: 303, location: '/worker/hits' });
    const hits = await c.get('/worker/hits');
    expect(hits.status).toBe(200);
    expect(hits.html).toContain('Ada');
    expect(hits.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    // the old session's CSRF token does not outlive the login
    expect((await c.post('/worker/logout', { _csrf: csrf })).status).toBe(403);
    expect(await c.post('/worker/logout', { _csrf: SiteClient.csrf(hits.html) })).toMatchObject({
      status: 303,
      location: '/worker/login?notice=logged-out',
    });
    expect((await c.get('/worker/hits')).status).toBe(303);
  });

  it('ends the session on the server at logout: a copied cookie stops working, after a restart too', async () => {
    const { client } = await account();
    const hits = await client.get('/worker/hits');
    expect(hits.status).toBe(200);
    const copy = new SiteClient(h.running.url);
    const cookies = (client as unknown as { cookies: Map<string, string> }).cookies;
    (copy as unknown as { cookies: Map<string, string> }).cookies = new Map(cookies);
    expect((await copy.get('/worker/hits')).status).toBe(200);
    expect(await client.post('/worker/logout', { _csrf: SiteClient.csrf(hits.html) })).toMatchObject({ status: 303 });
    expect(await copy.get('/worker/hits')).toMatchObject({ status: 303, location: '/worker/login?next=%2Fworker%2Fhits' });
    // a POST with the copied cookie and its old CSRF token is refused as well
    expect((await copy.post('/worker/logout', { _csrf: SiteClient.csrf(hits.html) })).status).toBe(403);
    await h.stop();
    await h.start();
    const stale = new SiteClient(h.running.url);
    (stale as unknown as { cookies: Map<string, string> }).cookies = new Map(cookies);
    expect((await stale.get('/worker/hits')).status).toBe(303);
  });

  it('refuses a tampered session cookie', async () => {
    const { client } = await account();
    const forged = new SiteClient(h.running.url);
    const value = Buffer.from(JSON.stringify({ s: 'x', w: 'AOTHERWORKER', e: Date.now() + 1e6 })).toString('base64url');
    (forged as unknown as { cookies: Map<string, string> }).cookies.set('qrelay_worker_session', `${value}.${'A'.repeat(32)}`);
    expect((await forged.get('/worker/hits')).status).toBe(303);
    expect((await client.get('/worker/hits')).status).toBe(200);
  });
});

describe('finding and doing work', () => {
  it('lists HITs grouped by type with reward, time and expiry, escaping every requester text', async () => {
    const title = 'Judge <script>alert(1)</script> passages';
    await createHit({ Title: title, Reward: '0.55', AssignmentDurationInSeconds: 900 });
    await createHit({ Title: title, Reward: '0.55', AssignmentDurationInSeconds: 900 });
    const { client } = await account();
    const page = await client.get('/worker/hits');
    expect(page.html).not.toContain('<script>alert(1)</script>');
    const group = page.html.slice(page.html.indexOf('Judge &lt;script&gt;alert(1)&lt;/script&gt; passages'));
    expect(group).toContain('$0.55 per assignment');
    expect(group).toContain('15 minutes');
    expect(group).toMatch(/2 HIT\(s\), 6 assignment\(s\)/);
    expect(group).toMatch(/in 23 hours 59 minutes|in 1 day/);
  });

  it('hides, previews and refuses by the HIT qualification requirements and blocks', async () => {
    const locale = (guard: string) => [
      {
        QualificationTypeId: SYSTEM_QUALIFICATION_IDS.locale,
        Comparator: 'EqualTo',
        LocaleValues: [{ Country: 'DE' }],
        ActionsGuarded: guard,
      },
    ];
    const hidden = await createHit({ Title: 'Hidden from you', QualificationRequirements: locale('DiscoverPreviewAndAccept') });
    const noPreview = await createHit({ Title: 'No preview for you', QualificationRequirements: locale('PreviewAndAccept') });
    const noAccept = await createHit({ Title: 'Look but do not take', QualificationRequirements: locale('Accept') });
    const { client, worker } = await account({ locale: { Country: 'US' } });
    const list = await client.get('/worker/hits');
    expect(list.html).not.toContain('Hidden from you');
    expect(list.html).toContain('No preview for you');
    expect(list.html).toContain('Worker_Locale equal to DE');
    expect((await client.get(`/worker/hits/${hidden.HITId}`)).status).toBe(410);
    const np = await client.get(`/worker/hits/${noPreview.HITId}`);
    expect(np.html).not.toContain('hit-frame');
    const na = await client.get(`/worker/hits/${noAccept.HITId}`);
    expect(na.html).toContain('id="hit-frame"');
    expect(na.html).not.toContain('Accept &amp; work');
    const refused = await client.post(`/worker/hits/${noAccept.HITId}/accept`, { _csrf: SiteClient.csrf(na.html) });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('You do not meet the qualification requirements of this HIT (Worker_Locale)');

    await h.client().send(new CreateWorkerBlockCommand({ WorkerId: worker.workerId, Reason: 'test' }));
    const blocked = await client.get('/worker/hits');
    expect(blocked.html).toContain('No HITs are available to you right now.');
    expect((await client.get(`/worker/hits/${noAccept.HITId}`)).status).toBe(403);
  });

  it('accepts, serves the HIT in a sandboxed frame under a strict CSP, and records the submitted form as MTurk does', async () => {
    const hit = await createHit({ Question: relevanceQuestion([{ key: 'aaaa000000000001' }, { key: 'aaaa000000000002' }]) });
    const { client, worker } = await account();
    const preview = await client.get(`/worker/hits/${hit.HITId}`);
    const previewSrc = SiteClient.frameSrc(preview.html);
    expect(previewSrc).toMatch(
      new RegExp(
        `^${h.running.url}/worker/preview/${hit.HITId}/${worker.workerId}\\.[\\w-]{32}\\?assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=${hit.HITId}$`,
      ),
    );
    expect(preview.html).toContain('sandbox="allow-scripts allow-forms"');
    expect((await new SiteClient(h.running.url).get(previewSrc)).html).toContain('data-sim-key="aaaa000000000001"');

    const accepted = await client.post(`/worker/hits/${hit.HITId}/accept`, { _csrf: SiteClient.csrf(preview.html) });
    expect(accepted.status).toBe(303);
    const assignmentId = /\/worker\/assignments\/([A-Z0-9]+)$/.exec(accepted.location!)![1]!;
    const work = await client.get(accepted.location!);
    expect(work.html).toContain('sandbox="allow-scripts allow-forms"');
    const src = new URL(SiteClient.frameSrc(work.html));
    const token = /^\/worker\/frame\/([A-Z0-9]+\.[\w-]{32})$/.exec(src.pathname)![1]!;
    expect(Object.fromEntries(src.searchParams)).toEqual({
      assignmentId,
      hitId: hit.HITId,
      workerId: worker.workerId,
      turkSubmitTo: `${h.running.url}/submit/${token}`,
    });

    // the frame needs no cookie: its address is the capability
    const frame = await new SiteClient(h.running.url).get(src.toString());
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-security-policy')).toBe(
      `default-src 'none'; script-src 'unsafe-inline' ${h.running.url}/mturk/externalHIT_v1.js ${h.running.url}/mturk/crowd-html-elements.js; style-src 'unsafe-inline'; img-src data:; form-action ${h.running.url}; frame-ancestors 'self'; base-uri 'none'; sandbox allow-scripts allow-forms`,
    );
    expect(frame.headers.get('referrer-policy')).toBe('no-referrer');
    expect(frame.html).toContain('data-sim-key="aaaa000000000002"');

    const fields: [string, string][] = [
      ['assignmentId', assignmentId],
      ['item1_answer', 'yes'],
      ['item1_comment', 'fine & <clear>'],
      ['item1_ms', '1200'],
      ['item2_answer', 'no'],
      ['item2_difficult', 'yes'],
      ['item2_comment', ''],
      ['item2_ms', '800'],
    ];
    const submitted = await new SiteClient(h.running.url).post(`${src.searchParams.get('turkSubmitTo')}/mturk/externalSubmit`, fields);
    expect(submitted.status).toBe(200);
    expect(submitted.html).toContain("parent.postMessage({ type: 'qrelay:submitted' }, '*');");
    const { Assignments } = await h.client().send(new ListAssignmentsForHITCommand({ HITId: hit.HITId }));
    expect(Assignments).toHaveLength(1);
    expect(Assignments![0]).toMatchObject({ AssignmentId: assignmentId, WorkerId: worker.workerId, AssignmentStatus: 'Submitted' });
    expect(Assignments![0]!.Answer).toBe(
      '<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd">' +
        '<Answer><QuestionIdentifier>item1_answer</QuestionIdentifier><FreeText>yes</FreeText></Answer>' +
        '<Answer><QuestionIdentifier>item1_comment</QuestionIdentifier><FreeText>fine &amp; &lt;clear&gt;</FreeText></Answer>' +
        '<Answer><QuestionIdentifier>item1_ms</QuestionIdentifier><FreeText>1200</FreeText></Answer>' +
        '<Answer><QuestionIdentifier>item2_answer</QuestionIdentifier><FreeText>no</FreeText></Answer>' +
        '<Answer><QuestionIdentifier>item2_difficult</QuestionIdentifier><FreeText>yes</FreeText></Answer>' +
        '<Answer><QuestionIdentifier>item2_comment</QuestionIdentifier><FreeText></FreeText></Answer>' +
        '<Answer><QuestionIdentifier>item2_ms</QuestionIdentifier><FreeText>800</FreeText></Answer>' +
        '</QuestionFormAnswers>',
    );
    // once submitted, neither the frame nor the endpoint take it again
    expect((await new SiteClient(h.running.url).get(src.toString())).status).toBe(410);
    expect((await new SiteClient(h.running.url).post(`${src.searchParams.get('turkSubmitTo')}/mturk/externalSubmit`, fields)).status).toBe(
      409,
    );
    const mine = await client.get(`/worker/assignments/${assignmentId}`);
    expect(mine.html).toContain('Submitted');
    expect(mine.html).toContain('fine &amp; &lt;clear&gt;');

    await h.client().send(new ApproveAssignmentCommand({ AssignmentId: assignmentId }));
    const myWork = await client.get('/worker/assignments');
    expect(myWork.html).toMatch(/Approved rewards<\/dt><dd>\$0\.50/);
  });

  it('never lets another worker open, see or submit an assignment', async () => {
    const hit = await createHit({ Question: relevanceQuestion([{ key: 'bbbb000000000001' }]) });
    const alice = await account();
    const bob = await account();
    const view = await alice.client.get(`/worker/hits/${hit.HITId}`);
    const accepted = await alice.client.post(`/worker/hits/${hit.HITId}/accept`, { _csrf: SiteClient.csrf(view.html) });
    const assignmentId = accepted.location!.split('/').pop()!;
    const src = new URL(SiteClient.frameSrc((await alice.client.get(accepted.location!)).html));
    const token = src.pathname.split('/').pop()!;

    const bobs = await bob.client.get(`/worker/assignments/${assignmentId}`);
    expect(bobs.status).toBe(404);
    expect(bobs.html).not.toContain('hit-frame');
    const bobView = await bob.client.get('/worker/assignments');
    expect(bobView.html).not.toContain(assignmentId);
    // a made-up token for Alice's assignment opens nothing, submits nothing
    const forged = `${assignmentId}.${'x'.repeat(32)}`;
    expect((await bob.client.get(`/worker/frame/${forged}`)).status).toBe(404);
    expect((await bob.client.post(`/submit/${forged}/mturk/externalSubmit`, { assignmentId, item1_answer: 'no' })).status).toBe(404);
    // Bob's own assignment's token cannot carry Alice's assignment id in its form
    const bobHit = await bob.client.get(`/worker/hits/${hit.HITId}`);
    const bobAccepted = await bob.client.post(`/worker/hits/${hit.HITId}/accept`, { _csrf: SiteClient.csrf(bobHit.html) });
    const bobSrc = new URL(SiteClient.frameSrc((await bob.client.get(bobAccepted.location!)).html));
    const crossed = await bob.client.post(`${bobSrc.searchParams.get('turkSubmitTo')}/mturk/externalSubmit`, {
      assignmentId,
      item1_answer: 'no',
    });
    expect(crossed.status).toBe(400);
    expect(crossed.html).toContain('is not the assignment this page was opened for');
    // Alice can still return hers; then its link is dead
    const aliceWork = await alice.client.get(`/worker/assignments/${assignmentId}`);
    const returned = await alice.client.post(`/worker/assignments/${assignmentId}/return`, { _csrf: SiteClient.csrf(aliceWork.html) });
    expect(returned).toMatchObject({ status: 303, location: '/worker/hits?notice=returned' });
    expect((await alice.client.get(`/worker/frame/${token}`)).status).toBe(404);
    expect((await alice.client.get(`/worker/assignments/${assignmentId}`)).status).toBe(404);
  });

  it('abandons work whose time ran out: its frame and page are gone, the slot is back', async () => {
    const hit = await createHit({
      Question: relevanceQuestion([{ key: 'dddd000000000001' }]),
      AssignmentDurationInSeconds: 60,
      MaxAssignments: 1,
    });
    const { client } = await account();
    const view = await client.get(`/worker/hits/${hit.HITId}`);
    const accepted = await client.post(`/worker/hits/${hit.HITId}/accept`, { _csrf: SiteClient.csrf(view.html) });
    const work = await client.get(accepted.location!);
    expect(work.html).toMatch(/Submit before<\/dt><dd>[^<]+ \(in (?:1 minute|5\d seconds)\)/);
    const src = new URL(SiteClient.frameSrc(work.html));
    h.running.marketplace.clock.advance(61_000);
    const frame = await client.get(src.toString());
    expect(frame.status).toBe(404);
    expect(frame.html).toContain('its time ran out');
    expect(
      (
        await client.post(`${src.searchParams.get('turkSubmitTo')}/mturk/externalSubmit`, {
          assignmentId: accepted.location!.split('/').pop()!,
          item1_answer: 'yes',
        })
      ).status,
    ).toBe(404);
    expect((await client.get(accepted.location!)).status).toBe(404);
    const again = await client.get(`/worker/hits/${hit.HITId}`);
    expect(again.html).toContain('Accept &amp; work');
  });

  it('opens an ExternalQuestion at its URL with the MTurk parameters appended', async () => {
    const external =
      '<ExternalQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd"><ExternalURL>http://localhost:9/task?study=7</ExternalURL><FrameHeight>600</FrameHeight></ExternalQuestion>';
    const hit = await createHit({ Question: external });
    const { client, worker } = await account();
    const view = await client.get(`/worker/hits/${hit.HITId}`);
    expect(SiteClient.frameSrc(view.html)).toBe(
      `http://localhost:9/task?study=7&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=${hit.HITId}`,
    );
    expect(view.headers.get('content-security-policy')).toContain("frame-src 'self' http://localhost:9;");
    const accepted = await client.post(`/worker/hits/${hit.HITId}/accept`, { _csrf: SiteClient.csrf(view.html) });
    const work = await client.get(accepted.location!);
    expect(work.html).toContain('sandbox="allow-scripts allow-forms allow-same-origin allow-popups"');
    expect(work.html).toContain('data-height="600"');
    const opened = await client.get(SiteClient.frameSrc(work.html));
    expect(opened.status).toBe(303);
    const to = new URL(opened.location!);
    expect(to.origin + to.pathname).toBe('http://localhost:9/task');
    expect(to.searchParams.get('study')).toBe('7');
    expect(to.searchParams.get('workerId')).toBe(worker.workerId);
    expect(to.searchParams.get('turkSubmitTo')).toMatch(new RegExp(`^${h.running.url}/submit/[A-Z0-9]+\\.[\\w-]{32}$`));
  });
});

const FORM = `<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd">
  <Overview><Title>Read first</Title><Text>Judge the passage.</Text></Overview>
  <Question><QuestionIdentifier>label</QuestionIdentifier><IsRequired>true</IsRequired>
    <QuestionContent><Text>Query: capital of France</Text><List><ListItem>Paris</ListItem></List>
      <FormattedContent><![CDATA[<p>Passage: <b>Paris</b> is the capital.<script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">link</a></p>]]></FormattedContent>
      <Binary><MimeType><Type>image</Type><SubType>png</SubType></MimeType><DataURL>https://example.com/x.png</DataURL><AltText>x</AltText></Binary>
    </QuestionContent>
    <AnswerSpecification><SelectionAnswer><Selections>
      <Selection><SelectionIdentifier>yes</SelectionIdentifier><Text>Yes &amp; sure</Text></Selection>
      <Selection><SelectionIdentifier>no</SelectionIdentifier><Text>No</Text></Selection>
    </Selections></SelectionAnswer></AnswerSpecification></Question>
  <Question><QuestionIdentifier>why</QuestionIdentifier><QuestionContent><Text>Why?</Text></QuestionContent>
    <AnswerSpecification><FreeTextAnswer><NumberOfLinesSuggestion>3</NumberOfLinesSuggestion></FreeTextAnswer></AnswerSpecification></Question>
</QuestionForm>`;

const ANSWER_KEY = `<AnswerKey xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd">
  <Question><QuestionIdentifier>label</QuestionIdentifier><AnswerOption><SelectionIdentifier>yes</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>
  <QualificationValueMapping><PercentageMapping><MaximumSummedScore>1</MaximumSummedScore></PercentageMapping></QualificationValueMapping>
</AnswerKey>`;

describe('QuestionForms', () => {
  it('renders a QuestionForm HIT in its frame in document order, sanitised, and records selection identifiers', async () => {
    const hit = await createHit({ Question: FORM });
    const { client } = await account();
    const view = await client.get(`/worker/hits/${hit.HITId}`);
    const preview = await client.get(SiteClient.frameSrc(view.html));
    expect(preview.html).toMatch(/<input id="q1-1" type="radio" name="label" value="yes" required disabled>/);
    const accepted = await client.post(`/worker/hits/${hit.HITId}/accept`, { _csrf: SiteClient.csrf(view.html) });
    const assignmentId = accepted.location!.split('/').pop()!;
    const src = SiteClient.frameSrc((await client.get(accepted.location!)).html);
    const frame = await client.get(src);
    expect(frame.headers.get('content-security-policy')).toBe(
      `default-src 'none'; style-src 'unsafe-inline'; form-action ${h.running.url}; frame-ancestors 'self'; base-uri 'none'; sandbox allow-forms`,
    );
    const html = frame.html;
    const order = [
      '<h3>Read first</h3>',
      'Judge the passage.',
      'Query: capital of France',
      '<li>Paris</li>',
      '<p>Passage: <b>Paris</b> is the capital.link</p>',
      '[Binary content is not shown',
    ];
    const positions = order.map((s) => html.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(html).not.toMatch(/<script>alert|onerror|javascript:|<img/);
    expect(html).toContain('Yes &amp; sure');
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
    expect(action).toBe(`${new URL(src).searchParams.get('turkSubmitTo')}/mturk/externalSubmit`);
    expect((await client.post(action, { assignmentId, label: 'no', why: 'it says so' })).status).toBe(200);
    const { Assignment } = await h.client().send(new GetAssignmentCommand({ AssignmentId: assignmentId }));
    expect(Assignment!.Answer).toContain(
      '<Answer><QuestionIdentifier>label</QuestionIdentifier><SelectionIdentifier>no</SelectionIdentifier></Answer>',
    );
    expect(Assignment!.Answer).toContain('<Answer><QuestionIdentifier>why</QuestionIdentifier><FreeText>it says so</FreeText></Answer>');
  });

  it('gives a qualification test, scores it with the answer key and shows the score', async () => {
    const { QualificationType } = await h.client().send(
      new CreateQualificationTypeCommand({
        Name: 'Site exam <b>',
        Description: 'an exam',
        QualificationTypeStatus: 'Active',
        Test: FORM,
        AnswerKey: ANSWER_KEY,
        TestDurationInSeconds: 600,
      }),
    );
    const typeId = QualificationType!.QualificationTypeId!;
    await createHit({
      Title: 'Needs the site exam',
      QualificationRequirements: [{ QualificationTypeId: typeId, Comparator: 'GreaterThanOrEqualTo', IntegerValues: [100] }],
    });
    const { client } = await account();
    const list = await client.get('/worker/hits');
    expect(list.html).toContain('Site exam &lt;b&gt; at least 100');
    const quals = await client.get('/worker/qualifications');
    expect(quals.html).toContain('Take the test');
    const test = await client.post(`/worker/qualifications/${typeId}/request`, { _csrf: SiteClient.csrf(quals.html) });
    expect(test.status).toBe(200);
    expect(test.html).toContain('<h1>Test: Site exam &lt;b&gt;</h1>');
    expect(test.html).toMatch(/name="q\.label" value="yes"/);
    const result = await client.post(`/worker/qualifications/${typeId}/test`, {
      _csrf: SiteClient.csrf(test.html),
      'q.label': 'yes',
      'q.why': 'because',
    });
    expect(result.status).toBe(200);
    expect(result.html).toContain('Your score: <strong>100</strong>');
    expect((await client.get('/worker/qualifications')).html).toMatch(/<td>Site exam &lt;b&gt;<\/td><td>100<\/td><td>Granted<\/td>/);
    const now = await client.get('/worker/hits');
    expect(now.html.slice(now.html.indexOf('Needs the site exam'))).toContain('Accept &amp; work');
  });
});
