import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * AWS Signature Version 4 verification, done for real: canonical request, string to
 * sign, HMAC chain, constant-time comparison. The scope must name the marketplace's region
 * (MTurk's only one, us-east-1) and the service `mturk-requester`. The signature must cover
 * `host` and, when the request has one, `x-amz-target` (the operation): otherwise a
 * captured GetHIT could be replayed as a DeleteHIT, or a request signed for another host
 * sent here. Which hosts are this server's own is the caller's to say (own-hosts.ts).
 */

export const SIGNING_SERVICE = 'mturk-requester';
const ALGORITHM = 'AWS4-HMAC-SHA256';

export interface SignedRequest {
  method: string;
  /** The path as received (already percent-encoded), without the query string. */
  path: string;
  /** The raw query string without `?` ('' when none). */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export type VerifyResult = { ok: true; accessKeyId: string; region: string } | { ok: false; type: string; message: string };

const fail = (type: string, message: string): VerifyResult => ({ ok: false, type, message });

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/**
 * The last signing key derived, as AWS's own signers keep theirs: it changes with the day
 * (and the secret), and deriving it anew costs four HMACs on every request.
 */
let lastKey: { secret: string; scope: string; key: Buffer } | undefined;

function cachedSigningKey(secret: string, date: string, region: string, service: string): Buffer {
  const scope = `${date}/${region}/${service}`;
  if (lastKey?.secret !== secret || lastKey.scope !== scope) lastKey = { secret, scope, key: signingKey(secret, date, region, service) };
  return lastKey.key;
}

function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, '%20'));
  } catch {
    return s;
  }
}

export function canonicalUri(path: string): string {
  if (path === '' || path === '/') return '/';
  // non-S3 services: each segment of the (already encoded) path is encoded once more
  return path
    .split('/')
    .map((segment) => rfc3986(segment))
    .join('/');
}

export function canonicalQuery(query: string): string {
  if (!query) return '';
  return query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const i = part.indexOf('=');
      const key = i < 0 ? part : part.slice(0, i);
      const value = i < 0 ? '' : part.slice(i + 1);
      return [rfc3986(safeDecode(key)), rfc3986(safeDecode(value))] as const;
    })
    .sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function headerValue(headers: SignedRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(',') : value;
}

