import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MTurkClient, type HIT } from '@aws-sdk/client-mturk';
import { listAllHits } from '../support/mturk.js';
import { describe, expect, it } from 'vitest';
import { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY } from '../../src/config.js';
import { demoRunModel } from '../../src/demo/runs.js';
import { pipelineModels } from '../../src/db/models/index.js';
import { checkReportContract } from '../../src/reports/index.js';
import { createdAt, spawnCli, useDemoEnvironment } from './support.js';

/**
 * Ctrl-C in the middle of the demo stops it cleanly; `qrelay start` (what `npm start`
 * runs) then continues the same batch from the stage it stopped in — no second batch, no
 * HIT created twice — hands the simulated marketplace's records to the bundled one, prints
 * the summary, serves the API and the marketplace, and stops
 * cleanly on Ctrl-C too.
 */

const e = useDemoEnvironment();
const CASES = 18;

async function marketplaceHits(url: string): Promise<HIT[]> {
  const client = new MTurkClient({
    endpoint: url,
    region: 'us-east-1',
    credentials: { accessKeyId: DEV_MARKETPLACE_ACCESS_KEY_ID, secretAccessKey: DEV_MARKETPLACE_SECRET_ACCESS_KEY },
  });
  try {
    const hits = await listAllHits(client);
    return hits;
  } finally {
    client.destroy();
  }
}

describe('stopping and continuing the demo', () => {
  it('stops on Ctrl-C during the work stage; start continues that batch, then serves until Ctrl-C', { timeout: 400_000 }, async () => {
    // the signal lands while the simulated crowd works: the run stops at its next collection round
    const first = spawnCli(['demo', '--sample-size', String(CASES)], e.env);
    await first.waitFor(/^work: started$/m);
    first.child.kill('SIGINT');
    const stopped = await first.exited;
    expect(stopped.code, `${first.stdout()}\n${first.stderr()}`).toBe(0);
    // one line: what stopped, what the next start continues
    expect(
      first
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('qrelay: ')),
    ).toEqual([
      `qrelay: stopped the marketplace at ${e.marketplaceUrl}; the next \`qrelay demo\` (or \`npm start\`) continues batch sample where it stopped (what was done is kept)`,
    ]);
    expect(first.stdout()).not.toMatch(/^review: /m);

    const models = pipelineModels(e.db.connection);
    expect(await demoRunModel(e.db.connection).findById('sample').lean()).toMatchObject({ state: 'running' });
    expect((await models.batches.findById('sample').lean())?.state).toBe('collecting');
    const planned = (await models.batches.findById('sample').lean())!.plan!.hits;

    const start = spawnCli(['start', '--sample-size', String(CASES)], e.env);
    try {
      await start.waitFor(/^ {2}marketplace {2}.*worker site \S+\n/m, 300_000);
      const out = start.stdout();
      expect(out).toMatch(/^qrelay demo: continuing batch sample \(18 escalated cases\), which did not finish last time$/m);
      expect(out).toMatch(/^import {5}already done \(batch sample is published\)$/m);
      // the simulation starts over on a new private marketplace (the same seed gives the same result)
      expect(out).toMatch(/^publish: .* · done$/m);
      expect(out).toMatch(/^work: .* · done$/m);
      expect(out).toMatch(/^qrelay demo: batch sample, 18 escalated cases, finished in \S+ \(this session; it continued a stopped run\)$/m);
      expect(out).toContain(`  API          ${e.apiUrl}`);
      expect(out).toContain(`  API token    ${e.dataDir}/api-token (bearer token of the mutating routes and of reads of worker data)`);
      expect(out).toContain(`  marketplace  ${e.marketplaceUrl}  (MTurk Requester API); worker site ${e.marketplaceUrl}/worker/`);

      // one batch, every planned HIT once; handed over to the marketplace that serves real clients, each once, on its clock
      expect((await models.batches.find({}, { _id: 1 }).lean()).map((b) => b._id)).toEqual(['sample']);
      const hits = await models.hits.find({ batch: 'sample' }).lean();
      expect(hits.filter((h) => h.origin === 'plan')).toHaveLength(planned);
      expect(new Set(hits.map((h) => h.hitId)).size).toBe(hits.length);
      const onPlatform = (await marketplaceHits(e.marketplaceUrl)).filter((h) => h.RequesterAnnotation?.startsWith('qrelay:sample|'));
      expect(onPlatform.map((h) => h.HITId).sort()).toEqual(hits.map((h) => h.hitId).sort());
      for (const h of onPlatform) expect(Math.abs(h.CreationTime!.getTime() - Date.now())).toBeLessThan(60_000);
      expect((await models.batches.findById('sample').lean())?.settings?.target).toBe(e.marketplaceUrl);
      // the demo's simulated hours stayed inside its simulation: the real marketplace is on real time
      expect(Math.abs((await createdAt(e.marketplaceUrl)).getTime() - Date.now())).toBeLessThan(30_000);

      expect((await fetch(`${e.apiUrl}/healthz`)).status).toBe(200);
      // the report names workers: it asks for the token the demo keeps in its data directory
      const token = readFileSync(join(e.dataDir, 'api-token'), 'utf8').trim();
      const report = await fetch(`${e.apiUrl}/api/v1/batches/sample/report`, { headers: { authorization: `Bearer ${token}` } });
      expect(report.status).toBe(200);
      expect(checkReportContract(await report.json())).toMatchObject({ batch: 'sample', items: CASES, labels: CASES });
      expect((await fetch(`${e.marketplaceUrl}/worker/`, { redirect: 'manual' })).status).toBeLessThan(400);
      expect(await demoRunModel(e.db.connection).findById('sample').lean()).toMatchObject({ state: 'done' });
    } finally {
      start.child.kill('SIGINT');
    }
    expect((await start.exited).code, start.stderr()).toBe(0);
    expect(start.stderr()).toContain(
      `qrelay: stopped the API at ${e.apiUrl} and the marketplace at ${e.marketplaceUrl}; the next \`npm start\` serves the same batches again, and their jobs continue where they stopped\n`,
    );
  });
});
