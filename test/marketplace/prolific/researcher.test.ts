import { describe, expect, it } from 'vitest';
import { participantIdOf } from '@qrelay/marketplace';
import { DEV_MARKETPLACE_PROLIFIC_TOKEN } from '@qrelay/marketplace/config';
import { useMarketplace } from '../support.js';
import { SiteClient } from '../site/client.js';

/**
 * A researcher's script against the marketplace's Prolific API over real HTTP (plain
 * fetch, as a client written from Prolific's documentation would), with participants
 * taking part through the worker site: drafts and transitions, the study URL's three
 * parameters, the completion redirect, review, participant groups as a block list,
 * bulk bonuses paid twice (Prolific's quirk), messages and the documented errors.
 */

const h = useMarketplace();
const PASSWORD = 'correct horse battery';
const REASON =
  'Your answers were given faster than the passages can be read, and the attention check in the middle of the study was answered wrongly.';

interface Answer {
  status: number;
  body: unknown;
}

/** A JSON object's fields (the tests read answers field by field). */
type Json = Record<string, unknown>;

async function api(
  method: string,
  path: string,
  body?: unknown,
  auth: string | null = `Token ${DEV_MARKETPLACE_PROLIFIC_TOKEN}`,
): Promise<Answer> {
  const res = await fetch(`${h.running.url}/prolific/api/v1${path}`, {
    method,
    headers: { ...(auth !== null ? { authorization: auth } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

const obj = (a: Answer): Json => a.body as Json;
const results = (a: Answer): Json[] => obj(a).results as Json[];

function expectError(a: Answer, status: number): Json {
  expect(a.status).toBe(status);
  const error = obj(a).error as Json;
  expect(error).toMatchObject({ status, title: expect.any(String) as unknown, error_code: expect.any(Number) as unknown });
  expect(error.detail).toBeDefined();
  return error;
}

let n = 0;
async function participant(profile: Parameters<typeof h.running.workers.createWorker>[0]['profile'] = {}) {
  n++;
  const worker = await h.running.workers.createWorker({ displayName: `prolific-${process.pid}-${n}`, password: PASSWORD, profile });
  const client = new SiteClient(h.running.url);
  await client.login(worker.displayName, PASSWORD);
  return { worker, client, pid: participantIdOf(worker.workerId) };
}

type Participant = Awaited<ReturnType<typeof participant>>;

async function takePart(p: Participant, studyId: string) {
  const list = await p.client.get('/worker/prolific/studies');
  expect(list.status).toBe(200);
  return p.client.post(`/worker/prolific/studies/${studyId}/start`, { _csrf: SiteClient.csrf(list.html) });
}

const balance = async (): Promise<number> => {
  const ws = results(await api('GET', '/workspaces/'))[0]!;
  return obj(await api('GET', `/workspaces/${String(ws.id)}/balance/`)).total_balance as number;
};

function draft(overrides: Json = {}): Json {
  return {
    name: 'Judge passages',
    internal_name: 'passages-1',
    description: 'Read a question and a passage, and say whether the passage answers it.',
    external_study_url: 'https://survey.example/s?pid={{%PROLIFIC_PID%}}&study={{%STUDY_ID%}}&session={{%SESSION_ID%}}',
    prolific_id_option: 'url_parameters',
    completion_codes: [
      { code: 'C0MPL3TE', code_type: 'COMPLETED', actions: [{ action: 'MANUALLY_REVIEW' }] },
      { code: 'AUT0', code_type: 'COMPLETED', actions: [{ action: 'AUTOMATICALLY_APPROVE' }] },
    ],
    total_available_places: 3,
    estimated_completion_time: 5,
    maximum_allowed_time: 30,
    reward: 150,
    device_compatibility: ['desktop'],
    filters: [],
    ...overrides,
  };
}

describe('the token', () => {
  it('is required as "Token <token>" (401 in the documented error shape otherwise)', async () => {
    expect(expectError(await api('GET', '/users/me/', undefined, null), 401).detail).toMatch(/credentials were not provided/);
    expectError(await api('GET', '/users/me/', undefined, 'Token wrong-token-of-some-length'), 401);
    expectError(await api('GET', '/users/me/', undefined, `Bearer ${DEV_MARKETPLACE_PROLIFIC_TOKEN}`), 401);
    const me = await api('GET', '/users/me/');
    expect(me.status).toBe(200);
    expect(obj(me)).toMatchObject({
      id: expect.stringMatching(/^[a-f\d]{24}$/) as unknown,
      email: expect.any(String) as unknown,
      available_balance: expect.any(Number) as unknown,
    });
  });
});

describe("a researcher's study, from draft to bonuses", () => {
  let studyId = '';
  let group = '';
  const ps: Record<string, Participant> = {};

  it('creates a block list and a draft (UNPUBLISHED, editable, not shown to participants)', async () => {
    ps.a = await participant({ approvedHits: 200, approvalRate: 99 });
    ps.b = await participant({ approvedHits: 200, approvalRate: 98 });
    ps.blocked = await participant({ approvedHits: 200, approvalRate: 99 });
    ps.careless = await participant({ approvedHits: 200, approvalRate: 60 });
    const ws = results(await api('GET', '/workspaces/'))[0]!;
    const created = await api('POST', '/participant-groups/', {
      workspace_id: ws.id,
      name: 'Took the pilot',
      participant_ids: [ps.blocked.pid],
    });
    expect(created.status).toBe(201);
    expect(obj(created)).toMatchObject({ name: 'Took the pilot', participant_count: 1, is_deleted: false, workspace_id: ws.id });
    group = String(obj(created).id);
    const members = await api('GET', `/participant-groups/${group}/participants/`);
    expect(results(members).map((m) => m.participant_id)).toEqual([ps.blocked.pid]);

    const bad = await api(
      'POST',
      '/studies/',
      draft({ reward: undefined, filters: [{ filter_id: 'favourite_colour', selected_values: ['0'] }] }),
    );
    const detail = expectError(bad, 400).detail as Record<string, string[]>;
    expect(Object.keys(detail).sort()).toEqual(['reward']);

    const made = await api(
      'POST',
      '/studies/',
      draft({
        filters: [
          { filter_id: 'participant_group_blocklist', selected_values: [group] },
          { filter_id: 'approval_rate', selected_range: { lower: 90, upper: 100 } },
        ],
      }),
    );
    expect(made.status).toBe(201);
    expect(obj(made)).toMatchObject({
      status: 'UNPUBLISHED',
      reward: 150,
      total_available_places: 3,
      maximum_allowed_time: 30,
      places_taken: 0,
    });
    studyId = String(obj(made).id);
    expect(studyId).toMatch(/^[a-f\d]{24}$/);
    expect(obj(made).external_study_url).toBe(draft().external_study_url);

    const renamed = await api('PATCH', `/studies/${studyId}/`, { name: 'Judge passages (v2)' });
    expect(obj(renamed)).toMatchObject({ name: 'Judge passages (v2)', status: 'UNPUBLISHED' });
    const list = await ps.a.client.get('/worker/prolific/studies');
    expect(list.html).not.toContain(studyId);
    const listed = results(await api('GET', '/studies/'));
    expect(listed.find((s) => s.id === studyId)).toMatchObject({ status: 'UNPUBLISHED', name: 'Judge passages (v2)' });
  });

  it('publishes by a transition; places then only go up', async () => {
    const published = await api('POST', `/studies/${studyId}/transition/`, { action: 'PUBLISH' });
    expect(published.status).toBe(200);
    expect(obj(published)).toMatchObject({ id: studyId, status: 'ACTIVE', published_at: expect.any(String) as unknown });
    expectError(await api('POST', `/studies/${studyId}/transition/`, { action: 'PUBLISH' }), 400);
    expectError(await api('POST', `/studies/${studyId}/transition/`, { action: 'EXPIRE' }), 400);
    expect(Object.keys(expectError(await api('PATCH', `/studies/${studyId}/`, { total_available_places: 2 }), 400).detail as Json)).toEqual(
      ['total_available_places'],
    );
    expectError(await api('PATCH', `/studies/${studyId}/`, { reward: 10 }), 400);
    expectError(await api('DELETE', `/studies/${studyId}/`), 400);
    const renamed = await api('PUT', `/studies/${studyId}`, { internal_name: 'passages-final' });
    expect(obj(renamed)).toMatchObject({ internal_name: 'passages-final', total_available_places: 3 });
  });

  it('lists the study to eligible participants only, and sends them to its URL with the three parameters', async () => {
    for (const who of [ps.blocked!, ps.careless!]) {
      const page = await who.client.get('/worker/prolific/studies');
      expect(page.html).not.toContain(studyId);
      expect((await takePart(who, studyId)).status).toBe(403);
    }
    const page = await ps.a!.client.get('/worker/prolific/studies');
    expect(page.html).toContain(`/worker/prolific/studies/${studyId}/start`);
    expect(page.html).toContain('3 places left');

    const started = await takePart(ps.a!, studyId);
    expect(started.status).toBe(303);
    const url = new URL(started.location!);
    expect(url.origin + url.pathname).toBe('https://survey.example/s');
    expect(url.searchParams.get('pid')).toBe(ps.a!.pid);
    expect(url.searchParams.get('study')).toBe(studyId);
    const session = url.searchParams.get('session')!;
    const again = await takePart(ps.a!, studyId);
    expect(new URL(again.location!).searchParams.get('session')).toBe(session);

    const subs = results(await api('GET', `/studies/${studyId}/submissions/`));
    expect(subs).toEqual([expect.objectContaining({ id: session, participant_id: ps.a!.pid, status: 'ACTIVE', study_code: null })]);
    expect(obj(await api('GET', `/studies/${studyId}/`))).toMatchObject({ places_taken: 1, number_of_submissions: 1 });
  });

  it('takes the completion redirect: the submission awaits review with its code', async () => {
    const done = await ps.a!.client.get('/prolific/submissions/complete?cc=C0MPL3TE');
    expect(done.status).toBe(200);
    expect(done.html).toContain('AWAITING REVIEW');
    expect((await ps.b!.client.get('/prolific/submissions/complete?cc=C0MPL3TE')).status).toBe(409); // nothing started
    expect((await takePart(ps.b!, studyId)).status).toBe(303);
    expect((await ps.b!.client.get('/prolific/submissions/complete?cc=C0MPL3TE')).status).toBe(200);
    const subs = results(await api('GET', `/studies/${studyId}/submissions/`));
    expect(subs.map((s) => [s.participant_id, s.status, s.study_code])).toEqual([
      [ps.a!.pid, 'AWAITING REVIEW', 'C0MPL3TE'],
      [ps.b!.pid, 'AWAITING REVIEW', 'C0MPL3TE'],
    ]);
    expect(subs[0]!.completed_at).toEqual(expect.any(String));
  });

  it('approves (paying reward and fee once) and rejects only with a message of 100 characters and a category', async () => {
    const subs = results(await api('GET', `/studies/${studyId}/submissions/`));
    const [a, b] = [String(subs[0]!.id), String(subs[1]!.id)];
    const before = await balance();
    const approved = await api('POST', `/submissions/${a}/transition/`, { action: 'APPROVE' });
    expect(approved.status).toBe(200);
    expect(obj(approved)).toMatchObject({ id: a, status: 'APPROVED', participant: ps.a!.pid, study_id: studyId, entered_code: 'C0MPL3TE' });
    expect(await balance()).toBe(before - 200); // 150 + a third in fees
    expect((await api('POST', `/submissions/${a}/transition/`, { action: 'APPROVE' })).status).toBe(200);
    expect(await balance()).toBe(before - 200);

    const short = expectError(
      await api('POST', `/submissions/${b}/transition/`, { action: 'REJECT', message: 'Too fast.', rejection_category: 'TOO_QUICKLY' }),
      400,
    );
    expect(Object.keys(short.detail as Json)).toEqual(['message']);
    const noCategory = expectError(await api('POST', `/submissions/${b}/transition/`, { action: 'REJECT', message: REASON }), 400);
    expect(Object.keys(noCategory.detail as Json)).toEqual(['rejection_category']);
    const rejected = await api('POST', `/submissions/${b}/transition/`, {
      action: 'REJECT',
      message: REASON,
      rejection_category: 'TOO_QUICKLY',
    });
    expect(obj(rejected)).toMatchObject({ id: b, status: 'REJECTED' });
    expectError(await api('POST', `/submissions/${b}/transition/`, { action: 'APPROVE' }), 400);
    const inbox = await h.running.workers.listMessages(ps.b!.worker.workerId);
    expect(inbox[0]!.text).toBe(REASON);
    // the rejection reopened a place of an ACTIVE study
    expect(obj(await api('GET', `/studies/${studyId}/`))).toMatchObject({ status: 'ACTIVE', places_taken: 1 });
  });

  it('sets bonuses up in pounds/dollars, answers in cents, and pays again on a second pay call', async () => {
    const subs = results(await api('GET', `/studies/${studyId}/submissions/`));
    const stranger = await participant();
    const refused = expectError(
      await api('POST', '/submissions/bonus-payments/', { study_id: studyId, csv_bonuses: `${ps.a!.pid},1.00\n${stranger.pid},2.00` }),
      400,
    );
    expect(JSON.stringify(refused.detail)).toContain(stranger.pid);

    const made = await api('POST', '/submissions/bonus-payments/', {
      study_id: studyId,
      csv_bonuses: `${ps.a!.pid},4.25\n${String(subs[1]!.id)},4.25\n`,
    });
    expect(made.status).toBe(201);
    expect(obj(made)).toMatchObject({ study: studyId, amount: 850, fees: 283.34, vat: 0, total_amount: 1133.34 });
    const bulk = String(obj(made).id);
    const before = await balance();
    const paid = await api('POST', `/bulk-bonus-payments/${bulk}/pay/`);
    expect(paid.status).toBe(202);
    expect(typeof paid.body).toBe('string');
    expect(await balance()).toBe(before - 1133);
    expect((await api('POST', `/bulk-bonus-payments/${bulk}/pay/`)).status).toBe(202);
    expect(await balance()).toBe(before - 2 * 1133);
    const detail = obj(await api('GET', `/submissions/${String(subs[0]!.id)}/`));
    expect(detail.bonus_payments).toEqual([425, 425]);
    expectError(await api('POST', '/bulk-bonus-payments/0123456789abcdef01234567/pay/'), 404);
  });

  it('messages a participant, who reads it on the worker site', async () => {
    const sent = await api('POST', '/messages/', { recipient_id: ps.a!.pid, study_id: studyId, body: 'Thank you, a bonus is on its way.' });
    expect(sent.status).toBe(204);
    const read = await api('GET', `/messages/?user_id=${ps.a!.pid}`);
    expect(results(read)).toEqual([expect.objectContaining({ body: 'Thank you, a bonus is on its way.', data: { study_id: studyId } })]);
    expect((await h.running.workers.listMessages(ps.a!.worker.workerId))[0]!.text).toBe('Thank you, a bonus is on its way.');
    expectError(await api('POST', '/messages/', { recipient_id: '0123456789abcdef01234567', study_id: studyId, body: 'hello' }), 400);
  });

  it('stops the study: AWAITING REVIEW while a submission waits, COMPLETED once reviewed; more places reopen it', async () => {
    const c = await participant({ approvedHits: 200, approvalRate: 99 });
    expect((await takePart(c, studyId)).status).toBe(303);
    expect((await c.client.get('/prolific/submissions/complete?cc=AUT0')).status).toBe(200);
    const sub = results(await api('GET', `/studies/${studyId}/submissions/`)).find((s) => s.participant_id === c.pid)!;
    expect(sub.status).toBe('APPROVED'); // the code's AUTOMATICALLY_APPROVE
    const stopped = await api('POST', `/studies/${studyId}/transition/`, { action: 'STOP' });
    expect(obj(stopped).status).toBe('COMPLETED');
    expect((await c.client.get('/worker/prolific/studies')).html).not.toContain(studyId);
    const more = await api('PATCH', `/studies/${studyId}/`, { total_available_places: 5 });
    expect(obj(more)).toMatchObject({ status: 'ACTIVE', total_available_places: 5 });
    expect(obj(await api('POST', `/studies/${studyId}/transition/`, { action: 'PAUSE' })).status).toBe('PAUSED');
    expect(obj(await api('POST', `/studies/${studyId}/transition/`, { action: 'START' })).status).toBe('ACTIVE');
  });

  it('removes a member from the block list, who may then take part', async () => {
    const removed = await api('DELETE', `/participant-groups/${group}/participants/`, { participant_ids: [ps.blocked!.pid] });
    expect(removed.status).toBe(200);
    expect(results(removed)).toEqual([]);
    expect((await ps.blocked!.client.get('/worker/prolific/studies')).html).toContain(studyId);
  });
});

describe('errors', () => {
  it('answers 404 for ids that do not exist, and deletes drafts only', async () => {
    const missing = '0123456789abcdef01234567';
    for (const path of [
      `/studies/${missing}/`,
      `/submissions/${missing}/`,
      `/participant-groups/${missing}/`,
      `/studies/${missing}/submissions/`,
      '/no-such-thing/',
    ])
      expectError(await api('GET', path), 404);
    expectError(await api('POST', `/studies/${missing}/transition/`, { action: 'PUBLISH' }), 404);
    const made = await api('POST', '/studies/', draft());
    const id = String(obj(made).id);
    const deleted = await api('DELETE', `/studies/${id}/`);
    expect(deleted.status).toBe(200);
    expectError(await api('GET', `/studies/${id}/`), 404);
  });

  it('answers 400 with the fields at fault, and for a body that is not JSON', async () => {
    const res = await fetch(`${h.running.url}/prolific/api/v1/studies/`, {
      method: 'POST',
      headers: { authorization: `Token ${DEV_MARKETPLACE_PROLIFIC_TOKEN}`, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: Json }).error.status).toBe(400);
    const bad = expectError(await api('POST', '/studies/', draft({ maximum_allowed_time: 3, prolific_id_option: 'cookie' })), 400);
    expect(Object.keys(bad.detail as Json).sort()).toEqual(['prolific_id_option']);
    const tooShort = expectError(await api('POST', '/studies/', draft({ maximum_allowed_time: 3 })), 400);
    expect(Object.keys(tooShort.detail as Json)).toEqual(['maximum_allowed_time']);
  });
});

describe('crash safety and restarts', () => {
  it('finishes an approval whose payment was posted when the process died, paying once; state survives a restart', async () => {
    const made = await api('POST', '/studies/', draft({ total_available_places: 1, reward: 300 }));
    const studyId = String(obj(made).id);
    await api('POST', `/studies/${studyId}/transition/`, { action: 'PUBLISH' });
    const p = await participant();
    expect((await takePart(p, studyId)).status).toBe(303);
    expect((await p.client.get('/prolific/submissions/complete?cc=C0MPL3TE')).status).toBe(200);
    const sub = String(results(await api('GET', `/studies/${studyId}/submissions/`))[0]!.id);
    expect(obj(await api('GET', `/studies/${studyId}/`)).status).toBe('AWAITING REVIEW');

    // what an approval leaves when the process dies between its two writes: the payment only
    const before = await balance();
    await h.running.marketplace.ledger.post(
      { key: `prolific-approval:${sub}`, kind: 'approval', amountCents: -400, rewardCents: 300, feeCents: 100, at: new Date() },
      { requireCover: true },
    );
    await h.stop();
    await h.start();
    expect(obj(await api('GET', `/submissions/${sub}/`))).toMatchObject({ status: 'APPROVED', participant: p.pid });
    expect(obj(await api('POST', `/submissions/${sub}/transition/`, { action: 'APPROVE' })).status).toBe('APPROVED');
    expect(await balance()).toBe(before - 400);
    expect(obj(await api('GET', `/studies/${studyId}/`))).toMatchObject({ status: 'COMPLETED', places_taken: 1 });
  });

  it('pays a bulk bonus once per Idempotency-Key (an addition to Prolific, whose pay call has none)', async () => {
    const made = await api('POST', '/studies/', draft({ total_available_places: 1 }));
    const studyId = String(obj(made).id);
    await api('POST', `/studies/${studyId}/transition/`, { action: 'PUBLISH' });
    const p = await participant();
    await takePart(p, studyId);
    await p.client.get('/prolific/submissions/complete?cc=AUT0');
    const bulk = String(obj(await api('POST', '/submissions/bonus-payments/', { study_id: studyId, csv_bonuses: `${p.pid},1.50` })).id);
    const before = await balance();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${h.running.url}/prolific/api/v1/bulk-bonus-payments/${bulk}/pay/`, {
        method: 'POST',
        headers: { authorization: `Token ${DEV_MARKETPLACE_PROLIFIC_TOKEN}`, 'idempotency-key': 'pay-once' },
      });
      expect(res.status).toBe(202);
    }
    expect(await balance()).toBe(before - 200);
  });
});

describe('clones, costs and filters', () => {
  it('clones a study with its participants blocked, reports its cost, and applies country filters', async () => {
    const made = await api(
      'POST',
      '/studies/',
      draft({ total_available_places: 1, filters: [{ filter_id: 'current-country-of-residence', selected_values: ['1'] }] }),
    );
    const studyId = String(obj(made).id);
    await api('POST', `/studies/${studyId}/transition/`, { action: 'PUBLISH' });
    const briton = await participant({ locale: { Country: 'GB' } });
    expect((await briton.client.get('/worker/prolific/studies')).html).not.toContain(studyId);
    const p = await participant({ locale: { Country: 'US' } });
    expect((await takePart(p, studyId)).status).toBe(303);
    await p.client.get('/prolific/submissions/complete?cc=AUT0');
    const cost = obj(await api('GET', `/studies/${studyId}/cost/`));
    expect(cost.rewards).toEqual({
      rewards: { amount: 150, currency: 'USD' },
      fees: { amount: 50, currency: 'USD' },
      tax: { amount: 0, currency: 'USD' },
    });

    const cloned = await api('POST', `/studies/${studyId}/clone/`, {});
    expect(cloned.status).toBe(200);
    expect(obj(cloned)).toMatchObject({ status: 'UNPUBLISHED', name: obj(made).name, places_taken: 0 });
    expect(obj(cloned).filters).toContainEqual({ filter_id: 'previous_studies_blocklist', selected_values: [studyId] });
    const cloneId = String(obj(cloned).id);
    await api('POST', `/studies/${cloneId}/transition/`, { action: 'PUBLISH' });
    expect((await p.client.get('/worker/prolific/studies')).html).not.toContain(cloneId);
    const newcomer = await participant({ locale: { Country: 'US' } });
    expect((await newcomer.client.get('/worker/prolific/studies')).html).toContain(cloneId);

    const filters = results(await api('GET', '/filters/'));
    expect(filters.map((f) => f.filter_id)).toEqual(
      expect.arrayContaining(['approval_rate', 'participant_group_blocklist', 'current-country-of-residence']),
    );
  });
});

describe('time and bulk review', () => {
  it('times a submission out after maximum_allowed_time, giving its place back', async () => {
    const made = await api(
      'POST',
      '/studies/',
      draft({ total_available_places: 1, estimated_completion_time: 1, maximum_allowed_time: 6 }),
    );
    const studyId = String(obj(made).id);
    await api('POST', `/studies/${studyId}/transition/`, { action: 'PUBLISH' });
    const slow = await participant();
    expect((await takePart(slow, studyId)).status).toBe(303);
    expect((await (await participant()).client.get('/worker/prolific/studies')).html).not.toContain(studyId); // the one place is taken
    h.running.marketplace.clock.advance(7 * 60_000);
    expect(results(await api('GET', `/studies/${studyId}/submissions/`))[0]).toMatchObject({
      participant_id: slow.pid,
      status: 'TIMED-OUT',
    });
    expect(obj(await api('GET', `/studies/${studyId}/`))).toMatchObject({ status: 'ACTIVE', places_taken: 0 });
    expect((await slow.client.get('/prolific/submissions/complete?cc=C0MPL3TE')).status).toBe(409);
  });

  it('approves in bulk by study and participants, answering with a string', async () => {
    const made = await api('POST', '/studies/', draft({ total_available_places: 2 }));
    const studyId = String(obj(made).id);
    await api('POST', `/studies/${studyId}/transition/`, { action: 'PUBLISH' });
    const two = [await participant(), await participant()];
    for (const p of two) {
      await takePart(p, studyId);
      await p.client.get('/prolific/submissions/complete?cc=C0MPL3TE');
    }
    expect(obj(await api('GET', `/studies/${studyId}/`)).status).toBe('AWAITING REVIEW');
    const before = await balance();
    const answer = await api('POST', '/submissions/bulk-approve/', { study_id: studyId, participant_ids: two.map((p) => p.pid) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(expect.any(String));
    expect(results(await api('GET', `/studies/${studyId}/submissions/`)).map((s) => s.status)).toEqual(['APPROVED', 'APPROVED']);
    expect(await balance()).toBe(before - 400);
    expect(obj(await api('GET', `/studies/${studyId}/`)).status).toBe('COMPLETED');
    expectError(await api('POST', '/submissions/bulk-approve/', { submission_ids: ['0123456789abcdef01234567'] }), 400);
  });
});
