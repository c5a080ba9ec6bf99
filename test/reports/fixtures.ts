import type { Judgment } from '../../src/domain/cases.js';
import { quoteCost } from '../../src/hits/quote.js';
import type { ReportInput } from '../../src/reports/input.js';

/** Report inputs for tests: small hand-made pieces, and a simulated batch (deterministic). */

export const PUBLISHED = '2026-05-04T09:00:00.000Z';
const T0 = Date.parse(PUBLISHED);
export const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();

type Assignment = ReportInput['assignments'][number];
type Hit = ReportInput['hits'][number];
type Item = ReportInput['items'][number];

export const item = (id: string, extra: Partial<Item> = {}): Item => ({ item: id, queryId: `q-${id}`, chunkId: `c-${id}`, ...extra });

export const hit = (hitId: string, items: string[], checks: Hit['checks'] = [], extra: Partial<Hit> = {}): Hit => ({
  hitId,
  items,
  checks,
  rewardCents: 100,
  maxAssignments: 3,
  ...extra,
});

/**
 * An assignment answering `labels` (item -> label), accepted at `start` seconds after
 * publishing and submitted `workSeconds` later.
 */
export function work(
  id: string,
  hitId: string,
  worker: string,
  labels: Record<string, Judgment>,
  opts: { start?: number; workSeconds?: number } & Partial<Assignment> = {},
): Assignment {
  const { start = 60, workSeconds = 480, ...extra } = opts;
  return {
    assignmentId: id,
    hitId,
    worker,
    status: 'approved',
    answers: Object.entries(labels).map(([item, label]) => ({ item, label })),
    acceptedAt: at(start),
    submittedAt: at(start + workSeconds),
    ...extra,
  };
}

/** mulberry32: a small seeded generator, so simulated batches are the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SimulatedBatch {
  items: number;
  seed: number;
  batch: string;
  /** Worker ids to use instead of the defaults (e.g. hostile ones). */
  workers: readonly string[];
}

/**
 * A batch as a DREAM run produces it: HITs of 9 real items and 1 check (polarities
 * alternating), 3 assignments each by distinct workers, one always-yes worker whose
 * failed checks get the assignment approved and discarded (and an extra assignment
 * bought), one fast worker, one pending review, bonuses, a hidden truth and the agents'
 * final labels, with the quote it was published with.
 */
export function simulatedBatch(options: Partial<SimulatedBatch> = {}): ReportInput {
  const { items: n = 45, seed = 7, batch = 'dream-sim' } = options;
  const workers = options.workers ?? ['w-alice', 'w-bob', 'w-carol', 'w-dave', 'w-erin', 'w-yes', 'w-fast'];
  const rand = random(seed);
  const truth: Judgment[] = Array.from({ length: n }, () => (rand() < 0.45 ? 'yes' : 'no'));
  const items: Item[] = truth.map((t, i) =>
    item(`it${String(i).padStart(4, '0')}`, {
      agentLabels: { A: 'yes', B: rand() < 0.3 ? 'yes' : 'no' },
      hiddenLabel: t,
      dataset: `ds${i % 2}`,
    }),
  );
  const hits: Hit[] = [];
  for (let h = 0; h * 9 < n; h++) {
    const real = items.slice(h * 9, h * 9 + 9).map((it) => it.item);
    hits.push(hit(`HIT${String(h).padStart(3, '0')}`, real, [{ item: `gold${h}`, expected: h % 2 === 0 ? 'no' : 'yes' }]));
  }
  const truthOf = new Map(items.map((it) => [it.item, it.hiddenLabel!]));
  const expectedOf = (h: Hit, id: string) => truthOf.get(id) ?? (h.checks ?? []).find((c) => c.item === id)!.expected;

  const assignments: Assignment[] = [];
  const bonuses: NonNullable<ReportInput['bonuses']> = [];
  hits.forEach((h, index) => {
    const arrival = index * 900 + rand() * 600;
    const chosen: string[] = [];
    while (chosen.length < 3) {
      const w = workers[Math.floor(rand() * workers.length)]!;
      if (!chosen.includes(w)) chosen.push(w);
    }
    const answer = (worker: string, id: string): Judgment => {
      const expected = expectedOf(h, id);
      if (worker === workers[5]) return 'yes';
      const accuracy = worker === workers[6] ? 0.7 : 0.92;
      return rand() < accuracy ? expected : expected === 'yes' ? 'no' : 'yes';
    };
    const submit = (worker: string, k: number, start: number): Assignment => {
      const ids = [...h.items, ...(h.checks ?? []).map((c) => c.item)];
      const fast = worker === workers[6];
      const perItem = ids.map(() => Math.round((fast ? 6 : 35 + rand() * 30) * 1000));
      const workSeconds = perItem.reduce((a, b) => a + b, 0) / 1000 + 20;
      return {
        assignmentId: `${h.hitId}-A${k}`,
        hitId: h.hitId,
        worker,
        status: 'approved',
        answers: ids.map((id, m) => ({ item: id, label: answer(worker, id), timeMs: perItem[m]! })),
        acceptedAt: at(Math.round(start)),
        submittedAt: at(Math.round(start + workSeconds)),
      };
    };
    // review: a failed check gets the assignment approved and discarded
    const reviewed = (a: Assignment): Assignment => {
      const failed = a.answers.some((x) => (h.checks ?? []).some((c) => c.item === x.item && c.expected !== x.label));
      return failed ? { ...a, discarded: true } : a;
    };
    let k = 0;
    let discarded = 0;
    for (const w of chosen) {
      const a = reviewed(submit(w, k++, arrival + k * 200 + rand() * 300));
      if (a.discarded) discarded++;
      assignments.push(a);
    }
    // one extra assignment per discarded one (a replacement that fails too is not replaced again)
    let extra = 0;
    while (discarded-- > 0) {
      const replacement = workers.find((w) => !chosen.includes(w) && w !== workers[5]);
      if (replacement === undefined) break;
      chosen.push(replacement);
      assignments.push(reviewed(submit(replacement, k++, arrival + 3600 + extra++ * 300)));
    }
    h.maxAssignments = 3 + extra;
    if (index === hits.length - 1) {
      const last = assignments.at(-1)!;
      last.status = 'submitted'; // not reviewed yet
      delete last.discarded;
      h.maxAssignments! += 1; // and one slot nobody took
    }
  });
  assignments
    .filter((a) => a.worker === workers[0])
    .slice(0, 2)
    .forEach((a) => bonuses.push({ worker: a.worker, assignmentId: a.assignmentId, amountCents: 25 }));

  const quote = quoteCost({
    hits: hits.map((h) => ({ realItems: h.items.length, checks: (h.checks ?? []).length })),
    reward: '1.00',
    assignmentsPerHit: 3,
    masters: false,
  });
  return { batch, publishedAt: PUBLISHED, quote, holesFound: Math.round(n / 5), items, hits, assignments, bonuses };
}
