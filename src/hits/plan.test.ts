import { describe, expect, it } from 'vitest';
import { debateFor, makeCases, makeGold, PRICING } from '../../test/hits/fixtures.js';
import type { EscalatedCase, GoldItem } from '../domain/cases.js';
import { simKey } from './keys.js';
import type { PlannedCheckItem, PlannedItem } from './plan-schema.js';
import { HitQuestion, PlannedHit } from './plan-schema.js';
import { balancedPolarities, checksFor, moveChecks, planHits, type PlanInput, type PlanLayoutInput } from './plan.js';
import { seededRng } from './random.js';
import { MAX_QUESTION_BYTES, utf8Bytes } from './render.js';

const plan = (
  input: Partial<PlanInput> & Pick<PlanInput, 'cases'>,
  layout: PlanLayoutInput = {},
  seed = 'seed-1',
  maxQuestionBytes?: number,
) => planHits({ gold: makeGold(6, 6), ...input }, { seed, layout, pricing: PRICING, ...(maxQuestionBytes && { maxQuestionBytes }) });

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

  it("hides the debate (checks' too) when asked", () => {
    const p = plan({ cases: makeCases(9) }, { hideDebate: true });
    expect(p.questions[0]?.xml).not.toContain('class="debate"');
    expect(p.questions[0]?.xml).not.toContain('<mark');
  });
});

