import { describe, expect, it } from 'vitest';
import { accessFor, checkRequirements, guardedActions, meets } from './requirements.js';
import { COMPARATORS, type Comparator, type HeldQualification, type Requirement } from './types.js';

const req = (Comparator: Comparator, extra: Partial<Requirement> = {}): Requirement => ({
  QualificationTypeId: 'Q1',
  Comparator,
  ...extra,
});
const int = (v: number): HeldQualification => ({ integerValue: v });

describe('meets: integer comparators', () => {
  it.each([
    ['LessThan', 5, 4, true],
    ['LessThan', 5, 5, false],
    ['LessThanOrEqualTo', 5, 5, true],
    ['LessThanOrEqualTo', 5, 6, false],
    ['GreaterThan', 90, 91, true],
    ['GreaterThan', 90, 90, false],
    ['GreaterThanOrEqualTo', 500, 500, true],
    ['GreaterThanOrEqualTo', 500, 499, false],
    ['EqualTo', 1, 1, true],
    ['EqualTo', 1, 2, false],
    ['NotEqualTo', 1, 2, true],
    ['NotEqualTo', 1, 1, false],
  ] as const)('%s %i with value %i: %s', (comparator, target, value, expected) => {
    expect(meets(req(comparator, { IntegerValues: [target] }), int(value))).toBe(expected);
  });

  it('In and NotIn use the whole list', () => {
    expect(meets(req('In', { IntegerValues: [1, 3, 5] }), int(3))).toBe(true);
    expect(meets(req('In', { IntegerValues: [1, 3, 5] }), int(4))).toBe(false);
    expect(meets(req('NotIn', { IntegerValues: [1, 3, 5] }), int(4))).toBe(true);
    expect(meets(req('NotIn', { IntegerValues: [1, 3, 5] }), int(5))).toBe(false);
  });

  it('Exists and DoesNotExist ignore the value', () => {
    expect(meets(req('Exists'), int(0))).toBe(true);
    expect(meets(req('Exists'), undefined)).toBe(false);
    expect(meets(req('DoesNotExist'), undefined)).toBe(true);
    expect(meets(req('DoesNotExist'), int(0))).toBe(false);
  });

  it('every comparator but DoesNotExist needs the qualification', () => {
    for (const c of COMPARATORS.filter((c) => c !== 'Exists' && c !== 'DoesNotExist')) {
      expect(meets(req(c, { IntegerValues: [1] }), undefined)).toBe(false);
    }
  });

  it('a held qualification without a value fails value comparisons', () => {
    expect(meets(req('GreaterThan', { IntegerValues: [1] }), {})).toBe(false);
  });
});

describe('meets: locales', () => {
  const us = { localeValue: { Country: 'US', Subdivision: 'WA' } };
  it('EqualTo a country, with or without subdivision', () => {
    expect(meets(req('EqualTo', { LocaleValues: [{ Country: 'US' }] }), us)).toBe(true);
    expect(meets(req('EqualTo', { LocaleValues: [{ Country: 'US', Subdivision: 'WA' }] }), us)).toBe(true);
    expect(meets(req('EqualTo', { LocaleValues: [{ Country: 'US', Subdivision: 'CA' }] }), us)).toBe(false);
    expect(meets(req('EqualTo', { LocaleValues: [{ Country: 'us' }] }), us)).toBe(true);
  });
  it('a subdivision requirement fails a worker without subdivision', () => {
    expect(meets(req('EqualTo', { LocaleValues: [{ Country: 'US', Subdivision: 'WA' }] }), { localeValue: { Country: 'US' } })).toBe(false);
  });
  it('NotEqualTo, In and NotIn', () => {
    expect(meets(req('NotEqualTo', { LocaleValues: [{ Country: 'IN' }] }), us)).toBe(true);
    expect(meets(req('In', { LocaleValues: [{ Country: 'GB' }, { Country: 'US' }] }), us)).toBe(true);
    expect(meets(req('In', { LocaleValues: [{ Country: 'GB' }, { Country: 'CA' }] }), us)).toBe(false);
    expect(meets(req('NotIn', { LocaleValues: [{ Country: 'GB' }, { Country: 'US', Subdivision: 'WA' }] }), us)).toBe(false);
    expect(meets(req('NotIn', { LocaleValues: [{ Country: 'US', Subdivision: 'CA' }] }), us)).toBe(true);
  });
});

