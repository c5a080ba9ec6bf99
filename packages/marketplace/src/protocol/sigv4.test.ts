import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { canonicalQuery, computeSignature, parseAuthorization, verifySignature, type SignedRequest } from './sigv4.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

async function signed(
  opts: {
    body?: string;
    region?: string;
    service?: string;
    at?: Date;
    secret?: string;
    key?: string;
    unsigned?: string[];
    host?: string;
  } = {},
): Promise<SignedRequest> {
  const signer = new SignatureV4({
    credentials: { accessKeyId: opts.key ?? credentials.accessKeyId, secretAccessKey: opts.secret ?? credentials.secretAccessKey },
    region: opts.region ?? 'us-east-1',
    service: opts.service ?? 'mturk-requester',
    sha256: Sha256,
  });
  const body = opts.body ?? '{"HITId":"3ABC"}';
  const request = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 8090,
      path: '/',
      headers: {
        host: opts.host ?? '127.0.0.1:8090',
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'MTurkRequesterServiceV20170117.GetHIT',
      },
      body,
    },
    { signingDate: opts.at ?? new Date('2026-03-01T12:00:00Z'), ...(opts.unsigned ? { unsignableHeaders: new Set(opts.unsigned) } : {}) },
  );
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { method: 'POST', path: '/', query: '', headers, body: Buffer.from(body) };
}

const now = Date.parse('2026-03-01T12:01:00Z');
const opts = { nowMs: now, maxSkewMs: 5 * 60_000, region: 'us-east-1' };

