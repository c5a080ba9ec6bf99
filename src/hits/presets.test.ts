import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import {
  estimatedHitSeconds,
  hourlyPayCents,
  listPresets,
  llmAssistedAction,
  loadPreset,
  MASTERS_QUALIFICATION_IDS,
  parsePreset,
  presetPlanOptions,
  requiresMasters,
  resolveQualificationRequirements,
  type HitPreset,
} from './presets.js';
import { quoteCost } from './quote.js';

const base = {
  title: 'Judge passages',
  description: 'Decide whether a chunk supports an answer.',
  keywords: 'relevance',
  reward: '1.00',
  assignmentDurationSeconds: 1800,
  lifetimeSeconds: 86400,
  autoApprovalDelaySeconds: 86400,
};
const parse = (over: Record<string, unknown>) => parsePreset(JSON.stringify({ ...base, ...over }), 'hits/test.json');

describe('the bundled presets', () => {
  it('are dream and quick, and both are valid', () => {
    expect(listPresets()).toEqual(expect.arrayContaining(['dream', 'quick']));
    expect(() => loadPreset('quick')).not.toThrow();
  });

  it('dream reproduces the paper: 3 workers, 9 + 1 check, debate shown, its qualifications', () => {
    const dream = loadPreset('dream');
    expect(dream).toMatchObject({ assignmentsPerHit: 3, itemsPerHit: 9, checksPerHit: 1, hideDebate: false, reward: '1.00' });
    expect(dream.qualificationRequirements).toEqual([
      { id: '000000000000000000L0', comparator: 'GreaterThan', values: [90] },
      { id: '00000000000000000040', comparator: 'GreaterThanOrEqualTo', values: [500] },
      { custom: 'dream-exam', comparator: 'GreaterThanOrEqualTo', values: [90] },
    ]);
  });

  it("dream pays at least the paper's $7.50/h for 8 minutes of work, $0.10 per item shown", () => {
    const dream = loadPreset('dream');
    expect(estimatedHitSeconds(dream)).toBe(480);
    expect(hourlyPayCents(dream)).toBe(750);
    // the real cost of one label: 3 assignments of $1.00 + 20% fee, over 9 real items
    const quote = quoteCost({
      hits: [{ realItems: 9, checks: 1 }],
      reward: dream.reward,
      assignmentsPerHit: dream.assignmentsPerHit,
      masters: requiresMasters(dream),
    });
    expect(quote.perLabel).toBe(40);
  });

  it('quick has no qualifications and shorter durations, and still pays above minimum wage', () => {
    const quick = loadPreset('quick');
    const dream = loadPreset('dream');
    expect(quick.qualificationRequirements).toEqual([]);
    expect(quick.assignmentDurationSeconds).toBeLessThan(dream.assignmentDurationSeconds);
    expect(quick.lifetimeSeconds).toBeLessThan(dream.lifetimeSeconds);
    expect(hourlyPayCents(quick)).toBeGreaterThanOrEqual(725);
  });
});

describe('preset validation', () => {
  it('fills the defaults', () => {
    expect(parse({})).toMatchObject({
      assignmentsPerHit: 3,
      itemsPerHit: 9,
      checksPerHit: 1,
      frameHeight: 0,
      hideDebate: false,
      qualificationRequirements: [],
    });
  });

  it.each([
    [{ reward: '1.5.0' }, 'hits/test.json: reward: expected a USD amount with at most 2 decimals, such as "1.00"'],
    [{ reward: '0.00' }, 'reward: the reward must be at least "0.01"'],
    [{ reward: 1 }, 'reward: Invalid input: expected string, received number'],
    [{ title: 'x'.repeat(129) }, 'title: Too big'],
    [{ itemsPerHit: 0 }, 'itemsPerHit: Too small'],
    [{ lifetimeSeconds: 10 }, 'lifetimeSeconds: Too small'],
    [{ assignmentDurationSeconds: 90.5 }, 'assignmentDurationSeconds: expected a whole number of seconds'],
    [{ hideDebate: 'no' }, 'hideDebate: Invalid input: expected boolean'],
    [{ colour: 'red' }, 'hits/test.json: (the preset): unknown field(s) "colour"'],
    [{ qualificationRequirements: [{ id: '000000000000000000L0', values: [90] }] }, 'qualificationRequirements[0].comparator: required'],
    [
      { qualificationRequirements: [{ id: 'lower', comparator: 'Exists' }] },
      'qualificationRequirements[0].id: expected a QualificationTypeId',
    ],
    [
      { qualificationRequirements: [{ id: '00000000000000000040', comparator: 'GreaterThan', values: [1, 2] }] },
      'qualificationRequirements[0].values: GreaterThan needs exactly one entry in "values"',
    ],
    [
      { qualificationRequirements: [{ id: '00000000000000000040', comparator: 'Exists', values: [1] }] },
      'qualificationRequirements[0].values: Exists takes no values',
    ],
    [
      { qualificationRequirements: [{ id: '00000000000000000071', comparator: 'In', values: [1] }] },
      'qualificationRequirements[0].values: the Locale qualification takes "locales"',
    ],
    [
      { qualificationRequirements: [{ id: '00000000000000000071', comparator: 'EqualTo', locales: [{ country: 'usa' }] }] },
      'qualificationRequirements[0].locales[0].country: expected an ISO 3166 country code',
    ],
    [
      { qualificationRequirements: [{ id: 'ABC', custom: 'x', comparator: 'Exists' }] },
      'qualificationRequirements[0]: give exactly one of "id", "custom" or "masters"',
    ],
    [
      { qualificationRequirements: [{ masters: true, comparator: 'GreaterThan' }] },
      'qualificationRequirements[0].comparator: Masters is required with "Exists"',
    ],
    [
      { qualificationRequirements: Array.from({ length: 11 }, () => ({ masters: true })) },
      'qualificationRequirements: MTurk allows at most 10 qualification requirements',
    ],
  ])('%j is refused, naming the field', (over, message) => {
    expect(() => parse(over)).toThrow(UserError);
    expect(() => parse(over)).toThrow(message);
  });

  it('refuses a reward below the federal minimum wage for the estimated time', () => {
    expect(() => parse({ reward: '0.50' })).toThrow(
      'reward: $0.50 for an estimated 480 s per HIT pays $3.75/h, below the US federal minimum wage of $7.25/h: raise the reward or put fewer items in a HIT',
    );
    expect(() => parse({ reward: '0.50', itemsPerHit: 4, estimatedSecondsPerItem: 30 })).not.toThrow();
  });

  it('refuses an assignment duration shorter than the estimated work', () => {
    expect(() => parse({ assignmentDurationSeconds: 300 })).toThrow(
      'assignmentDurationSeconds: shorter than the estimated 480 s a HIT takes',
    );
  });

  it('reports JSON syntax errors with line and column', () => {
    expect(() => parsePreset('{\n  "title": "x",\n}', 'hits/bad.json')).toThrow(/^hits\/bad\.json: not valid JSON at line 3, column 1: /);
  });

  it('loads by path, and names missing presets and missing qualification tests', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qrelay-presets-'));
    writeFileSync(
      join(dir, 'mine.json'),
      JSON.stringify({ ...base, qualificationRequirements: [{ custom: 'nope', comparator: 'Exists' }] }),
    );
    expect(() => loadPreset('mine', dir)).toThrow(/qualificationRequirements\[0\]\.custom: no qualification test "nope"/);
    expect(() => loadPreset('absent', dir)).toThrow(/no preset named "absent".*available: mine/);
    expect(() => loadPreset(join(dir, 'absent.json'))).toThrow(/does not exist/);
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(base));
    expect(loadPreset(join(dir, 'ok.json')).title).toBe('Judge passages');
  });
});

