import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The worker site's signing key, derived from the marketplace key pair (like the admin
 * token), so nothing else needs to be configured or stored: session cookies, CSRF tokens
 * and the per-assignment links of HIT frames are MACs under it. Whoever holds the key
 * pair can forge them, which is why the development defaults must not serve a shared
 * deployment (see qrelay's docs/configuration.md).
 */
export class SiteKeys {
  private readonly key: Buffer;

  constructor(accessKeyId: string, secretAccessKey: string) {
    this.key = createHmac('sha256', secretAccessKey).update(`qrelay-marketplace-site:${accessKeyId}`).digest();
  }

  /** A MAC of `parts` for one `purpose` (so a MAC made for one use never passes for another). */
  mac(purpose: string, ...parts: string[]): string {
    const h = createHmac('sha256', this.key).update(purpose);
    for (const p of parts) h.update('\u0000').update(p);
    return h.digest().subarray(0, 24).toString('base64url');
  }

  check(given: string, purpose: string, ...parts: string[]): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(this.mac(purpose, ...parts));
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