describe('access: ActionsGuarded', () => {
  const failing = (ActionsGuarded?: Requirement['ActionsGuarded'], RequiredToPreview?: boolean): Requirement => ({
    QualificationTypeId: 'QX',
    Comparator: 'Exists',
    ...(ActionsGuarded ? { ActionsGuarded } : {}),
    ...(RequiredToPreview !== undefined ? { RequiredToPreview } : {}),
  });
  const none = () => undefined;

  it('Accept: the worker sees and previews but cannot accept', () => {
    expect(accessFor([failing('Accept')], none)).toMatchObject({ discover: true, preview: true, accept: false });
  });
  it('PreviewAndAccept: sees only', () => {
    expect(accessFor([failing('PreviewAndAccept')], none)).toMatchObject({ discover: true, preview: false, accept: false });
  });
  it('DiscoverPreviewAndAccept: nothing', () => {
    expect(accessFor([failing('DiscoverPreviewAndAccept')], none)).toMatchObject({ discover: false, preview: false, accept: false });
  });
  it('defaults to Accept, or PreviewAndAccept with the deprecated RequiredToPreview', () => {
    expect(guardedActions(failing())).toBe('Accept');
    expect(guardedActions(failing(undefined, true))).toBe('PreviewAndAccept');
    expect(guardedActions(failing(undefined, false))).toBe('Accept');
  });
  it('the strictest failing guard wins and all requirements must hold to accept', () => {
    const met: Requirement = { QualificationTypeId: 'QM', Comparator: 'Exists', ActionsGuarded: 'DiscoverPreviewAndAccept' };
    const lookup = (id: string) => (id === 'QM' ? int(1) : undefined);
    const a = accessFor([met, failing('PreviewAndAccept'), failing('Accept')], lookup);
    expect(a).toMatchObject({ discover: true, preview: false, accept: false });
    expect(a.unmet).toHaveLength(2);
    expect(accessFor([met], lookup)).toEqual({ discover: true, preview: true, accept: true, unmet: [] });
    expect(accessFor([], none)).toEqual({ discover: true, preview: true, accept: true, unmet: [] });
  });
});

describe('checkRequirements', () => {
  const kinds = (id: string) => (id === 'LOC' ? 'locale' : id === 'NOPE' ? undefined : 'integer');
  const issues = (r: Requirement[]) => checkRequirements(r, kinds);

  it('accepts well-formed requirements', () => {
    expect(
      issues([
        { QualificationTypeId: 'Q', Comparator: 'GreaterThan', IntegerValues: [90] },
        { QualificationTypeId: 'Q', Comparator: 'In', IntegerValues: [1, 2] },
        { QualificationTypeId: 'Q', Comparator: 'Exists', ActionsGuarded: 'DiscoverPreviewAndAccept' },
        { QualificationTypeId: 'LOC', Comparator: 'EqualTo', LocaleValues: [{ Country: 'US' }] },
        { QualificationTypeId: 'LOC', Comparator: 'NotIn', LocaleValues: [{ Country: 'US' }, { Country: 'CA' }] },
      ]),
    ).toEqual([]);
  });

  it('names the member that is wrong', () => {
    expect(issues([{ QualificationTypeId: 'Q', Comparator: 'GreaterThan' }])).toEqual([
      { path: 'QualificationRequirements.0.IntegerValues', message: 'GreaterThan needs exactly one IntegerValue (got 0)' },
    ]);
    expect(issues([{ QualificationTypeId: 'NOPE', Comparator: 'Exists' }])[0]).toMatchObject({
      path: 'QualificationRequirements.0.QualificationTypeId',
    });
    expect(issues([{ QualificationTypeId: 'Q', Comparator: 'Exists', IntegerValues: [1] }])[0]!.message).toMatch(/takes no IntegerValues/);
    expect(issues([{ QualificationTypeId: 'Q', Comparator: 'EqualTo', LocaleValues: [{ Country: 'US' }] }])[0]!.path).toBe(
      'QualificationRequirements.0.LocaleValues',
    );
    expect(issues([{ QualificationTypeId: 'LOC', Comparator: 'GreaterThan', IntegerValues: [1] }])[0]!.path).toBe(
      'QualificationRequirements.0.Comparator',
    );
    expect(
      issues([{ QualificationTypeId: 'LOC', Comparator: 'EqualTo', LocaleValues: [{ Country: 'US' }, { Country: 'CA' }] }])[0]!.message,
    ).toMatch(/exactly one LocaleValue/);
    expect(
      issues([{ QualificationTypeId: 'Q', Comparator: 'In', IntegerValues: Array.from({ length: 16 }, (_, i) => i) }])[0]!.message,
    ).toMatch(/at most 15/);
    expect(issues([{ QualificationTypeId: 'Q', Comparator: 'Exists', ActionsGuarded: 'Accept', RequiredToPreview: true }])[0]!.path).toBe(
      'QualificationRequirements.0.ActionsGuarded',
    );
  });

  it('allows at most ten requirements', () => {
    const many = Array.from({ length: 11 }, () => ({ QualificationTypeId: 'Q', Comparator: 'Exists' as const }));
    expect(issues(many)[0]).toMatchObject({ path: 'QualificationRequirements', message: expect.stringMatching(/at most 10/) });
  });
});
