import { adminToken } from '@qrelay/marketplace';
import type { Config } from '../config.js';
import { UserError, errorMessage } from '../errors.js';

/**
 * A running marketplace's operator interface (`/admin`, packages/marketplace/README.md),
 * with the admin token derived from the marketplace key pair. Every failure is one
 * UserError line naming the marketplace and what to do.
 */
export async function callMarketplaceAdmin<T = unknown>(
  config: Config,
  url: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<T> {
  const base = url.replace(/\/+$/, '');
  const token = adminToken(config.env.MARKETPLACE_ACCESS_KEY_ID, config.env.MARKETPLACE_SECRET_ACCESS_KEY);
  let res: Response;
  try {
    res = await fetch(`${base}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new UserError(
      `no marketplace answers at ${base} (${errorMessage(err)}): start one with \`qrelay marketplace\`, or point MARKETPLACE_URL / --url at it`,
    );
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const p = (json ?? {}) as { detail?: string; errors?: { path: string; message: string }[] };
    const details = p.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
    if (res.status === 403)
      throw new UserError(
        `the marketplace at ${base} refused the admin token: MARKETPLACE_ACCESS_KEY_ID / MARKETPLACE_SECRET_ACCESS_KEY must be the key pair it runs with`,
      );
    throw new UserError(`the marketplace at ${base} answered ${res.status}: ${details ?? p.detail ?? text.slice(0, 200)}`);
  }
  return json as T;
}
