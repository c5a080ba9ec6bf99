import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { scoreAttentionChecks } from './attention-checks.js';
import type { Answer, KnownAnswer } from './types.js';

const checks: KnownAnswer[] = [
  { item: 'gold-rel', expected: 'yes' },
  { item: 'gold-nonrel', expected: 'no' },
];
const answer = (item: string, label: 'yes' | 'no'): Answer => ({ item, label });

describe('attention-check scoring', () => {
  it('passes an assignment that answers every check as known', () => {
    const score = scoreAttentionChecks(
      [answer('real1', 'no'), answer('gold-rel', 'yes'), answer('gold-nonrel', 'no'), answer('real2', 'yes')],
      checks,
    );
    expect(score).toEqual({
      passed: true,
      checks: 2,
      correct: 2,
      byPolarity: { yes: { total: 1, passed: 1 }, no: { total: 1, passed: 1 } },
      failures: [],
    });
  });

  it('catches an always-yes worker with the "no" checks', () => {
    const score = scoreAttentionChecks([answer('real1', 'yes'), answer('gold-rel', 'yes'), answer('gold-nonrel', 'yes')], checks);
    expect(score.passed).toBe(false);
    expect(score.byPolarity).toEqual({ yes: { total: 1, passed: 1 }, no: { total: 1, passed: 0 } });
    expect(score.failures).toEqual([{ item: 'gold-nonrel', expected: 'no', given: 'yes' }]);
  });

  it('catches an always-no worker with the "yes" checks', () => {
    const score = scoreAttentionChecks([answer('gold-rel', 'no'), answer('gold-nonrel', 'no')], checks);
    expect(score).toMatchObject({ passed: false, correct: 1, byPolarity: { yes: { passed: 0 }, no: { passed: 1 } } });
  });

  it('fails an unanswered check', () => {
    const score = scoreAttentionChecks([answer('gold-rel', 'yes')], checks);
    expect(score.failures).toEqual([{ item: 'gold-nonrel', expected: 'no', given: null }]);
  });

  it('needs every check: one miss among several fails the assignment', () => {
    const many: KnownAnswer[] = [...checks, { item: 'gold-rel-2', expected: 'yes' }];
    const score = scoreAttentionChecks([answer('gold-rel', 'yes'), answer('gold-nonrel', 'no'), answer('gold-rel-2', 'no')], many);
    expect(score).toMatchObject({ passed: false, checks: 3, correct: 2, byPolarity: { yes: { total: 2, passed: 1 } } });
  });

  it('passes a HIT without checks (nothing to fail)', () => {
    expect(scoreAttentionChecks([answer('real1', 'yes')], [])).toMatchObject({ passed: true, checks: 0, correct: 0 });
  });

  it('refuses an item answered twice or a check listed twice', () => {
    expect(() => scoreAttentionChecks([answer('a', 'yes'), answer('a', 'no')], checks)).toThrow(UserError);
    expect(() => scoreAttentionChecks([answer('a', 'yes'), answer('a', 'no')], checks)).toThrow(
      'answers[1]: item "a" is answered twice in one assignment',
    );
    expect(() => scoreAttentionChecks([], [checks[0]!, checks[0]!])).toThrow('checks[1]: item "gold-rel" is listed twice as a check');
    const bad = [{ item: 'x', expected: 'constructor' }] as unknown as KnownAnswer[];
    expect(() => scoreAttentionChecks([], bad)).toThrow('checks[0].expected: "constructor" is not "yes" or "no"');
  });
});