describe('qualification requirements for a target', () => {
  const preset = parse({
    qualificationRequirements: [
      { id: '000000000000000000L0', comparator: 'GreaterThan', values: [90] },
      { custom: 'dream-exam', comparator: 'GreaterThanOrEqualTo', values: [90], actionsGuarded: 'DiscoverPreviewAndAccept' },
      { id: '00000000000000000071', comparator: 'In', locales: [{ country: 'US' }, { country: 'CA', subdivision: 'ON' }] },
      { masters: true },
    ],
  }) as HitPreset;

  it("resolves custom names and the target's Masters id", () => {
    expect(resolveQualificationRequirements(preset, { target: 'sandbox', customIds: { 'dream-exam': '3QUALIDCUSTOM' } })).toEqual([
      { QualificationTypeId: '000000000000000000L0', Comparator: 'GreaterThan', IntegerValues: [90] },
      {
        QualificationTypeId: '3QUALIDCUSTOM',
        Comparator: 'GreaterThanOrEqualTo',
        IntegerValues: [90],
        ActionsGuarded: 'DiscoverPreviewAndAccept',
      },
      {
        QualificationTypeId: '00000000000000000071',
        Comparator: 'In',
        LocaleValues: [{ Country: 'US' }, { Country: 'CA', Subdivision: 'ON' }],
      },
      { QualificationTypeId: MASTERS_QUALIFICATION_IDS.sandbox, Comparator: 'Exists' },
    ]);
    const production = resolveQualificationRequirements(preset, { target: 'production', customIds: { 'dream-exam': 'X' } });
    expect(production[3]?.QualificationTypeId).toBe(MASTERS_QUALIFICATION_IDS.production);
  });

  it('says which custom qualification is not created yet', () => {
    expect(() => resolveQualificationRequirements(preset, { target: 'local', customIds: {} })).toThrow(
      /"dream-exam" has not been created on target local/,
    );
  });

  it('knows when Masters is required (by flag or by id), for the fee', () => {
    expect(requiresMasters(preset)).toBe(true);
    expect(
      requiresMasters(parse({ qualificationRequirements: [{ id: MASTERS_QUALIFICATION_IDS.production, comparator: 'Exists' }] })),
    ).toBe(true);
    expect(requiresMasters(loadPreset('dream'))).toBe(false);
  });

  it('turns a preset into planning options', () => {
    expect(presetPlanOptions(loadPreset('dream'), 's')).toEqual({
      seed: 's',
      layout: { itemsPerHit: 9, checksPerHit: 1, hideDebate: false, frameHeight: 0, canary: true },
      pricing: { reward: '1.00', assignmentsPerHit: 3, masters: false },
    });
  });

  it('blocks LLM-assisted workers by default, and only flags them when the preset says flag', () => {
    expect(llmAssistedAction(loadPreset('dream'))).toBe('block');
    expect(llmAssistedAction(parsePreset(JSON.stringify({ ...loadPreset('dream'), llmAssisted: 'flag' }), 'test.json'))).toBe('flag');
  });
});
