import { describe, expect, it } from 'vitest';
import { exportRequesterRecords } from '@qrelay/marketplace';
import { pipelineModels } from '../../src/db/models/index.js';
import { demoRunModel } from '../../src/demo/runs.js';
import { privateConnection } from '../../src/simulation/run.js';
import { spawnCli, useDemoEnvironment } from './support.js';

/**
 * The demo's hand-over cut short by a SIGKILL (the process gets no chance to clean up),
 * then the demo run again: it continues the same batch, completes the hand-over, and the
 * bundled marketplace holds every HIT of the batch once, with each assignment; the private
 * simulated marketplace's database is gone and the batch points at the bundled marketplace.
 */

const e = useDemoEnvironment();
const CASES = 18;

describe('the demo hand-over after a crash', () => {
  it('is completed by the next run, each record once', { timeout: 600_000 }, async () => {
    const first = spawnCli(['demo', '--sample-size', String(CASES)], e.env);
    await first.waitFor(/^hand-over: started$/m, 500_000);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = spawnCli(['demo', '--sample-size', String(CASES)], e.env);
    const { code } = await second.exited;
    const out = second.stdout();
    expect(code, `${out}\n${second.stderr()}`).toBe(0);
    expect(out).toMatch(/^qrelay demo: continuing batch sample \(18 escalated cases\), which did not finish last time$/m);
    expect(out).toMatch(/^hand-over(: .* · done| {2}already done .*)$/m);

    const models = pipelineModels(e.db.connection);
    const batch = (await models.batches.findById('sample').lean())!;
    expect(batch.settings?.target).toBe(e.marketplaceUrl);
    const run = await demoRunModel(e.db.connection).findById('sample').lean();
    expect(run).toMatchObject({ state: 'done', handOver: { target: e.marketplaceUrl } });
    expect(run?.handOver?.doneAt).toBeInstanceOf(Date);

    const bundled = await exportRequesterRecords(e.db.connection);
    const ours = bundled.hits.filter((h) => h.requesterAnnotation?.startsWith('qrelay:sample|'));
    const hits = await models.hits.find({ batch: 'sample' }).lean();
    expect(ours.map((h) => h._id).sort()).toEqual(hits.map((h) => h.hitId).sort());
    const assignments = await models.assignments.find({ batch: 'sample' }).lean();
    const onPlatform = ours.flatMap((h) => h.assignments.map((a) => a.id));
    expect(new Set(onPlatform).size).toBe(onPlatform.length);
    for (const a of assignments) expect(onPlatform).toContain(a._id);
    // every approval paid once, under its own ledger key
    const approvals = bundled.ledger.filter((l) => l.kind === 'approval' && l.hitId && ours.some((h) => h._id === l.hitId));
    expect(approvals.length).toBe(ours.flatMap((h) => h.assignments).filter((a) => a.status === 'Approved').length);
    // the batch's HIT type is the one its HITs have there
    expect(new Set(ours.map((h) => h.typeId))).toEqual(new Set([batch.hitTypeId]));

    expect((await exportRequesterRecords(privateConnection(e.db.connection, 'sample'))).hits).toHaveLength(0);
  });
});
