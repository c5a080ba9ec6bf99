import { describe, expect, it } from 'vitest';
import type { CrowdPlatform, CrowdHit } from '../crowd/platform.js';
import { LIST_HITS_FROM, LIST_HITS_PER_POLLED, listingBudget, pollHits, unlisted } from './poll-hits.js';

const hit = (hitId: string, completed = 0): CrowdHit => ({
  hitId,
  hitTypeId: 'T',
  status: 'Assignable',
  maxAssignments: 3,
  available: 3 - completed,
  pending: 0,
  completed,
});

/** A platform holding `account` HITs: what ListHITs pages (100 a page) and GetHIT answer, and how often each was asked. */
function platform(account: CrowdHit[]) {
  const calls = { listed: 0, pages: 0, getHit: [] as string[] };
  const backend = {
    async *listHits() {
      for (let i = 0; i < account.length; i += 100) {
        calls.pages++;
        for (const h of account.slice(i, i + 100)) {
          calls.listed++;
          yield h;
        }
      }
    },
    getHit: async (id: string) => {
      calls.getHit.push(id);
      return account.find((h) => h.hitId === id) ?? { ...hit(id), status: 'Disposed' as const };
    },
  } as Pick<CrowdPlatform, 'listHits' | 'getHit'> as CrowdPlatform;
  return { backend, calls };
}

const ids = (n: number, prefix = 'H') => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);

describe('listingBudget and unlisted', () => {
  it('lists from LIST_HITS_FROM HITs to poll, reading at most LIST_HITS_PER_POLLED listed HITs per polled one', () => {
    expect(listingBudget(LIST_HITS_FROM - 1)).toBe(0);
    expect(listingBudget(LIST_HITS_FROM)).toBe(LIST_HITS_FROM * LIST_HITS_PER_POLLED);
    expect(listingBudget(451)).toBe(451 * LIST_HITS_PER_POLLED);
  });

  it('names the polled HITs the listing did not show, in their order', () => {
    expect(unlisted(['a', 'b', 'c'], new Map([['b', hit('b')]]))).toEqual(['a', 'c']);
  });
});

describe('pollHits', () => {
  it('few HITs: one GetHIT each, no listing', async () => {
    const { backend, calls } = platform(ids(300).map((id) => hit(id)));
    const views = await pollHits(backend, ['H0001', 'H0002'], 4);
    expect(calls.pages).toBe(0);
    expect(calls.getHit.sort()).toEqual(['H0001', 'H0002']);
    expect(views.get('H0002')).toEqual(hit('H0002'));
  });

  it('many HITs: ListHITs pages until every polled HIT is seen, and no GetHIT', async () => {
    const account = ids(451).map((id, i) => hit(id, i % 3));
    const { backend, calls } = platform([...account, ...ids(500, 'Z').map((id) => hit(id))]);
    const views = await pollHits(backend, ids(451), 4);
    expect(calls.pages).toBe(5);
    expect(calls.getHit).toEqual([]);
    expect([...views.keys()].sort()).toEqual(ids(451));
    expect(views.get('H0005')).toEqual(account[5]);
  });

  it('asks GetHIT for the polled HITs the listing does not show (a deleted HIT)', async () => {
    const { backend, calls } = platform(ids(LIST_HITS_FROM).map((id) => hit(id)));
    const views = await pollHits(backend, [...ids(LIST_HITS_FROM), 'GONE'], 4);
    expect(calls.pages).toBe(1);
    expect(calls.getHit).toEqual(['GONE']);
    expect(views.get('GONE')?.status).toBe('Disposed');
    expect(views.size).toBe(LIST_HITS_FROM + 1);
  });

  it('a few dozen HITs of a large batch: one GetHIT each, not the listing of every HIT', async () => {
    const account = ids(451).map((id) => hit(id));
    const { backend, calls } = platform(account);
    const polled = ids(451).filter((_, i) => i % 10 === 0);
    expect(polled.length).toBeLessThan(LIST_HITS_FROM);
    const views = await pollHits(backend, polled, 4);
    expect(calls.pages).toBe(0);
    expect(calls.getHit.sort()).toEqual(polled);
    expect(views.size).toBe(polled.length);
  });

  it('stops listing an account of many other HITs at its budget and asks GetHIT for the rest', async () => {
    const polled = ids(LIST_HITS_FROM, 'P');
    // the polled HITs come after 10,000 others
    const { backend, calls } = platform([...ids(10_000, 'A').map((id) => hit(id)), ...polled.map((id) => hit(id))]);
    const views = await pollHits(backend, polled, 4);
    expect(calls.listed).toBe(listingBudget(polled.length));
    expect(calls.getHit.sort()).toEqual(polled);
    expect(views.size).toBe(polled.length);
  });
});
