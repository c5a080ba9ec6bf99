import { describe, expect, it } from 'vitest';
import { thrownError } from './testing.js';
import { newQualificationType, requestRoute, typesRequiredAbsent, updateQualificationType } from './qualification-types.js';
import { checkRetryAllowed } from './retakes.js';

const code = thrownError;

describe('qualification types', () => {
  const QF =
    '<QuestionForm><Question><QuestionIdentifier>q1</QuestionIdentifier><QuestionContent><Text>2+2?</Text></QuestionContent><AnswerSpecification><SelectionAnswer><Selections><Selection><SelectionIdentifier>a</SelectionIdentifier><Text>4</Text></Selection><Selection><SelectionIdentifier>b</SelectionIdentifier><Text>5</Text></Selection></Selections></SelectionAnswer></AnswerSpecification></Question></QuestionForm>';
  const AK =
    '<AnswerKey><Question><QuestionIdentifier>q1</QuestionIdentifier><AnswerOption><SelectionIdentifier>a</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question></AnswerKey>';
  const base = { Name: 'Exam', Description: 'English and task exam', QualificationTypeStatus: 'Active' as const };
  const now = new Date('2026-03-01T00:00:00Z');

  it('creates plain, auto-granted and tested types', () => {
    expect(newQualificationType('Q1', base, now).state).toMatchObject({ hasTest: false, autoGranted: false, autoGrantedValue: 1 });
    expect(newQualificationType('Q1', { ...base, AutoGranted: true, AutoGrantedValue: 7 }, now).state).toMatchObject({
      autoGranted: true,
      autoGrantedValue: 7,
    });
    const t = newQualificationType('Q1', { ...base, Test: QF, AnswerKey: AK, TestDurationInSeconds: 600 }, now);
    expect(t.state).toMatchObject({ hasTest: true, hasAnswerKey: true, testDurationSeconds: 600 });
    expect(t.documents).toEqual({ test: QF, answerKey: AK });
  });

  it('enforces the Test rules', () => {
    expect(code(() => newQualificationType('Q', { ...base, Test: QF }, now))).toMatch(/TestDurationInSeconds: is required with a Test/);
    expect(code(() => newQualificationType('Q', { ...base, Test: QF, TestDurationInSeconds: 60, AutoGranted: true }, now))).toMatch(
      /AutoGranted: cannot be true/,
    );
    expect(code(() => newQualificationType('Q', { ...base, AnswerKey: AK }, now))).toMatch(/AnswerKey: can only be given together/);
    expect(code(() => newQualificationType('Q', { ...base, Test: '<QuestionForm>', TestDurationInSeconds: 60 }, now))).toMatch(
      /^XMLParseError/,
    );
    expect(code(() => newQualificationType('Q', { ...base, Name: '  ' }, now))).toMatch(/Name: must not be empty/);
  });

  it('updates: replaces a test, never removes it, no AutoGranted with a test', () => {
    const { state } = newQualificationType(
      'Q1',
      { ...base, Test: QF, AnswerKey: AK, TestDurationInSeconds: 600, RetryDelayInSeconds: 60 },
      now,
    );
    const u = updateQualificationType(state, { Test: QF, TestDurationInSeconds: 300 });
    expect(u.state).toMatchObject({ hasTest: true, hasAnswerKey: false, testDurationSeconds: 300 });
    expect(code(() => updateQualificationType(state, { AutoGranted: true }))).toMatch(/cannot be AutoGranted/);
    expect(code(() => updateQualificationType(state, { AnswerKey: AK }))).toMatch(/together with the Test/);
    expect(updateQualificationType(state, { Description: 'new', QualificationTypeStatus: 'Inactive' }).state).toMatchObject({
      description: 'new',
      status: 'Inactive',
      hasTest: true,
    });
  });

  it('knows the types HITs require NOT to exist', () => {
    const r = (QualificationTypeId: string, Comparator: string) => ({ QualificationTypeId, Comparator });
    expect([
      ...typesRequiredAbsent([[r('A', 'DoesNotExist'), r('B', 'Exists')], [r('C', 'GreaterThan')], [r('D', 'DoesNotExist')]]),
    ]).toEqual(['A', 'D']);
    expect(typesRequiredAbsent([]).size).toBe(0);
  });

  it('routes requests and enforces retry delays', () => {
    const plain = newQualificationType('Q1', base, now).state;
    expect(requestRoute(plain)).toEqual({ kind: 'review' });
    expect(requestRoute({ ...plain, autoGranted: true, autoGrantedValue: 3 })).toEqual({ kind: 'grant', value: 3 });
    expect(requestRoute({ ...plain, hasTest: true, hasAnswerKey: true })).toEqual({ kind: 'test', scored: true });
    expect(code(() => requestRoute({ ...plain, status: 'Inactive' }))).toMatch(/QualificationNotRequestable/);
    // a type HITs require NOT to exist (a block list) is never open to requests, whatever its route
    expect(code(() => requestRoute(plain, true))).toMatch(/QualificationNotRequestable: .* not open to requests/);
    expect(code(() => requestRoute({ ...plain, autoGranted: true, autoGrantedValue: 3 }, true))).toMatch(/QualificationNotRequestable/);
    expect(code(() => checkRetryAllowed(plain, { lastRequestAt: now }, now))).toMatch(/does not allow retries/);
    checkRetryAllowed(plain, {}, now);
    const retry = { ...plain, retryDelaySeconds: 3600 };
    expect(code(() => checkRetryAllowed(retry, { lastRequestAt: now }, new Date(now.getTime() + 1000)))).toMatch(
      /QualificationRetryNotAllowed: .*again after 2026-03-01T01:00:00.000Z/,
    );
    checkRetryAllowed(retry, { lastRequestAt: now }, new Date(now.getTime() + 3_600_000));
  });
});
