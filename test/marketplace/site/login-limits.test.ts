import { describe, expect, it } from 'vitest';
import { useMarketplace } from '../support.js';
import { SiteClient } from './client.js';

/** Login limits of the worker site over real HTTP (a file of its own: it uses up its address's allowance). */

const h = useMarketplace();
const PASSWORD = 'correct horse battery';

describe('logging in', () => {
  it('limits failed logins per account and per address: 10 a minute, then 429 with Retry-After', async () => {
    const w = await h.running.workers.createWorker({ displayName: 'Limited', password: PASSWORD });
    const c = new SiteClient(h.running.url);
    const csrf = SiteClient.csrf((await c.get('/worker/login')).html);
    for (let i = 0; i < 10; i++)
      expect((await c.post('/worker/login', { _csrf: csrf, name: 'limited', password: `guess ${i}` })).status).toBe(401);
    const refused = await c.post('/worker/login', { _csrf: csrf, name: 'Limited', password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.html).toContain('Too many failed logins for this name');
    expect((await c.get('/worker/hits')).status).toBe(303); // the right password did not log in
    // the same address on other accounts: it already failed 10 times in this minute
    await h.running.workers.createWorker({ displayName: 'Other', password: PASSWORD });
    const other = await c.post('/worker/login', { _csrf: csrf, name: 'other', password: PASSWORD });
    expect(other.status).toBe(429);
    expect(other.html).toContain('Too many failed logins from your address');
    expect(w.workerId).toMatch(/^A/);
    // the limits are the site's, not the account's: the worker functions still authenticate
    expect(await h.running.workers.authenticate('limited', PASSWORD)).toMatchObject({ workerId: w.workerId });
  });
});
