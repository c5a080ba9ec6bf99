import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { MturkBackend } from '../../src/crowd/mturk/backend.js';
import { bonusRequestToken, extraAssignmentsToken, hitRequestToken } from '../../src/crowd/mturk/request-tokens.js';
import { resolveTarget } from '../../src/crowd/targets.js';
import { htmlQuestion, newWorker, useMarketplace } from '../marketplace/support.js';

/**
 * qrelay's crowd backend against the bundled marketplace, over HTTP with the real SDK:
 * every call the pipeline repeats after a crash must be safe to repeat.
 */
const h = useMarketplace();

function backend(chaos?: { retries: number }) {
  const config = loadConfig({ ...process.env, MARKETPLACE_URL: h.running.url });
  return new MturkBackend(resolveTarget('local', config), {
    retry: { maxAttempts: chaos?.retries ?? 3, baseDelayMs: 5, maxDelayMs: 20 },
  });
}

const hitType = {
  title: 'Judge a passage',
  description: 'Does the passage support an answer?',
  keywords: 'relevance',
  reward: '0.40',
  assignmentDurationSeconds: 600,
  autoApprovalDelaySeconds: 86_400,
  qualificationRequirements: [],
};

async function submittedAssignment(crowd: MturkBackend, token: string) {
  const hitTypeId = await crowd.createHitType(hitType);
  const { hitId } = await crowd.createHit({
    hitTypeId,
    question: htmlQuestion(),
    maxAssignments: 2,
    lifetimeSeconds: 3600,
    uniqueRequestToken: token,
  });
  const worker = await newWorker(h);
  const view = await h.running.workers.acceptHit(worker.workerId, hitId);
  await h.running.workers.submitAssignment(worker.workerId, view.assignmentId, { relevance: 'yes' });
  return { hitId, workerId: worker.workerId, assignmentId: view.assignmentId };
}

describe('MturkBackend on the bundled marketplace', () => {
  it('creates one HIT per request token: a repeat finds the first (HitAlreadyExists)', async () => {
    const crowd = backend();
    const hitTypeId = await crowd.createHitType(hitType);
    const token = hitRequestToken('batch-a', 0, 0);
    const first = await crowd.createHit({
      hitTypeId,
      question: htmlQuestion(),
      maxAssignments: 3,
      lifetimeSeconds: 3600,
      uniqueRequestToken: token,
    });
    const again = await crowd.createHit({
      hitTypeId,
      question: htmlQuestion(),
      maxAssignments: 3,
      lifetimeSeconds: 3600,
      uniqueRequestToken: token,
    });
    expect(first.reused).toBe(false);
    expect(again).toEqual({ hitId: first.hitId, reused: true });
    const all = [];
    for await (const hit of crowd.listHits()) all.push(hit.hitId);
    expect(all.filter((id) => id === first.hitId)).toHaveLength(1);
    expect((await crowd.getHit(first.hitId)).maxAssignments).toBe(3);
  });

  it('approves exactly once and pays exactly once, however often it is asked', async () => {
    const crowd = backend();
    const before = await crowd.accountBalanceCents();
    const { assignmentId, workerId } = await submittedAssignment(crowd, hitRequestToken('batch-b', 0, 0));
    expect(await crowd.approveAssignment(assignmentId, 'thanks')).toBe('approved');
    expect(await crowd.approveAssignment(assignmentId, 'thanks')).toBe('already-approved');
    const bonus = {
      workerId,
      assignmentId,
      amount: '0.25',
      reason: 'careful work',
      uniqueRequestToken: bonusRequestToken(assignmentId, 'care'),
    };
    await crowd.sendBonus(bonus);
    await crowd.sendBonus(bonus);
    // reward 40c + 8c fee, bonus 25c + 5c fee
    expect(before - (await crowd.accountBalanceCents())).toBe(48 + 30);
  });

  it('rejects once, and a repeat reports it was already rejected', async () => {
    const crowd = backend();
    const { hitId, assignmentId } = await submittedAssignment(crowd, hitRequestToken('batch-c', 0, 0));
    expect(await crowd.rejectAssignment(assignmentId, 'failed the checks')).toBe('rejected');
    expect(await crowd.rejectAssignment(assignmentId, 'failed the checks')).toBe('already-rejected');
    const rejected = await crowd.listAssignments(hitId, ['Rejected']);
    expect(rejected.map((a) => [a.assignmentId, a.status])).toEqual([[assignmentId, 'Rejected']]);
    expect(rejected[0]!.answer).toContain('<QuestionIdentifier>relevance</QuestionIdentifier>');
  });

  it('extends a HIT to a target MaxAssignments once, and refuses to cross 9 -> 10', async () => {
    const crowd = backend();
    const { hitId } = await submittedAssignment(crowd, hitRequestToken('batch-d', 0, 0));
    await crowd.extendAssignments(hitId, 4, extraAssignmentsToken(hitId, 1));
    await crowd.extendAssignments(hitId, 4, extraAssignmentsToken(hitId, 1));
    expect((await crowd.getHit(hitId)).maxAssignments).toBe(4);
    await expect(crowd.extendAssignments(hitId, 10, extraAssignmentsToken(hitId, 2))).rejects.toThrow(/InvalidMaximumAssignmentsIncrease/);
  });

  it('creates a qualification type once, finding it by name afterwards', async () => {
    const crowd = backend();
    const spec = { name: 'qrelay test exam', description: 'a test', autoGranted: true, autoGrantedValue: 100 };
    const first = await crowd.ensureQualificationType(spec);
    const second = await crowd.ensureQualificationType(spec);
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
  });

  it('retries through throttling and service faults, and stops on a RequestError', async () => {
    h.running.chaos.set({ throttleShare: 0.3, faultShare: 0.1 });
    try {
      const crowd = backend({ retries: 12 });
      const hitTypeId = await crowd.createHitType(hitType);
      const ids = new Set<string>();
      for (let i = 0; i < 15; i++) {
        const { hitId } = await crowd.createHit({
          hitTypeId,
          question: htmlQuestion(),
          maxAssignments: 1,
          lifetimeSeconds: 600,
          uniqueRequestToken: hitRequestToken('batch-chaos', i, 0),
        });
        ids.add(hitId);
      }
      expect(ids.size).toBe(15);
    } finally {
      h.running.chaos.set({ throttleShare: 0, faultShare: 0 });
    }
    await expect(backend().getHit('NOSUCHHIT0000000000000000000000')).rejects.toThrow(/GetHIT failed: AWS\.MechanicalTurk\./);
  });
});
