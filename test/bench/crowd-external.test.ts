import { describe, expect, it } from 'vitest';
import { computeFigures, balancedAccuracy, type FiguresInput } from '../../bench/crowd-external/figures.js';
import { batchOracle, DEFAULT_MIX, drawCrowd, parseMix } from '../../bench/crowd-external/crowd.js';
import { formFields, readHitForm, type ItemWork } from '../../bench/crowd-external/hit-form.js';
import { coin, rngFor } from '../../bench/crowd-external/rng.js';
import { renderHitPage } from '../../src/hits/render.js';
import { debateFor } from '../hits/fixtures.js';

/** The external crowd's pure parts: reading qrelay's HIT page as a browser does, the crowd under a seed, the bar's figures. */

const page = renderHitPage({
  items: [1, 2, 3].map((position) => ({
    position,
    key: `k${position}`.padEnd(16, '0'),
    query: `query ${position}`,
    answers: ['an answer'],
    chunk: `The chunk of item ${position}.`,
    debate: debateFor(`The chunk of item ${position}.`),
  })),
  hideDebate: false,
});

describe('the bots read the HIT page as a browser does', () => {
  const form = readHitForm(page, 'the test page');

  it('finds each judged item, its yes/no group, its text with the hidden cue, and the one form', () => {
    expect(form.items.map((i) => i.key)).toEqual(['k1', 'k2', 'k3'].map((k) => k.padEnd(16, '0')));
    expect(form.items.every((i) => i.answer !== '' && i.comment !== undefined)).toBe(true);
    expect(form.items[0]!.text).toContain('The chunk of item 1.');
    expect(form.method).toBe('post');
    expect(form.action).toBe('https://www.mturk.com/mturk/externalSubmit');
  });

  it('posts the chosen answer, the timer and event counts, every hidden field, and no unchecked box', () => {
    const work = new Map<string, ItemWork>(
      form.items.map((i, n) => [i.key, { answer: n === 1 ? 'no' : 'yes', ms: 1234.4 + n, events: { copy: n, paste: 0, 'focus-loss': 1 } }]),
    );
    const fields = formFields(form, work);
    const byName = new Map(fields);
    const [first, second] = form.items;
    expect(byName.get(first!.answer)).toBe('yes');
    expect(byName.get(second!.answer)).toBe('no');
    expect(fields.filter(([n]) => n === first!.answer)).toHaveLength(1);
    expect(byName.has('assignmentId')).toBe(true);
    expect(fields.map(([, v]) => v)).toContain('1234');
    expect(fields.filter(([n]) => /difficult/.test(n))).toEqual([]);
    expect(fields.filter(([n, v]) => /copies/.test(n) && v === '2')).toHaveLength(1);
    expect(fields.filter(([n, v]) => /focus/.test(n) && v === '1')).toHaveLength(3);
  });

  it('refuses a page without one form or without judged items, naming the page', () => {
    expect(() => readHitForm('<form></form><form></form>', 'page X')).toThrow(/page X holds 2 forms/);
    expect(() => readHitForm('<form><input name="a"></form>', 'page Y')).toThrow(/page Y marks no judged item/);
  });
});

