import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../paths.js';
import { confidentVerdict, decide, testAnswers, type AnswerModel, type ItemView, type OracleEntry } from './decide.js';
import { dealKinds, drawPopulation, seedTag, type SimWorker } from './draw.js';
import { checkPopulation, POPULATION_DEFAULTS, type PopulationInput, type PopulationProfile } from './population.js';
import { seededRng } from './random.js';
import { parseAnswerKey, parseTest } from '@qrelay/marketplace';

const input: PopulationInput = {
  seed: 'unit',
  size: 20,
  arrivalsPerHour: 30,
  shares: { spammer: 0.15, alwaysYes: 0.1, alwaysNo: 0.05, llm: 0.1 },
  accuracy: { relevant: { alpha: 18, beta: 2 }, notRelevant: { alpha: 17, beta: 3 } },
  workTime: { medianSeconds: 40 },
};

function profile(over: Partial<PopulationInput> = {}): PopulationProfile {
  const r = checkPopulation({ ...input, ...over });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.profile;
}

describe('population profiles', () => {
  it('accept the sample population and fill in the documented defaults', () => {
    const sample = checkPopulation(JSON.parse(readFileSync(join(paths.samples, 'population.json'), 'utf8')));
    expect(sample.ok).toBe(true);
    expect(profile()).toMatchObject({
      seed: 'unit',
      idPrefix: 'SIM',
      hitsPerVisit: 10,
      llmAgreement: 1,
      abandonRate: 0,
      returnRate: 0,
      workTime: { medianSeconds: 40, sigma: 0.5, workerSigma: 0.3, fastFactor: 0.3 },
      qualificationSkill: { alpha: 19, beta: 1 },
      profile: {
        approvalRate: { alpha: 98, beta: 2 },
        approvedHits: { median: 2000, sigma: 1 },
        locales: [{ country: 'US', share: 1 }],
        mastersShare: 0,
        adultShare: 1,
      },
    });
    expect(profile({ seed: 42 as never }).seed).toBe('42');
  });

  it("need only size and shares: the rest takes the default population's values", () => {
    const r = checkPopulation({ size: 5, shares: { spammer: 0.2 } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.profile).toMatchObject({
      seed: POPULATION_DEFAULTS.seed,
      size: 5,
      arrivalsPerHour: POPULATION_DEFAULTS.arrivalsPerHour,
      shares: { spammer: 0.2, alwaysYes: 0 },
      accuracy: POPULATION_DEFAULTS.accuracy,
      workTime: { medianSeconds: POPULATION_DEFAULTS.medianSeconds, sigma: 0.5 },
    });
    const seeded = checkPopulation({ seed: 'held-out', size: 5, shares: {} });
    expect(seeded.ok && seeded.profile.seed).toBe('held-out');
    // the defaults are the sample's own values, so a minimal file draws the default crowd
    const sample = JSON.parse(readFileSync(join(paths.samples, 'population.json'), 'utf8')) as PopulationInput;
    expect({ seed: sample.seed, arrivalsPerHour: sample.arrivalsPerHour, accuracy: sample.accuracy }).toEqual({
      seed: POPULATION_DEFAULTS.seed,
      arrivalsPerHour: POPULATION_DEFAULTS.arrivalsPerHour,
      accuracy: POPULATION_DEFAULTS.accuracy,
    });
    expect(sample.workTime?.medianSeconds).toBe(POPULATION_DEFAULTS.medianSeconds);
    expect(checkPopulation({ shares: {} }).ok).toBe(false);
  });

  it('name every field that is wrong', () => {
    const r = checkPopulation({ ...input, workTime: { medianSeconds: 0 }, profile: { locales: [] }, idPrefix: 'sim' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.path).sort()).toEqual(['idPrefix', 'profile.locales', 'workTime.medianSeconds']);
    const rates = checkPopulation({ ...input, abandonRate: 0.7, returnRate: 0.5 });
    expect(rates.ok ? [] : rates.issues).toEqual([{ path: 'returnRate', message: 'abandonRate + returnRate add up to more than 1' }]);
  });
});

describe('drawing a population', () => {
  it('deals the kinds exactly by their shares, shuffled by the seed', () => {
    const kinds = dealKinds(profile(), seededRng('x'));
    const count = (k: string) => kinds.filter((x) => x === k).length;
    expect([count('spammer'), count('alwaysYes'), count('alwaysNo'), count('llm'), count('diligent')]).toEqual([3, 2, 1, 2, 12]);
    expect(dealKinds(profile({ size: 7, shares: { spammer: 0.5 } }), seededRng('y')).filter((k) => k === 'spammer')).toHaveLength(4);
    expect(dealKinds(profile(), seededRng('x'))).toEqual(kinds);
    expect(dealKinds(profile(), seededRng('z'))).not.toEqual(kinds);
  });

  it('is repeatable, and gives each worker an id, an accuracy, a speed and a profile', () => {
    const a = drawPopulation(profile());
    expect(drawPopulation(profile())).toEqual(a);
    const tag = seedTag('unit');
    expect(a.map((w) => w.workerId)).toEqual(Array.from({ length: 20 }, (_, i) => `ASIM${tag}${String(i).padStart(2, '0')}`));
    expect(new Set(a.map((w) => w.displayName)).size).toBe(20);
    for (const w of a) {
      expect(w.accuracy.relevant).toBeGreaterThan(0);
      expect(w.accuracy.relevant).toBeLessThan(1);
      expect(w.profile.baseline.submitted).toBeGreaterThanOrEqual(w.profile.baseline.approved);
      expect(w.profile.locale).toEqual({ Country: 'US' });
    }
    const fast = a.filter((w) => w.kind === 'spammer').map((w) => w.medianItemSeconds);
    expect(Math.max(...fast)).toBeLessThan(40 * 0.3 * 4);
    expect(drawPopulation(profile({ seed: 'other' }))[0]!.workerId).not.toBe(a[0]!.workerId);
  });
});

const worker = (over: Partial<SimWorker>): SimWorker => ({
  index: 0,
  workerId: 'AW1',
  displayName: 'w1',
  kind: 'diligent',
  accuracy: { relevant: 0.9, notRelevant: 0.7 },
  llmAgreement: 1,
  careful: 0,
  medianItemSeconds: 30,
  itemSigma: 0.5,
  qualificationSkill: 0.9,
  profile: { locale: { Country: 'US' }, adult: true, masters: false, baseline: { submitted: 0, approved: 0 } },
  ...over,
});

describe('deciding answers', () => {
  const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}`);
  const model = (over: Partial<AnswerModel> = {}): AnswerModel => ({
    llm: { checkAccuracy: 0.97, agentAgreement: 0.9, timeFactor: 0.5, tabShare: 0.7, commentShare: 0.1, canaryEcho: 0.5 },
    debate: { careful: { alpha: 1, beta: 1 }, gain: 0.6, sway: 0.6, misleading: 0 },
    items: { hardShare: 0, hardAccuracy: 0.5, relevantShare: 0.4 },
    fatigue: { perItem: 0.03, floor: 0.2 },
    ...over,
  });
  const alone: ItemView = { itemsDone: 0 };
  const rate = (w: SimWorker, entry: OracleEntry | undefined, answer: string, view: ItemView = alone, m: AnswerModel = model()) =>
    keys.filter((k) => decide('s', w, k, entry, view, m) === answer).length / keys.length;
  const tol = (p: number) => 5 * Math.sqrt((p * (1 - p)) / keys.length);

  it('follows each kind', () => {
    const yes: OracleEntry = { truth: 'yes', model: 'no' };
    const no: OracleEntry = { truth: 'no' };
    expect(Math.abs(rate(worker({}), yes, 'yes') - 0.9)).toBeLessThan(tol(0.9));
    expect(Math.abs(rate(worker({}), no, 'no') - 0.7)).toBeLessThan(tol(0.7));
    expect(Math.abs(rate(worker({ kind: 'spammer' }), yes, 'yes') - 0.5)).toBeLessThan(tol(0.5));
    expect(rate(worker({ kind: 'alwaysYes' }), no, 'yes')).toBe(1);
    expect(rate(worker({ kind: 'alwaysNo' }), yes, 'no')).toBe(1);
    // keys the oracle does not know: a coin
    expect(Math.abs(rate(worker({ kind: 'alwaysYes' }), undefined, 'yes') - 0.5)).toBeLessThan(tol(0.5));
  });

  it('gives LLM-assisted workers one shared LLM verdict: right on checks, with one agent on escalated items', () => {
    const escalated: OracleEntry = { truth: 'yes', model: 'no' };
    expect(Math.abs(rate(worker({ kind: 'llm' }), escalated, 'no') - 0.9)).toBeLessThan(tol(0.9));
    expect(Math.abs(rate(worker({ kind: 'llm' }), { truth: 'no', check: true }, 'no') - 0.97)).toBeLessThan(tol(0.97));
    // two LLM-assisted workers give the same answer to every item: one LLM verdict per item
    const a = keys.slice(0, 500).map((k) => decide('s', worker({ kind: 'llm' }), k, escalated, alone, model()));
    const b = keys.slice(0, 500).map((k) => decide('s', worker({ kind: 'llm', workerId: 'AW2' }), k, escalated, alone, model()));
    expect(b).toEqual(a);
    // without a model label the LLM is at chance on escalated items
    expect(Math.abs(rate(worker({ kind: 'llm' }), { truth: 'no' }, 'no') - 0.5)).toBeLessThan(tol(0.5));
  });

  it('reads the debate: careful readers are more accurate, careless ones follow the more confident agent', () => {
    const entry: OracleEntry = { truth: 'yes' };
    const debate: ItemView = {
      itemsDone: 0,
      arguments: [
        { verdict: 'yes', confidence: 0 },
        { verdict: 'no', confidence: 2 },
      ],
    };
    const careful = worker({ accuracy: { relevant: 0.7, notRelevant: 0.7 }, careful: 1 });
    expect(Math.abs(rate(careful, entry, 'yes', debate) - (0.7 + 0.3 * 0.6))).toBeLessThan(tol(0.88));
    expect(Math.abs(rate(careful, entry, 'yes') - 0.7)).toBeLessThan(tol(0.7));
    const careless = worker({ accuracy: { relevant: 0.7, notRelevant: 0.7 }, careful: 0 });
    // swayed to the confident "no" 60% of the time, else right 70% of the time
    expect(Math.abs(rate(careless, entry, 'yes', debate) - 0.4 * 0.7)).toBeLessThan(tol(0.28));
    expect(
      confidentVerdict([
        { verdict: 'yes', confidence: 1 },
        { verdict: 'no', confidence: 1 },
      ]),
    ).toBeUndefined();
    // on a misleading item the evidence leads every careful reader the same wrong way
    const misled = model({ debate: { careful: { alpha: 1, beta: 1 }, gain: 1, sway: 0, misleading: 1 } });
    expect(rate(careful, entry, 'no', debate, misled)).toBe(1);
  });

  it('makes hard items hard for everyone and tires fatigue workers', () => {
    const entry: OracleEntry = { truth: 'yes' };
    expect(
      Math.abs(rate(worker({}), entry, 'yes', alone, model({ items: { hardShare: 1, hardAccuracy: 0.55, relevantShare: 0.4 } })) - 0.55),
    ).toBeLessThan(tol(0.55));
    expect(
      rate(
        worker({}),
        { truth: 'yes', check: true },
        'yes',
        alone,
        model({ items: { hardShare: 1, hardAccuracy: 0.55, relevantShare: 0.4 } }),
      ),
    ).toBeGreaterThan(0.85);
    const tired = worker({ kind: 'fatigue' });
    expect(Math.abs(rate(tired, entry, 'yes', { itemsDone: 0 }) - 0.9)).toBeLessThan(tol(0.9));
    expect(Math.abs(rate(tired, entry, 'yes', { itemsDone: 100 }) - (0.5 + 0.4 * 0.2))).toBeLessThan(tol(0.58));
  });

  it('answers an item the same way whatever the order, and differently per worker', () => {
    const w = worker({});
    const entry: OracleEntry = { truth: 'yes' };
    const first = keys.slice(0, 200).map((k) => decide('s', w, k, entry, alone, model()));
    expect(
      [...keys.slice(0, 200)]
        .reverse()
        .map((k) => decide('s', w, k, entry, alone, model()))
        .reverse(),
    ).toEqual(first);
    expect(keys.slice(0, 200).map((k) => decide('s', worker({ workerId: 'AW2' }), k, entry, alone, model()))).not.toEqual(first);
  });

  it('takes qualification tests with the worker skill', () => {
    const form =
      parseTest(`<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd">
      <Question><QuestionIdentifier>q1</QuestionIdentifier><QuestionContent><Text>?</Text></QuestionContent><AnswerSpecification><SelectionAnswer><Selections>
        <Selection><SelectionIdentifier>a</SelectionIdentifier><Text>A</Text></Selection><Selection><SelectionIdentifier>b</SelectionIdentifier><Text>B</Text></Selection>
      </Selections></SelectionAnswer></AnswerSpecification></Question>
      <Question><QuestionIdentifier>q2</QuestionIdentifier><QuestionContent><Text>?</Text></QuestionContent><AnswerSpecification><FreeTextAnswer/></AnswerSpecification></Question>
    </QuestionForm>`);
    const key =
      parseAnswerKey(`<AnswerKey xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd">
      <Question><QuestionIdentifier>q1</QuestionIdentifier><AnswerOption><SelectionIdentifier>b</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption>
      <AnswerOption><SelectionIdentifier>a</SelectionIdentifier><AnswerScore>0</AnswerScore></AnswerOption></Question></AnswerKey>`);
    const rng = seededRng('tests');
    expect(testAnswers(form, key, 1, rng)).toEqual({ q1: 'b', q2: 'simulated answer' });
    expect(testAnswers(form, key, 0, rng)).toEqual({ q1: 'a', q2: 'simulated answer' });
    const right = Array.from({ length: 4000 }, () => testAnswers(form, key, 0.8, rng).q1 === 'b').filter(Boolean).length / 4000;
    expect(Math.abs(right - 0.8)).toBeLessThan(5 * Math.sqrt(0.16 / 4000));
    expect(['a', 'b']).toContain(testAnswers(form, undefined, 1, rng).q1);
  });
});
