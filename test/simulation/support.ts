import type { Server } from 'node:http';
import { CreateHITCommand, ListAssignmentsForHITCommand, type MTurkClient } from '@aws-sdk/client-mturk';
import { parseAnswersXml } from '@qrelay/marketplace';
import { DEV_MARKETPLACE_PROLIFIC_TOKEN } from '@qrelay/marketplace/config';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import type { PopulationInput, SimulationProgress } from '../../src/simulation/index.js';
import { relevanceQuestion } from '../marketplace/hit-pages.js';
import type { MarketplaceHarness } from '../marketplace/support.js';
import { freePort } from '../support/free-port.js';

/** Driving a simulation through the marketplace's admin routes, as the pipeline's tests do. */

export async function admin<T = unknown>(h: MarketplaceHarness, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${h.running.url}/admin/simulation${path}`, {
    method,
    headers: { authorization: `Bearer ${h.running.adminToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} /admin/simulation${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/**
 * Polls progress until `done` holds. Bounded in simulated time (the simulation moves its
 * clock event by event, slower on a busy machine, never skipping work), not by a wall
 * clock: a busy machine makes the wait longer, never fails it; the test's timeout is the
 * safety net against a hang. Fails at once when the simulation stops running, or has run
 * `maxSimulatedSeconds` (default 3 days: past the tests' HIT lifetimes of a day, no work is
 * left to do) without getting there.
 */
export async function runUntil(
  h: MarketplaceHarness,
  done: (p: SimulationProgress) => boolean,
  maxSimulatedSeconds = 3 * 86_400,
): Promise<SimulationProgress> {
  for (;;) {
    const p = await admin<SimulationProgress>(h, 'GET', '');
    if (done(p)) return p;
    if (p.state !== 'running' || p.simulatedSeconds > maxSimulatedSeconds) {
      throw new Error(`the simulation did not get there (${p.state}, after ${p.simulatedSeconds} simulated seconds): ${JSON.stringify(p)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface PlannedHit {
  hitId: string;
  keys: string[];
}

/** HITs with qrelay's HIT page, `perHit` items each, keys taken in order from `keys`. */
export async function createHits(
  client: MTurkClient,
  keys: readonly string[],
  perHit: number,
  params: Record<string, unknown>,
): Promise<PlannedHit[]> {
  const hits: PlannedHit[] = [];
  for (let i = 0; i < keys.length; i += perHit) {
    const mine = keys.slice(i, i + perHit);
    const { HIT } = await client.send(
      new CreateHITCommand({ ...params, Question: relevanceQuestion(mine.map((key) => ({ key }))) } as never),
    );
    hits.push({ hitId: HIT!.HITId!, keys: mine });
  }
  return hits;
}

export interface SubmittedAnswer {
  hitId: string;
  assignmentId: string;
  workerId: string;
  key: string;
  answer: string;
  ms: number;
}

/** Every submitted answer, read back through the Requester API (ListAssignmentsForHIT). */
export async function submittedAnswers(client: MTurkClient, hits: readonly PlannedHit[]): Promise<SubmittedAnswer[]> {
  const out: SubmittedAnswer[] = [];
  for (const hit of hits) {
    const { Assignments = [] } = await client.send(new ListAssignmentsForHITCommand({ HITId: hit.hitId, MaxResults: 100 }));
    for (const a of Assignments) {
      const fields = new Map(parseAnswersXml(a.Answer!).map((e) => [e.questionIdentifier, e.freeText ?? '']));
      hit.keys.forEach((key, i) => {
        out.push({
          hitId: hit.hitId,
          assignmentId: a.AssignmentId!,
          workerId: a.WorkerId!,
          key,
          answer: fields.get(`item${i + 1}_answer`) ?? '',
          ms: Number(fields.get(`item${i + 1}_ms`)),
        });
      });
    }
  }
  return out;
}

export const basePopulation = (overrides: Partial<PopulationInput> = {}): PopulationInput => ({
  seed: 'test',
  size: 20,
  arrivalsPerHour: 120,
  hitsPerVisit: 10,
  accuracy: { relevant: { alpha: 18, beta: 2 }, notRelevant: { alpha: 14, beta: 6 } },
  workTime: { medianSeconds: 20 },
  ...overrides,
});

/**
 * qrelay's app serving the task pages (QRELAY_PUBLIC_URL) for the file's tests, with the
 * environment that points `--target prolific` at the harness marketplace's Prolific API;
 * `env()` is that environment once the app listens.
 */
export function useTaskPages(h: MarketplaceHarness, apiToken: string): { env(): Record<string, string> } {
  let server: Server | undefined;
  let env: Record<string, string> | undefined;
  beforeAll(async () => {
    const port = await freePort();
    env = {
      QRELAY_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PROLIFIC_API_URL: `${h.running.url}/prolific/api/v1/`,
      PROLIFIC_API_TOKEN: DEV_MARKETPLACE_PROLIFIC_TOKEN,
    };
    const app = createApp({
      config: loadConfig({ ...process.env, ...env }),
      logger: createLogger('silent'),
      connection: h.db.connection,
      apiToken,
    });
    await new Promise<void>((resolve) => {
      server = app.listen(port, '127.0.0.1', () => resolve());
    });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
  return {
    env() {
      if (!env) throw new Error('the task pages are not served yet');
      return env;
    },
  };
}
