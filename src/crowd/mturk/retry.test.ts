import { describe, expect, it } from 'vitest';
import { classifyFailure, hitIdFromAlreadyExists } from './errors.js';
import { backoffDelayMs, CrowdCallError, withRetries } from './retry.js';
import { bonusRequestToken, extraAssignmentsToken, hitRequestToken } from './request-tokens.js';

const sdkError = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(String(extra.Message ?? name)), { name, ...extra });

describe('classifyFailure', () => {
  it('sorts SDK errors into retryable and final', () => {
    expect(classifyFailure(sdkError('ThrottlingException', { $metadata: { httpStatusCode: 400 } }))).toMatchObject({
      kind: 'throttled',
      retryable: true,
    });
    expect(
      classifyFailure(sdkError('ServiceFault', { TurkErrorCode: 'AWS.MechanicalTurk.ServiceFault', $metadata: { httpStatusCode: 500 } })),
    ).toMatchObject({
      kind: 'service-fault',
      retryable: true,
    });
    expect(classifyFailure(sdkError('RequestError', { TurkErrorCode: 'AWS.MechanicalTurk.HitAlreadyExists', Message: 'exists' }))).toEqual({
      kind: 'request-error',
      retryable: false,
      turkErrorCode: 'AWS.MechanicalTurk.HitAlreadyExists',
      message: 'exists',
    });
    expect(classifyFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toMatchObject({
      kind: 'network',
      retryable: true,
    });
    expect(classifyFailure(new Error('weird'))).toMatchObject({ kind: 'unknown', retryable: false });
    expect(classifyFailure('text')).toMatchObject({ kind: 'unknown', message: 'text' });
  });

  it('finds the HITId in a HitAlreadyExists message', () => {
    expect(hitIdFromAlreadyExists('The HIT 3AB0C1D2E3F4G5H6I7J8K9L0M1N2O3 already exists (token qrh-abc).')).toBe(
      '3AB0C1D2E3F4G5H6I7J8K9L0M1N2O3',
    );
    expect(hitIdFromAlreadyExists('no id here')).toBeUndefined();
  });
});

describe('withRetries', () => {
  const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };

  it('retries throttling and faults with capped, jittered delays, then succeeds', async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await withRetries(
      'CreateHIT',
      async () => {
        calls += 1;
        if (calls === 1) throw sdkError('ThrottlingException');
        if (calls === 2) throw sdkError('ServiceFault', { $metadata: { httpStatusCode: 500 } });
        return 'ok';
      },
      policy,
      { sleep: async (ms) => void delays.push(ms), random: () => 0.5 },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(delays).toEqual([50, 100]);
  });

  it('stops at once on a RequestError, naming the operation and code', async () => {
    let calls = 0;
    const err = await withRetries(
      'ApproveAssignment',
      async () => {
        calls += 1;
        throw sdkError('RequestError', { TurkErrorCode: 'AWS.MechanicalTurk.InvalidAssignmentState', Message: 'not Submitted' });
      },
      policy,
      { sleep: async () => undefined },
    ).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(err).toBeInstanceOf(CrowdCallError);
    expect((err as Error).message).toBe('ApproveAssignment failed: AWS.MechanicalTurk.InvalidAssignmentState: not Submitted');
  });

  it('gives up after maxAttempts', async () => {
    let calls = 0;
    const err = await withRetries(
      'GetHIT',
      async () => {
        calls += 1;
        throw sdkError('ThrottlingException', { Message: 'Rate exceeded' });
      },
      policy,
      { sleep: async () => undefined },
    ).catch((e: unknown) => e);
    expect(calls).toBe(5);
    expect((err as Error).message).toBe('GetHIT failed after 5 attempts: Rate exceeded');
  });

  it('caps the backoff', () => {
    expect(backoffDelayMs(0, policy, () => 0.999)).toBe(99);
    expect(backoffDelayMs(3, policy, () => 0.999)).toBe(799);
    expect(backoffDelayMs(20, policy, () => 0.999)).toBe(999);
  });
});

describe('request tokens', () => {
  it('are stable, distinct per input and at most 64 characters', () => {
    const a = hitRequestToken('batch-1', 0, 0);
    expect(a).toBe(hitRequestToken('batch-1', 0, 0));
    expect(a).not.toBe(hitRequestToken('batch-1', 1, 0));
    expect(a).not.toBe(hitRequestToken('batch-1', 0, 1));
    expect(a).not.toBe(hitRequestToken('batch-10', 0, 0));
    for (const t of [a, extraAssignmentsToken('HIT1', 1), bonusRequestToken('ASG1', 'check-bonus')])
      expect(t.length).toBeLessThanOrEqual(64);
  });
});