describe('SigV4 verification', () => {
  it("accepts what the AWS SDK signer signs for the marketplace's region, and nothing signed for another", async () => {
    expect(verifySignature(await signed(), credentials, opts)).toEqual({ ok: true, accessKeyId: 'AKIDEXAMPLE', region: 'us-east-1' });
    expect(verifySignature(await signed({ region: 'eu-west-1' }), credentials, opts)).toEqual({
      ok: false,
      type: 'InvalidSignatureException',
      message: "Credential should be scoped to a valid region: this marketplace is 'us-east-1', the request was signed for 'eu-west-1'.",
    });
  });

  it('requires X-Amz-Target to be signed: a GetHIT signed without it cannot be replayed as DeleteHIT', async () => {
    const captured = await signed({ unsigned: ['x-amz-target'] });
    expect(String(captured.headers.authorization)).not.toMatch(/SignedHeaders=[^,]*x-amz-target/);
    expect(verifySignature(captured, credentials, opts)).toEqual({
      ok: false,
      type: 'InvalidSignatureException',
      message: "'X-Amz-Target' must be a signed header.",
    });
    captured.headers['x-amz-target'] = 'MTurkRequesterServiceV20170117.DeleteHIT';
    expect(verifySignature(captured, credentials, opts)).toMatchObject({ ok: false, message: "'X-Amz-Target' must be a signed header." });
  });

  it("requires the signed Host to be one of the server's own", async () => {
    const own = (host: string | undefined) => host === '127.0.0.1:8090';
    expect(verifySignature(await signed(), credentials, { ...opts, ownHost: own })).toMatchObject({ ok: true });
    const elsewhere = await signed({ host: 'mturk-requester.us-east-1.amazonaws.com' });
    expect(verifySignature(elsewhere, credentials, { ...opts, ownHost: own })).toEqual({
      ok: false,
      type: 'InvalidSignatureException',
      message: "The request was signed for the host 'mturk-requester.us-east-1.amazonaws.com', which is not this marketplace's address.",
    });
    // the Host header put back to ours: the signature no longer matches
    elsewhere.headers.host = '127.0.0.1:8090';
    expect(verifySignature(elsewhere, credentials, { ...opts, ownHost: own })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The request signature we calculated does not match/),
    });
  });

  it('matches the AWS test suite vector get-vanilla', () => {
    const req: SignedRequest = {
      method: 'GET',
      path: '/',
      query: '',
      body: Buffer.alloc(0),
      headers: {
        host: 'example.amazonaws.com',
        'x-amz-date': '20150830T123600Z',
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
      },
    };
    const signature = computeSignature(req, {
      date: '20150830',
      region: 'us-east-1',
      service: 'service',
      signedHeaders: ['host', 'x-amz-date'],
      amzDate: '20150830T123600Z',
      secretAccessKey: credentials.secretAccessKey,
    });
    expect(signature.toString('hex')).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
    // the vector is scoped to the service "service", which this server refuses
    const result = verifySignature(req, credentials, { nowMs: Date.parse('2015-08-30T12:36:00Z'), maxSkewMs: 60_000, region: 'us-east-1' });
    expect(result).toMatchObject({ ok: false, type: 'InvalidSignatureException', message: expect.stringContaining("'mturk-requester'") });
  });

  it('rejects a tampered body, a wrong secret, an unknown key and a missing header', async () => {
    const tampered = await signed();
    tampered.body = Buffer.from('{"HITId":"3ABD"}');
    expect(verifySignature(tampered, credentials, opts)).toMatchObject({ ok: false, type: 'InvalidSignatureException' });
    expect(verifySignature(await signed({ secret: 'not-the-secret' }), credentials, opts)).toMatchObject({
      ok: false,
      type: 'InvalidSignatureException',
    });
    expect(verifySignature(await signed({ key: 'AKIDOTHER' }), credentials, opts)).toMatchObject({
      ok: false,
      type: 'UnrecognizedClientException',
    });
    const bare = await signed();
    delete bare.headers.authorization;
    expect(verifySignature(bare, credentials, opts)).toMatchObject({ ok: false, type: 'MissingAuthenticationTokenException' });
  });

  it('rejects a tampered signed header', async () => {
    const req = await signed();
    req.headers['x-amz-target'] = 'MTurkRequesterServiceV20170117.DeleteHIT';
    expect(verifySignature(req, credentials, opts)).toMatchObject({ ok: false, type: 'InvalidSignatureException' });
  });

  it('allows modest clock skew and no more', async () => {
    const at = new Date(now - 4 * 60_000);
    expect(verifySignature(await signed({ at }), credentials, opts)).toMatchObject({ ok: true });
    const old = await signed({ at: new Date(now - 6 * 60_000) });
    expect(verifySignature(old, credentials, opts)).toMatchObject({ ok: false, message: expect.stringMatching(/^Signature expired/) });
    const future = await signed({ at: new Date(now + 6 * 60_000) });
    expect(verifySignature(future, credentials, opts)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Signature not yet current/),
    });
  });

  it('requires the mturk-requester service scope', async () => {
    expect(verifySignature(await signed({ service: 'sqs' }), credentials, opts)).toMatchObject({
      ok: false,
      type: 'InvalidSignatureException',
    });
  });

  it('parses and rejects malformed Authorization headers', () => {
    expect(parseAuthorization('Basic abc')).toMatchObject({ ok: false, type: 'IncompleteSignatureException' });
    expect(parseAuthorization('AWS4-HMAC-SHA256 Credential=A/B')).toMatchObject({ ok: false });
    expect(
      parseAuthorization(
        'AWS4-HMAC-SHA256 Credential=AK/20260101/us-east-1/mturk-requester/aws4_request, SignedHeaders=host;x-amz-date, Signature=ab',
      ),
    ).toMatchObject({
      ok: true,
      accessKeyId: 'AK',
      date: '20260101',
      region: 'us-east-1',
      signedHeaders: ['host', 'x-amz-date'],
    });
  });

  it('builds canonical query strings sorted and RFC 3986 encoded', () => {
    expect(canonicalQuery('b=2&a=1&a=0&c')).toBe('a=0&a=1&b=2&c=');
    expect(canonicalQuery('x=a b&y=%2A')).toBe('x=a%20b&y=%2A');
  });
});
