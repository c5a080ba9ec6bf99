import { request as httpRequest } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import {
  CreateHITCommand,
  GetAccountBalanceCommand,
  GetHITCommand,
  ListHITsCommand,
  MTurkClient,
  MTurkServiceException,
} from '@aws-sdk/client-mturk';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterEach, describe, expect, it } from 'vitest';
import { CREDENTIALS, hitParams, useMarketplace } from './support.js';

const h = useMarketplace();

async function hitCount(): Promise<number> {
  return h.running.marketplace.hits.size;
}

/** Signs a request as the AWS SDK does (@smithy/signature-v4), so that a test can then tamper with it. */
async function signRequest(opts: { target: string; body: string; host: string; region?: string; unsigned?: string[] }) {
  const signer = new SignatureV4({
    credentials: CREDENTIALS,
    region: opts.region ?? 'us-east-1',
    service: 'mturk-requester',
    sha256: Sha256,
  });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: opts.host.split(':')[0]!,
      path: '/',
      headers: {
        host: opts.host,
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `MTurkRequesterServiceV20170117.${opts.target}`,
      },
      body: opts.body,
    },
    opts.unsigned ? { unsignableHeaders: new Set(opts.unsigned) } : {},
  );
  return { headers: signed.headers };
}

/** Sends exactly these headers (Host included) to the marketplace. */
function sendRaw(headers: Record<string, string>, body: string): Promise<{ status: number; json: unknown }> {
  const url = new URL(h.running.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method: 'POST', path: '/', headers, setHost: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const admin = (path: string, init: RequestInit = {}, token = h.running.adminToken) =>
  fetch(`${h.running.url}/admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

describe('the wire protocol', () => {
  afterEach(() => {
    h.running.chaos.set({ throttleRate: 0, throttleBurst: 0, throttleShare: 0, faultShare: 0, slowShare: 0, slowMs: 0 });
  });

  it('names the member in validation errors, as a RequestError', async () => {
    const bad = hitParams({
      Reward: '0.505',
      QualificationRequirements: [{ QualificationTypeId: '000000000000000000L0', Comparator: 'Bigger', IntegerValues: [90] }],
    });
    const err = await h
      .client()
      .send(new CreateHITCommand(bad as never))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MTurkServiceException);
    expect(err).toMatchObject({
      name: 'RequestError',
      TurkErrorCode: 'AWS.MechanicalTurk.ValidationException',
      $metadata: { httpStatusCode: 400 },
    });
    const message = (err as Error).message;
    expect(message).toContain('Reward: "0.505" does not match the pattern');
    expect(message).toContain('QualificationRequirements.0.Comparator: "Bigger" is not one of LessThan');
    const { Title: _title, ...noTitle } = hitParams();
    await expect(h.client().send(new CreateHITCommand(noTitle as never))).rejects.toMatchObject({
      message: expect.stringMatching(/^Title: is required/),
    });
    await expect(h.client().send(new CreateHITCommand(hitParams({ LifetimeInSeconds: 10 })))).rejects.toMatchObject({
      message: expect.stringMatching(/^LifetimeInSeconds: must be from 30 to 31536000 seconds/),
    });
    await expect(
      h.client().send(new CreateHITCommand(hitParams({ Question: '<HTMLQuestion><HTMLContent>x</HTMLQuestion>' }))),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.XMLParseError',
    });
    await expect(
      h
        .client()
        .send(
          new CreateHITCommand(
            hitParams({ QualificationRequirements: [{ QualificationTypeId: '000000000000000000L0', Comparator: 'GreaterThan' }] }),
          ),
        ),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/^QualificationRequirements\.0\.IntegerValues: GreaterThan needs exactly one IntegerValue/),
    });
  });

  it('sends x-amzn-RequestId with every answer', async () => {
    const ok = await h.client().send(new GetAccountBalanceCommand({}));
    expect(ok.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const err = (await h
      .client()
      .send(new CreateHITCommand(hitParams({ Reward: 'x' })))
      .catch((e: unknown) => e)) as MTurkServiceException;
    expect(err.$metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects a bad signature, an unknown key and a missing signature, changing nothing', async () => {
    const before = await hitCount();
    const wrongSecret = new MTurkClient({
      endpoint: h.running.url,
      region: 'us-east-1',
      credentials: { ...CREDENTIALS, secretAccessKey: 'wrong' },
      maxAttempts: 1,
    });
    await expect(wrongSecret.send(new CreateHITCommand(hitParams()))).rejects.toMatchObject({
      name: 'InvalidSignatureException',
      $metadata: { httpStatusCode: 400 },
    });
    const unknownKey = new MTurkClient({
      endpoint: h.running.url,
      region: 'us-east-1',
      credentials: { ...CREDENTIALS, accessKeyId: 'AKUNKNOWN' },
      maxAttempts: 1,
    });
    await expect(unknownKey.send(new CreateHITCommand(hitParams()))).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
    wrongSecret.destroy();
    unknownKey.destroy();
    const unsigned = await fetch(h.running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'MTurkRequesterServiceV20170117.CreateHIT' },
      body: JSON.stringify(hitParams()),
    });
    expect(unsigned.status).toBe(400);
    expect(unsigned.headers.get('x-amzn-requestid')).toBeTruthy();
    expect(await unsigned.json()).toEqual({ __type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' });
    const unknownOp = await fetch(h.running.url, {
      method: 'POST',
      headers: { 'x-amz-target': 'MTurkRequesterServiceV20170117.MakeMoney' },
      body: '{}',
    });
    expect(await unknownOp.json()).toMatchObject({ __type: 'UnknownOperationException' });
    expect(await hitCount()).toBe(before);
    // a request signed for another region than the marketplace's (us-east-1) is refused
    const other = new MTurkClient({ endpoint: h.running.url, region: 'ap-south-1', credentials: CREDENTIALS, maxAttempts: 1 });
    await expect(other.send(new GetAccountBalanceCommand({}))).rejects.toMatchObject({
      name: 'InvalidSignatureException',
      message: expect.stringContaining("this marketplace is 'us-east-1', the request was signed for 'ap-south-1'"),
    });
    other.destroy();
  });

  it('refuses forged requests: the target swapped, another host, another region (real SigV4 signing, then tampering)', async () => {
    const { HIT } = await h.client().send(new CreateHITCommand(hitParams()));
    const body = JSON.stringify({ HITId: HIT!.HITId });
    const own = new URL(h.running.url).host;
    // a GetHIT whose client signed only host and x-amz-date, replayed with the target swapped to DeleteHIT
    const captured = await signRequest({ target: 'GetHIT', body, host: own, unsigned: ['x-amz-target'] });
    expect(captured.headers.authorization).not.toMatch(/SignedHeaders=[^,]*x-amz-target/);
    const swapped = await sendRaw({ ...captured.headers, 'x-amz-target': 'MTurkRequesterServiceV20170117.DeleteHIT' }, body);
    expect(swapped).toMatchObject({
      status: 400,
      json: { __type: 'InvalidSignatureException', message: "'X-Amz-Target' must be a signed header." },
    });
    // a fully signed GetHIT with the target swapped: the signature no longer matches
    const full = await signRequest({ target: 'GetHIT', body, host: own });
    expect(await sendRaw(full.headers, body)).toMatchObject({ status: 200 });
    const swappedSigned = await sendRaw({ ...full.headers, 'x-amz-target': 'MTurkRequesterServiceV20170117.DeleteHIT' }, body);
    expect(swappedSigned).toMatchObject({ status: 400, json: { __type: 'InvalidSignatureException' } });
    // signed for another host (captured on its way to another server with the same keys), sent here as it was
    const elsewhere = await signRequest({ target: 'DeleteHIT', body, host: 'mturk-requester.us-east-1.amazonaws.com' });
    expect(await sendRaw(elsewhere.headers, body)).toMatchObject({
      status: 400,
      json: { __type: 'InvalidSignatureException', message: expect.stringContaining('signed for the host') },
    });
    // signed for another region
    const region = await signRequest({ target: 'DeleteHIT', body, host: own, region: 'eu-west-1' });
    expect(await sendRaw(region.headers, body)).toMatchObject({
      status: 400,
      json: { __type: 'InvalidSignatureException', message: expect.stringContaining("signed for 'eu-west-1'") },
    });
    // the HIT is still there
    expect((await h.client().send(new GetHITCommand({ HITId: HIT!.HITId }))).HIT!.HITStatus).toBe('Assignable');
  });

  it('answers ServiceFault (500) on injected faults and changes nothing; SDK retries absorb them', async () => {
    h.running.chaos.set({ faultShare: 1 });
    const before = await hitCount();
    await expect(h.client().send(new CreateHITCommand(hitParams()))).rejects.toMatchObject({
      name: 'ServiceFault',
      TurkErrorCode: 'AWS.MechanicalTurk.ServiceFault',
      $metadata: { httpStatusCode: 500 },
    });
    expect(await hitCount()).toBe(before);
    h.running.chaos.set({ faultShare: 0.3 });
    const retrying = h.client({ maxAttempts: 12 });
    for (let i = 0; i < 5; i++) await retrying.send(new CreateHITCommand(hitParams()));
    expect(await hitCount()).toBe(before + 5);
  });

  it('throttles by token bucket and at random with ThrottlingException, which SDK retries absorb', async () => {
    h.running.chaos.set({ throttleRate: 1, throttleBurst: 2 });
    const client = h.client();
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(() => client.send(new GetAccountBalanceCommand({}))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ name: 'ThrottlingException', message: 'Rate exceeded', $metadata: { httpStatusCode: 400 } });
    h.running.chaos.set({ throttleRate: 0, throttleShare: 0.2 });
    const retrying = h.client({ maxAttempts: 12 });
    for (let i = 0; i < 6; i++) expect((await retrying.send(new ListHITsCommand({ MaxResults: 1 }))).NumResults).toBe(1);
  });

  it('delays a share of responses', async () => {
    h.running.chaos.set({ slowShare: 1, slowMs: 250 });
    const t0 = Date.now();
    await h.client().send(new GetAccountBalanceCommand({}));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
  });
});

describe('the admin interface', () => {
  it('requires the admin token', async () => {
    expect((await fetch(`${h.running.url}/admin/status`)).status).toBe(401);
    expect((await admin('/status', {}, 'nope')).status).toBe(403);
    const ok = await admin('/status');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ availableBalance: expect.any(String), clockSpeed: 1 });
  });

  it('sets chaos and the clock, and explains bad input', async () => {
    const bad = await admin('/chaos', { method: 'PUT', body: JSON.stringify({ faultShare: 3 }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: [{ path: 'body.faultShare' }] });
    const chaos = await admin('/chaos', { method: 'PUT', body: JSON.stringify({ slowShare: 0.5, slowMs: 10 }) });
    expect(await chaos.json()).toMatchObject({ slowShare: 0.5, slowMs: 10, faultShare: 0 });
    await admin('/chaos', { method: 'PUT', body: JSON.stringify({ slowShare: 0 }) });
    const before = h.running.marketplace.clock.nowMs();
    const clock = await admin('/clock', { method: 'PUT', body: JSON.stringify({ advanceSeconds: 86_400 }) });
    const { now } = (await clock.json()) as { now: string };
    expect(Date.parse(now) - before).toBeGreaterThanOrEqual(86_400_000);
    const worker = await admin('/workers', {
      method: 'POST',
      body: JSON.stringify({ displayName: 'Ada', password: 'correct horse', profile: { locale: { Country: 'GB' }, adult: true } }),
    });
    expect(worker.status).toBe(201);
    const made = (await worker.json()) as { workerId: string };
    expect(made.workerId).toMatch(/^A[A-Z0-9]+$/);
    expect(await h.running.workers.authenticate('ada', 'correct horse')).toMatchObject({
      workerId: made.workerId,
      profile: { adult: true },
    });
    expect(await h.running.workers.authenticate('ada', 'wrong')).toBeUndefined();
    const dup = await admin('/workers', { method: 'POST', body: JSON.stringify({ displayName: 'ADA' }) });
    expect(dup.status).toBe(409);
  });
});
