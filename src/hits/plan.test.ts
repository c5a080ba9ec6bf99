import { describe, expect, it } from 'vitest';
import { makeCases, makeGold, PRICING } from '../../test/hits/fixtures.js';
import type { EscalatedCase, GoldItem } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { simKey } from './keys.js';
import type { PlannedCheckItem, PlannedItem } from './plan-schema.js';
import { HitQuestion, PlannedHit } from './plan-schema.js';
import { balancedPolarities, checksFor, planHits, type PlanInput, type PlanLayoutInput } from './plan.js';
import { seededRng } from './random.js';
import { MAX_QUESTION_BYTES, utf8Bytes } from './render.js';

const POOL = makeCases(4, { prefix: 'pool-', queriesEvery: 1 });

const plan = (
  input: Partial<PlanInput> & Pick<PlanInput, 'cases'>,
  layout: PlanLayoutInput = {},
  seed = 'seed-1',
  maxQuestionBytes?: number,
) =>
  planHits(
    { gold: makeGold(6, 6), decoyPool: POOL, ...input },
    { seed, layout, pricing: PRICING, ...(maxQuestionBytes && { maxQuestionBytes }) },
  );

const checksOf = (items: PlannedItem[]) => items.filter((i): i is PlannedCheckItem => i.kind === 'check');

describe('checksFor', () => {
  it('gives a full HIT its checksPerHit and a smaller one a proportional share, at least one', () => {
    const layout = { itemsPerHit: 9, checksPerHit: 1 };
    expect(checksFor(9, layout)).toBe(1);
    expect(checksFor(2, layout)).toBe(1);
    expect(checksFor(1, layout)).toBe(1);
    expect(checksFor(18, { itemsPerHit: 18, checksPerHit: 2 })).toBe(2);
    expect(checksFor(9, { itemsPerHit: 18, checksPerHit: 2 })).toBe(1);
    expect(checksFor(9, { itemsPerHit: 9, checksPerHit: 0 })).toBe(0);
  });

  it('reads a check share as checks / (real items + checks)', () => {
    expect(checksFor(9, { itemsPerHit: 9, checkShare: 0.1 })).toBe(1);
    expect(checksFor(8, { itemsPerHit: 8, checkShare: 0.2 })).toBe(2);
    expect(checksFor(3, { itemsPerHit: 9, checkShare: 0.1 })).toBe(1);
    expect(checksFor(9, { itemsPerHit: 9, checkShare: 0 })).toBe(0);
  });
});

describe('balancedPolarities', () => {
  it.each([0, 1, 2, 7, 10, 451])('splits %i checks into halves differing by at most one', (n) => {
    const p = balancedPolarities(n, seededRng(`n${n}`));
    const yes = p.filter((x) => x === 'yes').length;
    expect(p).toHaveLength(n);
    expect(Math.abs(yes - (n - yes))).toBeLessThanOrEqual(1);
  });

  it('shuffles: the sequence is not the same block pattern for every seed', () => {
    const sequences = new Set(Array.from({ length: 20 }, (_, s) => balancedPolarities(10, seededRng(`s${s}`)).join(',')));
    expect(sequences.size).toBeGreaterThan(15);
  });
});

