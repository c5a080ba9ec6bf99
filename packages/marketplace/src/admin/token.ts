import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The marketplace operator's credential for /admin routes: a bearer token derived from
 * the marketplace key pair (HMAC-SHA256 of the access key id under the secret key), so
 * whoever holds the key pair can compute it and nobody needs another secret.
 * `qrelay marketplace admin-token` prints it.
 */
export function adminToken(accessKeyId: string, secretAccessKey: string): string {
  return createHmac('sha256', secretAccessKey).update(`qrelay-marketplace-admin:${accessKeyId}`).digest('base64url');
}

export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