export function canonicalRequest(req: SignedRequest, signedHeaders: string[], payloadHash: string): string {
  const canonicalHeaders = signedHeaders
    .map((name) => `${name}:${(headerValue(req.headers, name) ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  return [
    req.method.toUpperCase(),
    canonicalUri(req.path),
    canonicalQuery(req.query),
    canonicalHeaders,
    signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
}

export function stringToSign(amzDate: string, scope: string, canonical: string): string {
  return [ALGORITHM, amzDate, scope, sha256Hex(canonical)].join('\n');
}

/** Parses `AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...`. */
export function parseAuthorization(
  header: string,
):
  | { ok: true; accessKeyId: string; date: string; region: string; service: string; signedHeaders: string[]; signature: string }
  | { ok: false; type: string; message: string } {
  const space = header.indexOf(' ');
  const algorithm = space < 0 ? header : header.slice(0, space);
  if (algorithm !== ALGORITHM)
    return { ok: false, type: 'IncompleteSignatureException', message: `Unsupported Authorization Type: expected ${ALGORITHM}` };
  const params = new Map<string, string>();
  for (const part of header.slice(space + 1).split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = params.get('Credential');
  const signedHeaders = params.get('SignedHeaders');
  const signature = params.get('Signature');
  if (!credential || !signedHeaders || !signature) {
    return {
      ok: false,
      type: 'IncompleteSignatureException',
      message: "Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters",
    };
  }
  const scope = credential.split('/');
  if (scope.length !== 5 || scope[4] !== 'aws4_request') {
    return {
      ok: false,
      type: 'IncompleteSignatureException',
      message: `Credential must be <access key>/<date>/<region>/<service>/aws4_request, got ${credential}`,
    };
  }
  const [accessKeyId, date, region, service] = scope as [string, string, string, string, string];
  return { ok: true, accessKeyId, date, region, service, signedHeaders: signedHeaders.split(';'), signature };
}

function parseAmzDate(value: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return undefined;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** The signature a request must carry, given its scope and signed headers. */
export function computeSignature(
  req: SignedRequest,
  scope: { date: string; region: string; service: string; signedHeaders: string[]; amzDate: string; secretAccessKey: string },
): Buffer {
  const canonical = canonicalRequest(req, scope.signedHeaders, sha256Hex(req.body));
  const credentialScope = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  return createHmac('sha256', cachedSigningKey(scope.secretAccessKey, scope.date, scope.region, scope.service))
    .update(stringToSign(scope.amzDate, credentialScope, canonical), 'utf8')
    .digest();
}

export interface VerifyOptions {
  /** The real time (never the marketplace's simulated clock). */
  nowMs: number;
  maxSkewMs: number;
  /** The region requests must be signed for. */
  region: string;
  /** Whether the (signed) Host header names this server; unset: any host. */
  ownHost?: (host: string | undefined) => boolean;
}

/** Headers the signature must cover whenever the request carries them. */
const MUST_SIGN: readonly { name: string; shown: string; always: boolean }[] = [
  { name: 'host', shown: 'Host', always: true },
  { name: 'x-amz-target', shown: 'X-Amz-Target', always: false },
];

export function verifySignature(req: SignedRequest, credentials: Credentials, opts: VerifyOptions): VerifyResult {
  const authorization = headerValue(req.headers, 'authorization');
  if (!authorization) return fail('MissingAuthenticationTokenException', 'Missing Authentication Token');
  const auth = parseAuthorization(authorization);
  if (!auth.ok) return auth;
  if (auth.service !== SIGNING_SERVICE) {
    return fail('InvalidSignatureException', `Credential should be scoped to correct service: '${SIGNING_SERVICE}'.`);
  }
  if (auth.region !== opts.region) {
    return fail(
      'InvalidSignatureException',
      `Credential should be scoped to a valid region: this marketplace is '${opts.region}', the request was signed for '${auth.region}'.`,
    );
  }
  for (const header of MUST_SIGN) {
    const present = header.always || headerValue(req.headers, header.name) !== undefined;
    if (present && !auth.signedHeaders.includes(header.name))
      return fail('InvalidSignatureException', `'${header.shown}' must be a signed header.`);
  }
  const host = headerValue(req.headers, 'host');
  if (opts.ownHost && !opts.ownHost(host)) {
    return fail(
      'InvalidSignatureException',
      `The request was signed for the host '${(host ?? '').slice(0, 80)}', which is not this marketplace's address.`,
    );
  }
  const amzDate = headerValue(req.headers, 'x-amz-date');
  if (!amzDate)
    return fail('IncompleteSignatureException', "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  const signedAt = parseAmzDate(amzDate);
  if (signedAt === undefined)
    return fail('IncompleteSignatureException', `X-Amz-Date must be in the form YYYYMMDDTHHMMSSZ, got ${amzDate}`);
  if (amzDate.slice(0, 8) !== auth.date) {
    return fail(
      'InvalidSignatureException',
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${auth.date}' != '${amzDate.slice(0, 8)}'`,
    );
  }
  const skew = signedAt - opts.nowMs;
  if (Math.abs(skew) > opts.maxSkewMs) {
    const minutes = Math.round(opts.maxSkewMs / 60000);
    const now = new Date(opts.nowMs).toISOString().replace(/[-:]|\.\d{3}/g, '');
    return fail(
      'InvalidSignatureException',
      skew < 0
        ? `Signature expired: ${amzDate} is now earlier than the current time ${now} minus ${minutes} min.`
        : `Signature not yet current: ${amzDate} is still later than the current time ${now} plus ${minutes} min.`,
    );
  }
  if (auth.accessKeyId !== credentials.accessKeyId) {
    return fail('UnrecognizedClientException', 'The security token included in the request is invalid.');
  }
  const expected = computeSignature(req, { ...auth, amzDate, secretAccessKey: credentials.secretAccessKey });
  const given = Buffer.from(auth.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return fail(
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    );
  }
  return { ok: true, accessKeyId: auth.accessKeyId, region: auth.region };
}