describe('the crowd under a seed', () => {
  const truth = new Map(Array.from({ length: 400 }, (_, i) => [`key${i}`, i % 3 === 0 ? 'yes' : 'no'] as const));

  it('draws the same bots and the same answers for the same seed', () => {
    const one = drawCrowd('s', batchOracle('s', truth), DEFAULT_MIX, 60);
    const two = drawCrowd('s', batchOracle('s', truth), DEFAULT_MIX, 60);
    expect(one.map((b) => [b.name, b.behaviour.kind, b.arrivalSeconds, b.params])).toEqual(
      two.map((b) => [b.name, b.behaviour.kind, b.arrivalSeconds, b.params]),
    );
    const item = { key: 'key7', answer: 'a', text: '' };
    expect(one.map((b) => b.behaviour.work(item, 0))).toEqual(two.map((b) => b.behaviour.work(item, 0)));
    expect(Object.values(DEFAULT_MIX).reduce((s, n) => s + n, 0)).toBe(one.length);
  });

  it('gives one LLM per batch, right at its drawn rate, whose errors every LLM user shares', () => {
    const oracle = batchOracle('llm-seed', truth);
    expect(oracle.llmAccuracy).toBeGreaterThanOrEqual(0.65);
    expect(oracle.llmAccuracy).toBeLessThanOrEqual(0.9);
    const right = [...truth].filter(([k, t]) => oracle.llm(k) === t).length / truth.size;
    expect(Math.abs(right - oracle.llmAccuracy)).toBeLessThan(0.08);
    const users = drawCrowd('llm-seed', oracle, { ...DEFAULT_MIX, diligent: 0 }, 1).filter((b) => b.behaviour.kind === 'llm');
    for (const k of truth.keys()) {
      const answers = new Set(users.map((u) => u.behaviour.work({ key: k, answer: 'a', text: '' }, 0).answer));
      expect(answers).toEqual(new Set([oracle.llm(k)]));
    }
  });

  it('varies the crowd: counts by kind from QRELAY_BENCH_CROWD_MIX, LLM users the page does not see', () => {
    expect(parseMix('')).toEqual(DEFAULT_MIX);
    expect(parseMix(' llm=6, diligent=24 ')).toEqual({ ...DEFAULT_MIX, llm: 6, diligent: 24 });
    expect(() => parseMix('llm=six')).toThrow(/QRELAY_BENCH_CROWD_MIX: "llm=six" is not kind=count/);
    expect(() => parseMix('robot=2')).toThrow(/kind one of diligent, spammer/);
    const oracle = batchOracle('unseen', truth);
    const users = drawCrowd('unseen', oracle, { ...DEFAULT_MIX, llm: 8 }, 1, { llmSeen: 0 }).filter((b) => b.behaviour.kind === 'llm');
    expect(users).toHaveLength(8);
    for (const u of users) {
      expect(u.params.seen).toBe(false);
      const w = u.behaviour.work({ key: 'key1', answer: 'a', text: '' }, 0);
      expect(w.events).toEqual({ copy: 0, paste: 0, 'focus-loss': 0 });
      expect(w.comment).toBeUndefined();
      expect(w.answer).toBe(oracle.llm('key1'));
    }
    const seen = drawCrowd('unseen', oracle, { ...DEFAULT_MIX, llm: 8 }, 1).filter((b) => b.behaviour.kind === 'llm');
    expect(seen.every((u) => u.params.seen === true)).toBe(true);
  });

  it('has LLM users copy and leave the page on every item, careless workers turn after k, and keeps draws per name apart', () => {
    const bots = drawCrowd('t', batchOracle('t', truth), DEFAULT_MIX, 1);
    const llm = bots.find((b) => b.behaviour.kind === 'llm')!;
    const w = llm.behaviour.work({ key: 'key1', answer: 'a', text: '' }, 3);
    expect(w.events.copy).toBe(1);
    expect(w.events['focus-loss']).toBe(1);
    expect(w.comment ?? '').not.toMatch(/canary|code word/i);
    const careless = bots.find((b) => b.behaviour.kind === 'careless')!;
    const k = Number(careless.params.k);
    const before = Array.from({ length: 50 }, (_, i) => careless.behaviour.work({ key: `key${i}`, answer: 'a', text: '' }, k - 1));
    const after = Array.from({ length: 50 }, (_, i) => careless.behaviour.work({ key: `key${i}`, answer: 'a', text: '' }, k));
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(median(after.map((x) => x.ms))).toBeLessThan(median(before.map((x) => x.ms)) / 3);
    expect(rngFor('a', 'x').next()).toBe(rngFor('a', 'x').next());
    expect(rngFor('a', 'x').next()).not.toBe(rngFor('a', 'y').next());
    expect(coin('a', 'x')).toBe(coin('a', 'x'));
  });
});

