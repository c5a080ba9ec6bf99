import { describe, expect, it } from 'vitest';
import { operationNames } from './model.js';
import { serializeOutput } from './serialize.js';
import { parseInput } from './validate.js';

const valid = {
  Title: 'Judge relevance',
  Description: 'Does the chunk support an answer?',
  Reward: '0.50',
  LifetimeInSeconds: 3600,
  AssignmentDurationInSeconds: 600,
};

describe('model-driven request validation', () => {
  it('knows all 39 operations', () => {
    expect(operationNames).toHaveLength(39);
  });

  it('accepts a valid request and drops unknown members', () => {
    const r = parseInput('CreateHIT', { ...valid, Extra: 1 });
    expect(r).toEqual({ ok: true, value: valid });
  });

  it('reports missing required members by name', () => {
    const r = parseInput('CreateHIT', { Title: 'x' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.path).sort()).toEqual(['AssignmentDurationInSeconds', 'Description', 'LifetimeInSeconds', 'Reward']);
    expect(r.issues[0]!.message).toBe('is required');
  });

  it('checks types, enums, patterns and lengths with the member path', () => {
    const r = parseInput('CreateHIT', {
      ...valid,
      Reward: '0.505',
      MaxAssignments: 2.5,
      Title: 7,
      QualificationRequirements: [
        { QualificationTypeId: '000000000000000000L0', Comparator: 'Bigger', IntegerValues: ['90'] },
        { Comparator: 'Exists' },
      ],
      UniqueRequestToken: 'x'.repeat(65),
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const byPath = Object.fromEntries(r.issues.map((i) => [i.path, i.message]));
    expect(byPath['Reward']).toBe('"0.505" does not match the pattern ^[0-9]+(\\.)?[0-9]{0,2}$');
    expect(byPath['MaxAssignments']).toBe('expected a whole number, got 2.5');
    expect(byPath['Title']).toBe('expected a string, got a number');
    expect(byPath['QualificationRequirements.0.Comparator']).toMatch(/^"Bigger" is not one of LessThan, LessThanOrEqualTo/);
    expect(byPath['QualificationRequirements.0.IntegerValues.0']).toBe('expected a whole number, got a string');
    expect(byPath['QualificationRequirements.1.QualificationTypeId']).toBe('is required');
    expect(byPath['UniqueRequestToken']).toBe('must be at most 64 characters long (got 65)');
  });

  it('checks numeric ranges and id patterns', () => {
    const r = parseInput('ListHITs', { MaxResults: 101 });
    expect(r).toEqual({ ok: false, issues: [{ path: 'MaxResults', message: 'must be at most 100 (got 101)' }] });
    const w = parseInput('CreateWorkerBlock', { WorkerId: 'B123', Reason: 'spam' });
    expect(w.ok ? [] : w.issues).toEqual([{ path: 'WorkerId', message: '"B123" does not match the pattern ^A[A-Z0-9]+$' }]);
    const big = parseInput('AssociateQualificationWithWorker', { QualificationTypeId: 'Q', WorkerId: 'A1', IntegerValue: 2 ** 31 });
    expect(big.ok ? [] : big.issues[0]!.message).toMatch(/32-bit/);
  });

  it('turns epoch-second timestamps into dates and refuses other forms', () => {
    const r = parseInput('UpdateExpirationForHIT', { HITId: 'H1', ExpireAt: 1_767_225_600.5 });
    expect(r.ok && (r.value.ExpireAt as Date).toISOString()).toBe('2026-01-01T00:00:00.500Z');
    const bad = parseInput('UpdateExpirationForHIT', { HITId: 'H1', ExpireAt: '2026-01-01' });
    expect(bad.ok ? [] : bad.issues[0]!.message).toMatch(/epoch seconds/);
  });

  it('refuses a body that is not an object, and nulls in lists', () => {
    expect(parseInput('GetHIT', [1]).ok).toBe(false);
    const r = parseInput('ListAssignmentsForHIT', { HITId: 'H', AssignmentStatuses: [null] });
    expect(r.ok ? [] : r.issues).toEqual([{ path: 'AssignmentStatuses.0', message: 'must not be null' }]);
    expect(parseInput('GetAccountBalance', undefined)).toEqual({ ok: true, value: {} });
  });
});

describe('model-driven responses', () => {
  it('writes timestamps as epoch seconds and drops what the model does not declare', () => {
    const out = serializeOutput('GetHIT', {
      HIT: {
        HITId: 'H1',
        CreationTime: new Date('2026-01-01T00:00:00.250Z'),
        MaxAssignments: 3,
        internal: 'secret',
        QualificationRequirements: [],
      },
      extra: true,
    });
    expect(out).toEqual({ HIT: { HITId: 'H1', CreationTime: 1_767_225_600.25, MaxAssignments: 3, QualificationRequirements: [] } });
  });

  it('writes an empty object for empty outputs', () => {
    expect(serializeOutput('DeleteHIT', undefined)).toEqual({});
  });
});
