import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { CrowdCallError } from '../../src/crowd/call-error.js';
import { isEntityId, isWorkerId, platformId } from '../../src/crowd/ids.js';
import { MturkBackend } from '../../src/crowd/mturk/backend.js';
import { resolveTarget } from '../../src/crowd/targets.js';

/**
 * The ids a platform answers are checked where they enter qrelay (crowd/ids.ts). Here the
 * platform is an MTurk-compatible URL that answers the Requester API's JSON protocol over
 * real HTTP, through the real SDK, with ids shaped as paths: every call that would carry
 * one into qrelay fails as a CrowdCallError naming the field, and nothing of it is used.
 */

const HOSTILE = '../batches/victim/delete?';
let server: Server;
let backend: MturkBackend;

/** What the hostile platform answers, per operation (the rest of each answer as MTurk's). */
const answers: Record<string, unknown> = {
  ListAssignmentsForHIT: {
    NumResults: 1,
    Assignments: [{ AssignmentId: 'A3GOOD000ASSIGNMENT', WorkerId: HOSTILE, HITId: 'HIT0001', AssignmentStatus: 'Submitted', Answer: '' }],
  },
  ListWorkerBlocks: { NumResults: 1, WorkerBlocks: [{ WorkerId: HOSTILE, Reason: 'r' }] },
  ListBonusPayments: {
    NumResults: 1,
    BonusPayments: [{ WorkerId: 'A1GOOD', AssignmentId: '../x', BonusAmount: '0.10', Reason: 'r' }],
  },
  ListReviewableHITs: { NumResults: 1, HITs: [{ HITId: '../../x' }] },
  GetHIT: { HIT: { HITId: 'hit/../x', HITStatus: 'Assignable' } },
  ListWorkersWithQualificationType: { NumResults: 1, Qualifications: [{ WorkerId: 'a1-lower', IntegerValue: 1 }] },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      res.end(JSON.stringify(answers[op] ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  backend = new MturkBackend(resolveTarget(url, loadConfig({ ...process.env, MTURK_TARGET: url })), {
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
});

afterAll(async () => {
  backend.client.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('ids from a platform', () => {
  it('have MTurk documented shapes or are refused', () => {
    expect(isWorkerId('A1B2C3')).toBe(true);
    // a Prolific participant, and a submission: what a person may give for a Prolific batch
    expect(isWorkerId('5f1e2d3c4b5a697887766554')).toBe(true);
    expect(isEntityId('60a0b1c2d3e4f5a6b7c8d9e0')).toBe(true);
    // but the MTurk API must answer MTurk's shapes
    expect(() => platformId('ListWorkerBlocks', 'WorkerId', '5f1e2d3c4b5a697887766554')).toThrow(CrowdCallError);
    for (const bad of ['', 'A', 'a1', 'B1', 'A1-2', HOSTILE, `A${'1'.repeat(64)}`]) expect(isWorkerId(bad), bad).toBe(false);
    expect(isEntityId('3XYZ0123')).toBe(true);
    for (const bad of ['', 'abc', '../x', '..', `${'1'.repeat(65)}`]) expect(isEntityId(bad), bad).toBe(false);
    expect(() => platformId('GetHIT', 'HITId', undefined)).toThrow(CrowdCallError);
  });

  it('a hostile MTurk-compatible platform: every id-carrying answer fails the call, naming the field', async () => {
    const refused = async (call: () => Promise<unknown>, field: string) => {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CrowdCallError);
      expect((err as CrowdCallError).message).toMatch(new RegExp(`the platform answered ${field} ".*", which is not an MTurk id`));
    };
    await refused(() => backend.listAssignments('HIT0001'), 'WorkerId');
    await refused(() => backend.listWorkerBlocks(), 'WorkerId');
    await refused(() => backend.listBonusPayments('A3GOOD000ASSIGNMENT'), 'AssignmentId');
    await refused(async () => {
      for await (const id of backend.listReviewableHitIds()) void id;
    }, 'HITId');
    await refused(() => backend.getHit('HIT0001'), 'HITId');
    await refused(() => backend.qualificationScores('QT1'), 'WorkerId');
  });
});