describe("the bar's figures", () => {
  const truth = new Map([
    ['c1', 'yes'],
    ['c2', 'no'],
    ['c3', 'no'],
    ['c4', 'yes'],
  ] as const);
  const row = (workerId: string, over: Partial<FiguresInput['workers'][number]> = {}) => ({
    workerId,
    assignments: { submitted: 2, approved: 2, discarded: 0, rejected: 0, counted: 2 },
    checks: { passed: 1, total: 1 },
    flags: [],
    blocked: false,
    blockReason: null,
    medianSecondsPerItem: 30,
    ...over,
  });
  const submissions = (answers: Record<string, 'yes' | 'no'>, n = 2) =>
    Array.from({ length: n }, (_, i) => ({
      assignmentId: `A${i}`,
      hitId: 'H',
      at: 0,
      items: Object.entries(answers).map(([key, answer]) => ({ key, answer, ms: 1, copies: 0, pastes: 0, focusLosses: 0 })),
    }));
  const bot = (
    name: string,
    kind: string,
    answers: Record<string, 'yes' | 'no'>,
    params = {},
    accuracy = { relevant: 0.9, notRelevant: 0.9 },
  ) => ({
    name,
    workerId: `W${name}`,
    kind,
    params,
    exam: 'passed' as const,
    submissions: submissions(answers),
    refused: 0,
    errors: [],
    accuracy,
  });
  const right = { c1: 'yes', c2: 'no', c3: 'no', c4: 'yes' } as const;
  const input: FiguresInput = {
    bots: [
      bot('d1', 'diligent', right),
      bot('d2', 'diligent', right),
      bot('s1', 'spammer', { c1: 'no', c2: 'yes', c3: 'no', c4: 'no' }, {}, { relevant: 0.5, notRelevant: 0.5 }),
      bot('l1', 'llm', { c1: 'yes', c2: 'yes', c3: 'no', c4: 'yes' }),
      bot('k1', 'careless', right, { k: 1 }),
    ],
    workers: [
      row('Wd1'),
      row('Wd2', { assignments: { submitted: 2, approved: 2, discarded: 1, rejected: 0, counted: 1 } }),
      row('Ws1', { blocked: true, blockReason: 'soft block: stopped' }),
      row('Wl1', { flags: ['llm-assisted'] }),
      row('Wk1', { flags: ['llm-assisted'] }),
    ],
    audit: [
      { action: 'soft-block', subject: 'Wd1', reason: 'stopped', at: '2026-01-01T00:00:00Z', details: { cause: 'llm-assisted' } },
      { action: 'unblock', subject: 'Wd1', reason: 'lifted', at: '2026-01-01T00:01:00Z' },
    ],
    labels: new Map([
      ['c1', 'yes'],
      ['c2', 'yes'],
      ['c3', 'no'],
    ]),
    truth,
    ledger: [
      { kind: 'approval', assignmentId: 'X1', amountCents: 120 },
      { kind: 'approval', assignmentId: 'X1', amountCents: 120 },
      { kind: 'approval', assignmentId: 'X2', amountCents: 120 },
      { kind: 'deposit', amountCents: 100000 },
    ],
    assignmentStatus: new Map([
      ['X1', 'Approved'],
      ['X2', 'Submitted'],
    ]),
  };
  const f = computeFigures(input);
  const bar = (name: string) => f.bars.find((b) => b.name.startsWith(name))!;

  it('counts discarded diligent work, diligent workers ever stopped (a lifted stop too), bad and careless workers stopped', () => {
    expect(bar('diligent assignments').value).toBe(1 / 4);
    expect(bar('diligent assignments').met).toBe(false);
    expect(bar('diligent workers stopped at the end').value).toBe(0);
    expect(bar('diligent workers stopped (ever').value).toBe(1);
    expect(f.perBot.find((b) => b.name === 'd1')!.submittedBeforeStop).toBe(2);
    expect(bar('bad workers').value).toBe(1);
    expect(bar('careless').shown).toBe('0 of 1');
    expect(bar('careless').met).toBe(false);
  });

  it('reads LLM recall over LLM users and precision over every flagged worker', () => {
    expect(bar('LLM-assisted recall').value).toBe(1);
    expect(bar('LLM-assisted precision (flags').value).toBe(0.5);
    expect(bar('LLM-assisted precision of stops').shown).toBe('0.0% (0 of 1 stopped as LLM-assisted)');
  });

  it('compares balanced accuracy with the Bayes-optimal labels of the same votes, counts unlabelled cases and double payments', () => {
    expect(balancedAccuracy(input.labels, truth)).toBeCloseTo((1 + 0.5) / 2);
    expect(f.optimum).toBe(1);
    expect(bar('balanced accuracy').value).toBeCloseTo(0.75 - 1);
    expect(bar('cases labelled').shown).toBe('3 of 4');
    expect(bar('assignments paid twice').value).toBe(2);
  });
});