describe('packing', () => {
  it('puts 9 real items and 1 check in each HIT by default; the last HIT is smaller and still checked', () => {
    const cases = makeCases(40);
    const p = plan({ cases });
    expect(p.hits.map((h) => [h.realItems, h.checks])).toEqual([
      [9, 1],
      [9, 1],
      [9, 1],
      [9, 1],
      [4, 1],
    ]);
    expect(p.hits.map((h) => h.items.length)).toEqual([10, 10, 10, 10, 5]);
    for (const h of p.hits) expect(h.items.map((i) => i.position)).toEqual(h.items.map((_, i) => i + 1));
    // every real item exactly once, in batch order
    const real = p.hits.flatMap((h) => h.items.filter((i) => i.kind === 'real').map((i) => i.chunkId));
    expect(real).toEqual(cases.map((c) => c.chunk_id));
    expect(p.hits.map((h) => h.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it('honours itemsPerHit and checksPerHit, and a check share', () => {
    const p = plan({ cases: makeCases(20) }, { itemsPerHit: 8, checksPerHit: 2 });
    expect(p.hits.map((h) => [h.realItems, h.checks])).toEqual([
      [8, 2],
      [8, 2],
      [4, 1],
    ]);
    const s = plan({ cases: makeCases(16) }, { itemsPerHit: 8, checkShare: 0.2 });
    expect(s.hits.map((h) => [h.realItems, h.checks])).toEqual([
      [8, 2],
      [8, 2],
    ]);
    expect(s.checks.share).toBeCloseTo(0.2, 10);
    const none = plan({ cases: makeCases(5), gold: [] }, { checksPerHit: 0 });
    expect(none.checks.total).toBe(0);
    expect(none.hits[0]?.items.every((i) => i.kind === 'real')).toBe(true);
  });

  it('keeps the check share near 10% over a large batch', () => {
    const p = plan({ cases: makeCases(400), gold: makeGold(30, 30) });
    expect(p.checks.total).toBe(45);
    expect(p.checks.share).toBeCloseTo(45 / 445, 10);
  });

  it('balances check polarities over the batch and varies them between HITs', () => {
    const p = plan({ cases: makeCases(200), gold: makeGold(10, 10) }, { itemsPerHit: 9, checksPerHit: 2 });
    expect(p.checks.total).toBe(45);
    expect(Math.abs(p.checks.yes - p.checks.no)).toBeLessThanOrEqual(1);
    const full = p.hits.filter((h) => h.checks === 2);
    expect(full).toHaveLength(22);
    const mixes = new Set(
      full.map((h) =>
        checksOf(h.items)
          .map((c) => c.expected)
          .sort()
          .join('+'),
      ),
    );
    // with two checks per HIT some HITs get yes+yes, some no+no, some yes+no
    expect(mixes).toEqual(new Set(['yes+yes', 'no+no', 'no+yes']));
  });

  it('places checks at varying positions', () => {
    const p = plan({ cases: makeCases(900), gold: makeGold(10, 10) });
    const positions = new Set(p.hits.flatMap((h) => checksOf(h.items).map((c) => c.position)));
    expect(positions.size).toBe(10);
  });

  it('never repeats a gold item inside a HIT and spreads use over HITs', () => {
    const p = plan({ cases: makeCases(90), gold: makeGold(4, 4) }, { itemsPerHit: 3, checksPerHit: 3 });
    for (const h of p.hits) {
      const keys = checksOf(h.items).map((c) => c.key);
      expect(new Set(keys).size).toBe(keys.length);
    }
    // 90 checks over 8 gold items: least-used first gives 11 or 12 uses each
    expect(p.checks.goldItemsUsed).toBe(8);
    expect(p.checks.maxUsesOfOneGoldItem).toBeLessThanOrEqual(12);
  });

  it('takes the other polarity inside a HIT when one runs out, never repeating an item', () => {
    const p = plan({ cases: makeCases(9), gold: makeGold(1, 3) }, { itemsPerHit: 9, checksPerHit: 4 });
    const checks = checksOf(p.hits[0]?.items ?? []);
    expect(new Set(checks.map((c) => c.key)).size).toBe(4);
  });

  it('is deterministic for a seed and differs between seeds', () => {
    const input = { cases: makeCases(50), gold: makeGold(5, 5) };
    const a = plan(input, {}, 'alpha');
    const b = plan(input, {}, 'alpha');
    const c = plan(input, {}, 'beta');
    expect(b).toEqual(a);
    expect(c.hits.map((h) => h.items)).not.toEqual(a.hits.map((h) => h.items));
  });

  it('gives checks the same kind of opaque key as real items and marks the gold label as expected', () => {
    const gold = makeGold(3, 3);
    const p = plan({ cases: makeCases(9), gold });
    const check = checksOf(p.hits[0]?.items ?? [])[0] as PlannedCheckItem;
    const g = gold.find((x) => x.chunk_id === check.chunkId);
    expect(check.key).toBe(simKey(check.queryId, check.chunkId));
    expect(check.expected).toBe(g?.label);
  });

  it('produces metadata and questions that match their zod schemas and each other', () => {
    const p = plan({ cases: makeCases(12) });
    for (const h of p.hits) expect(PlannedHit.parse(h)).toEqual(h);
    for (const q of p.questions) expect(HitQuestion.parse(q)).toEqual(q);
    p.hits.forEach((h, i) => {
      expect(p.questions[i]?.index).toBe(h.index);
      expect(p.questions[i]?.sha256).toBe(h.questionSha256);
      expect(utf8Bytes(p.questions[i]?.xml ?? '')).toBe(h.bytes);
    });
    // the metadata is small and holds no question text
    expect(JSON.stringify(p.hits)).not.toContain('HTMLQuestion');
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });

  it('leaves gold items that are also batch items out of the check pool', () => {
    const cases = makeCases(9);
    const gold = [
      ...makeGold(3, 3),
      { ...(makeGold(1, 0)[0] as GoldItem), query_id: cases[0]?.query_id ?? '', chunk_id: cases[0]?.chunk_id ?? '' },
    ];
    const p = plan({ cases, gold });
    const keys = p.hits.flatMap((h) => h.items.map((i) => i.key));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the rendered HITs', () => {
  it('show a check exactly like a real item: same markup, an opaque key, no tell-tale ids', () => {
    const p = plan({ cases: makeCases(9) });
    const xml = p.questions[0]?.xml ?? '';
    const sections = [
      ...xml.matchAll(/<section class="item" id="item(\d+)" data-sim-key="([0-9a-f]{16})" aria-labelledby="item\d+-title">/g),
    ];
    expect(sections.map((m) => Number(m[1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const check = checksOf(p.hits[0]?.items ?? [])[0] as PlannedCheckItem;
    expect(sections[check.position - 1]?.[2]).toBe(check.key);
    expect(xml).not.toMatch(/data-(check|kind|expected|gold)|class="[^"]*check/);
    // ids of the items never reach the page
    for (const item of p.hits[0]?.items ?? []) {
      expect(xml).not.toContain(`"${item.chunkId}"`);
      expect(xml).not.toContain(`>${item.queryId}<`);
    }
    // every item has the same set of inputs
    for (const i of [1, 10]) {
      for (const field of ['answer', 'difficult', 'comment', 'ms']) expect(xml).toContain(`name="item${i}_${field}"`);
    }
  });

  it('hides the debate (and the decoys) when asked', () => {
    const p = plan({ cases: makeCases(9) }, { hideDebate: true });
    expect(p.questions[0]?.xml).not.toContain('class="debate"');
    expect(checksOf(p.hits[0]?.items ?? [])[0]?.decoy).toBeUndefined();
  });
});

describe('decoy debates', () => {
  const decoyCase = (c: PlannedCheckItem, all: EscalatedCase[]) => all.find((x) => x.chunk_id === c.decoy?.chunkId);

  it('come from a batch case of another query and dataset, never from a case shown in the same HIT', () => {
    const cases = makeCases(60, { queriesEvery: 3, datasets: 3 });
    const gold = makeGold(5, 5, { dataset: 'ds0' });
    const p = plan({ cases, gold });
    for (const h of p.hits) {
      const shownQueries = new Set(h.items.map((i) => i.queryId));
      for (const c of checksOf(h.items)) {
        const source = decoyCase(c, cases);
        expect(source).toBeDefined();
        expect(c.decoy?.source).toBe('batch');
        expect(source?.query_id).not.toBe(c.queryId);
        expect(shownQueries.has(source?.query_id ?? '')).toBe(false);
        expect(source?.dataset).not.toBe('ds0');
      }
    }
    expect(p.checks.decoysFromBatch).toBe(p.checks.total);
  });

  it('spread over the batch rather than repeating one debate', () => {
    const cases = makeCases(90);
    const p = plan({ cases, gold: makeGold(5, 5) });
    const used = p.hits.flatMap((h) => checksOf(h.items).map((c) => c.decoy?.chunkId));
    expect(new Set(used).size).toBe(used.length);
  });

  it('show the source debate on the page, with agents named by order like every item', () => {
    const cases = makeCases(18);
    const marked = cases.map((c, i) => ({
      ...c,
      debate: c.debate.map((t) => ({ ...t, agent: i % 2 ? 'agent_one' : t.agent, reasoning: `${t.reasoning} [case ${i}]` })),
    }));
    const p = plan({ cases: marked });
    const check = checksOf(p.hits[0]?.items ?? [])[0] as PlannedCheckItem;
    const index = marked.findIndex((c) => c.chunk_id === check.decoy?.chunkId);
    const xml = p.questions[0]?.xml ?? '';
    expect(xml).toContain(`[case ${index}]`);
    expect(xml).not.toContain('agent_one');
    expect(xml).toContain('<h4>Agent A</h4>');
  });

  it('fall back to the decoy pool when every batch debate is in the HIT or on the same query', () => {
    const cases = makeCases(5);
    const pool = makeCases(3, { prefix: 'pool-', queriesEvery: 1 });
    const p = plan({ cases, decoyPool: pool });
    const check = checksOf(p.hits[0]?.items ?? [])[0] as PlannedCheckItem;
    expect(check.decoy?.source).toBe('pool');
    expect(check.decoy?.queryId).toMatch(/^pool-/);
    expect(p.checks.decoysFromPool).toBe(1);
  });

  it('refuse, with a clear message, when nothing unrelated is available', () => {
    expect(() => plan({ cases: makeCases(5), decoyPool: [] })).toThrow(UserError);
    expect(() => plan({ cases: makeCases(5), decoyPool: [] })).toThrow(/no debate of an unrelated query.*decoy pool/);
  });
});

describe('size limits', () => {
  const bigCases = (n: number, chunkChars: number, char = 'x') =>
    makeCases(n).map((c, i) => ({ ...c, chunk: `${c.chunk} ${char.repeat(chunkChars)} end ${i}.` }));

  it('splits a HIT whose Question XML would exceed 65,535 bytes, keeping checks in each part', () => {
    const cases = bigCases(18, 7000);
    const p = plan({ cases });
    expect(p.splits).toBeGreaterThan(0);
    for (const h of p.hits) {
      expect(h.bytes).toBeLessThanOrEqual(MAX_QUESTION_BYTES);
      expect(h.checks).toBeGreaterThanOrEqual(1);
    }
    expect(p.hits.reduce((a, h) => a + h.realItems, 0)).toBe(18);
    expect(p.hits.length).toBeGreaterThan(2);
  });

  it('counts UTF-8 bytes, not characters', () => {
    // 9 x 2,600 three-byte characters: ~23,000 characters but ~70,000 bytes
    const cases = bigCases(9, 2600, '\u4e2d');
    const unsplit = plan({ cases }, {}, 'seed-1', 10_000_000);
    expect(unsplit.hits).toHaveLength(1);
    expect(unsplit.questions[0]?.xml.length).toBeLessThan(MAX_QUESTION_BYTES);
    expect(unsplit.hits[0]?.bytes).toBeGreaterThan(MAX_QUESTION_BYTES);
    const p = plan({ cases });
    expect(p.hits.length).toBe(2);
    expect(Math.max(...p.hits.map((h) => h.bytes))).toBeLessThanOrEqual(MAX_QUESTION_BYTES);
  });

  it('splits down to a limit given in the options', () => {
    const p = plan({ cases: makeCases(9) }, {}, 'seed-1', 20_000);
    expect(p.hits.length).toBeGreaterThan(1);
    for (const h of p.hits) expect(h.bytes).toBeLessThanOrEqual(20_000);
  });

  it('refuses an item that alone exceeds the limit, naming it', () => {
    const cases = makeCases(9);
    cases[4] = { ...(cases[4] as EscalatedCase), chunk_id: 'huge-one', chunk: 'y'.repeat(70_000) };
    expect(() => plan({ cases })).toThrow(
      /batch item 5 \(query_id "q1" chunk_id "huge-one"\) alone makes a \d+-byte HTMLQuestion, over MTurk's limit of 65535 bytes/,
    );
  });
});

describe('bad input', () => {
  it('names a duplicate case', () => {
    const cases = makeCases(4);
    cases.push({ ...(cases[1] as EscalatedCase) });
    expect(() => plan({ cases })).toThrow(/query_id "q0" chunk_id "c1" twice \(items 2 and 5\)/);
  });

  it('needs gold items of both polarities when there are checks', () => {
    expect(() => plan({ cases: makeCases(20), gold: makeGold(5, 0) })).toThrow(/no usable item labelled "no".*both polarities/);
    expect(() => plan({ cases: makeCases(20), gold: makeGold(0, 5) })).toThrow(/labelled "yes"/);
  });

  it('needs as many gold items as a HIT has checks', () => {
    expect(() => plan({ cases: makeCases(20), gold: makeGold(1, 1) }, { checksPerHit: 3 })).toThrow(
      /needs 3 attention checks but the gold pool has only 2/,
    );
  });

  it('names bad layout options', () => {
    expect(() => plan({ cases: makeCases(3) }, { itemsPerHit: 0 })).toThrow(/bad HIT layout: itemsPerHit/);
    expect(() => plan({ cases: makeCases(3) }, { checksPerHit: 1, checkShare: 0.1 })).toThrow(
      /checkShare: give checksPerHit or checkShare, not both/,
    );
    expect(() => plan({ cases: makeCases(3) }, { colour: 'red' } as PlanLayoutInput)).toThrow(/bad HIT layout/);
    expect(() => plan({ cases: [] })).toThrow(/no items/);
    expect(() => plan({ cases: makeCases(3) }, {}, ' ')).toThrow(/seed/);
  });
});

describe('the quote', () => {
  it('is part of the plan and counts every HIT', () => {
    const p = plan({ cases: makeCases(20) });
    expect(p.quote).toMatchObject({ hits: 3, assignments: 9, realItems: 20, checkItems: 3, rewards: 900, fees: 180, total: 1080 });
  });
});