describe('check debates', () => {
  const sectionOf = (xml: string, position: number) => {
    const start = xml.indexOf(`<section class="item" id="item${position}"`);
    return xml.slice(start, xml.indexOf('</section>', start));
  };

  it("are written for the check's own query and chunk, quote it (highlighted) and end in disagreement", () => {
    const cases = makeCases(18);
    const gold = makeGold(3, 3);
    const p = plan({ cases, gold });
    for (const [h, hit] of p.hits.entries()) {
      const xml = p.questions[h]?.xml ?? '';
      for (const c of checksOf(hit.items)) {
        const g = gold.find((x) => x.chunk_id === c.chunkId) as GoldItem;
        const section = sectionOf(xml, c.position);
        expect(section).toContain('<mark class="ev');
        expect(section.match(/data-sim-verdict="(yes|no)"/g)?.sort()).toEqual(['data-sim-verdict="no"', 'data-sim-verdict="yes"']);
        expect(section).toContain('<h4>Agent A</h4>');
        // the quotes come from this chunk, no other item's
        for (const [, quote] of section.matchAll(/<li><q>([^<]*)<\/q><\/li>/g)) expect(g.chunk).toContain(quote);
      }
    }
  });

  it('never borrow another item: no case of the batch lends its reasoning to a check', () => {
    const cases = makeCases(9).map((c, i) => ({ ...c, debate: c.debate.map((t) => ({ ...t, reasoning: `${t.reasoning} [case ${i}]` })) }));
    const p = plan({ cases });
    const check = checksOf(p.hits[0]?.items ?? [])[0] as PlannedCheckItem;
    expect(sectionOf(p.questions[0]?.xml ?? '', check.position)).not.toMatch(/\[case \d+\]/);
  });

  it('work for a one-HIT, one-query batch (no unrelated debate needed)', () => {
    const cases = makeCases(3).map((c) => ({ ...c, query_id: 'only' }));
    expect(plan({ cases }).checks.total).toBe(1);
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
    expect(p.hits.length).toBeGreaterThanOrEqual(2);
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

describe('a case that fits alone but not with a check', () => {
  // about 44 KB of chunk: its HIT alone makes about 58 KB, beside a long check it overflows 65,535 bytes
  const longCase = (c: EscalatedCase, i: number): EscalatedCase => ({
    ...c,
    chunk_id: `long${i}`,
    chunk: `${c.chunk} ${'Long text of the case. '.repeat(1900)}`,
  });
  const withLong = (n: number, at: readonly number[]) => makeCases(n).map((c, i) => (at.includes(i) ? longCase(c, i) : c));
  // gold items that carry their own long debates: any of them overflows beside a long case
  const longGold = (yes: number, no: number): GoldItem[] =>
    makeGold(yes, no).map((g, i) => {
      const chunk = `${g.chunk} ${'Gold filler sentence. '.repeat(400)} end ${i}.`;
      return { ...g, chunk, debate: debateFor(chunk) };
    });

  it('takes a check short enough to fit beside it', () => {
    const gold = [
      ...longGold(6, 6),
      ...makeGold(2, 2).map((g) => ({ ...g, query_id: `short-${g.query_id}`, chunk_id: `short-${g.chunk_id}` })),
    ];
    const p = plan({ cases: withLong(20, [17]), gold });
    const hit = p.hits.find((h) => h.items.some((i) => i.chunkId === 'long17'));
    expect(hit?.realItems).toBe(1);
    expect(hit?.checks).toBe(1);
    expect(checksOf(hit?.items ?? [])[0]?.chunkId).toMatch(/^short-/);
    expect(p.checklessHits).toBe(0);
    for (const h of p.hits) expect(h.bytes).toBeLessThanOrEqual(MAX_QUESTION_BYTES);
  });

  it('goes without a check when no gold item fits, and the batch keeps its check count', () => {
    const cases = withLong(40, [8, 17]);
    const p = plan({ cases, gold: longGold(8, 8) });
    const long = p.hits.filter((h) => h.items.some((i) => i.chunkId.startsWith('long')));
    expect(long.map((h) => [h.realItems, h.checks])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    expect(p.checklessHits).toBe(2);
    for (const h of p.hits) expect(h.bytes).toBeLessThanOrEqual(MAX_QUESTION_BYTES);
    // the checks the two long cases' HITs would have held sit in other HITs
    const wanted = p.hits.reduce((sum, h) => sum + checksFor(h.realItems, { itemsPerHit: 9, checksPerHit: 1 }), 0);
    expect(p.checks.total).toBe(wanted);
    expect(p.hits.filter((h) => h.checks === 2)).toHaveLength(2);
    expect(p.hits.reduce((a, h) => a + h.realItems, 0)).toBe(40);
    // still balanced, still deterministic
    expect(Math.abs(p.checks.yes - p.checks.no)).toBeLessThanOrEqual(1);
    expect(plan({ cases, gold: longGold(8, 8) })).toEqual(p);
  });

  it('publishes a batch of long cases only, without checks', () => {
    const p = plan({ cases: withLong(2, [0, 1]), gold: longGold(3, 3) });
    expect(p.hits.map((h) => [h.realItems, h.checks])).toEqual([
      [1, 0],
      [1, 0],
    ]);
  });

  it('leaves a plan whose HITs all fit as it was', () => {
    const cases = makeCases(30);
    expect(plan({ cases }).checklessHits).toBe(0);
    expect(plan({ cases, caseOrigins: cases.map((_, i) => `line ${i + 1}`) })).toEqual(plan({ cases }));
  });

  it('refuses a case too long even alone, naming its input line and size', () => {
    const cases = makeCases(9);
    cases[4] = { ...(cases[4] as EscalatedCase), chunk_id: 'huge-one', chunk: 'y'.repeat(70_000) };
    expect(() => plan({ cases, caseOrigins: cases.map((_, i) => `line ${i + 3} of cases.jsonl`) })).toThrow(
      /batch item 5 \(line 7 of cases\.jsonl, query_id "q1" chunk_id "huge-one"\) alone makes a \d+-byte HTMLQuestion/,
    );
  });
});

describe('moveChecks', () => {
  it('moves the checks of HITs that hold none to the HITs with the fewest per item, each at most the cap', () => {
    expect(moveChecks([1, 1, 1, 1], [9, 'none', 9, 4], 5)).toEqual([2, 0, 1, 1]);
    expect(moveChecks([1, 1, 1, 1], [9, 'none', 9, 'none'], 5)).toEqual([2, 0, 2, 0]);
    expect(moveChecks([1, 1, 1], [9, 'none', 'keep'], 1)).toEqual([1, 0, 1]);
    expect(moveChecks([1, 1], ['none', 1], 5)).toEqual([0, 1]);
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
