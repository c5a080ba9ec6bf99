import { ListAssignmentsForHITCommand, UpdateExpirationForHITCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import type { SimulationProgress } from '../../src/simulation/index.js';
import { itemKeys } from '../marketplace/hit-pages.js';
import { hitParams, useMarketplace } from '../marketplace/support.js';
import { admin, basePopulation, createHits, runUntil, submittedAnswers, type PlannedHit } from './support.js';

/** A seed replays a run; pausing stops the marketplace's time; stopping hands back what workers hold. */

const h = useMarketplace();
const KEYS = itemKeys('repeat', 36);
const ORACLE = Object.fromEntries(KEYS.map((k, i) => [k, { truth: i % 3 === 0 ? 'yes' : 'no' }]));

async function expireAll(hits: readonly PlannedHit[]) {
  for (const hit of hits) await h.client().send(new UpdateExpirationForHITCommand({ HITId: hit.hitId, ExpireAt: new Date(0) }));
}

/** What a run did to its HITs, in simulated time since the run started. */
async function runRecord(hits: readonly PlannedHit[], startedAt: string) {
  const t0 = Date.parse(startedAt);
  const answers = await submittedAnswers(h.client(), hits);
  const out: string[] = [];
  for (const [i, hit] of hits.entries()) {
    const { Assignments = [] } = await h.client().send(new ListAssignmentsForHITCommand({ HITId: hit.hitId }));
    for (const a of Assignments) {
      const mine = answers.filter((x) => x.assignmentId === a.AssignmentId).map((x) => `${x.answer}:${x.ms}`);
      out.push(
        `hit ${i} seq ${a.AssignmentId!.slice(-6)} ${a.WorkerId} accepted +${a.AcceptTime!.getTime() - t0} submitted +${a.SubmitTime!.getTime() - t0} ${mine.join(',')}`,
      );
    }
  }
  return out.sort();
}

describe('a simulation run', () => {
  it('is repeated exactly by its seed on the same HITs', async () => {
    await admin(h, 'PUT', '/population', basePopulation({ seed: 'repeat', size: 6, hitsPerVisit: 3, abandonRate: 0.1, returnRate: 0.1 }));
    await admin(h, 'PUT', '/oracle', ORACLE);
    const params = hitParams({ MaxAssignments: 3, AssignmentDurationInSeconds: 900 });
    const records: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const hits = await createHits(h.client(), KEYS, 3, params);
      h.running.marketplace.clock.setSpeed(100_000);
      const started = await admin<SimulationProgress>(h, 'POST', '/start');
      // the free clock runs at 100,000×: on a loaded machine the crowd's events fall behind it, so the
      // safety net is 60 simulated days (under a minute of wall time), not the default 3
      const done = await runUntil(h, (p) => p.assignments.submitted >= 36, 60 * 86_400);
      await admin(h, 'POST', '/stop');
      records.push(await runRecord(hits, started.startedAt!));
      expect(done.errors.count).toBe(0);
      expect(done.assignments.returned + done.assignments.abandoned).toBeGreaterThan(0);
      await expireAll(hits);
    }
    expect(records[0]).toHaveLength(36);
    expect(records[1]).toEqual(records[0]);
  });

  it('pauses (time stands still), resumes, and stops (held work goes back, the clock runs on)', async () => {
    await admin(h, 'PUT', '/population', basePopulation({ seed: 'pause', size: 3, workTime: { medianSeconds: 1200, sigma: 0 } }));
    const hits = await createHits(h.client(), itemKeys('pause', 2), 1, hitParams({ MaxAssignments: 3, AssignmentDurationInSeconds: 7200 }));
    h.running.marketplace.clock.setSpeed(100);
    await admin(h, 'POST', '/start');
    const busy = await runUntil(h, (p) => p.assignments.accepted >= 1);
    expect(busy.assignments.submitted).toBe(0);
    const paused = await admin<SimulationProgress>(h, 'POST', '/pause');
    expect(paused.state).toBe('paused');
    const t = h.running.marketplace.clock.nowMs();
    await new Promise((r) => setTimeout(r, 150));
    expect(h.running.marketplace.clock.nowMs()).toBe(t);
    expect((await admin<SimulationProgress>(h, 'POST', '/start')).state).toBe('running');
    const stopped = await admin<SimulationProgress>(h, 'POST', '/stop');
    expect(stopped).toMatchObject({ state: 'stopped', clock: { held: false } });
    const population = await admin<{ workers: { workerId: string }[] }>(h, 'GET', '/population');
    for (const w of population.workers) expect(h.running.workers.listAssignments(w.workerId, { status: 'Accepted' })).toEqual([]);
    const after = h.running.marketplace.clock.nowMs();
    await new Promise((r) => setTimeout(r, 50));
    expect(h.running.marketplace.clock.nowMs()).toBeGreaterThan(after);
    await expireAll(hits);
  });
});
