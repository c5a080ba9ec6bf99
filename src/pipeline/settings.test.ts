import { describe, expect, it } from 'vitest';
import { parseBudgetUsd, resolveSettings } from './settings.js';

describe('resolveSettings', () => {
  it('takes the preset and the request overrides, with the batch name as the seed', () => {
    const s = resolveSettings('trial', { preset: 'dream', target: 'local', itemsPerHit: 6, onFailure: 'reject', budgetUsd: 12.5 }, 'local');
    expect(s).toMatchObject({
      target: 'local',
      presetName: 'dream',
      seed: 'trial',
      voteTarget: 3,
      layout: { itemsPerHit: 6, checksPerHit: 1, hideDebate: false },
      review: { onFailure: 'reject' },
      aggregator: 'majority',
      tie: 'unresolved',
      budgetCents: 1250,
      concurrency: 4,
    });
    expect(s.preset.itemsPerHit).toBe(6);
  });

  it('checks the pay again with the overrides', () => {
    expect(() => resolveSettings('t', { preset: 'quick', itemsPerHit: 20 }, 'local')).toThrow(/below the US federal minimum wage/);
  });

  it('refuses unknown options, bad targets, and more than 9 assignments', () => {
    expect(() => resolveSettings('t', { preset: 'quick', colour: 'red' } as never, 'local')).toThrow(
      /publish options: .*Unrecognized key/i,
    );
    expect(() => resolveSettings('t', { preset: 'quick', target: 'moon' }, 'local')).toThrow(
      /--target: expected local, sandbox, production or an http\(s\) URL, got "moon"/,
    );
    expect(() => resolveSettings('t', { preset: 'quick', assignments: 10 }, 'local')).toThrow(/assignments/);
  });
});

describe('parseBudgetUsd', () => {
  it('reads dollars, with or without a sign and cents', () => {
    expect(parseBudgetUsd('50')).toBe(50);
    expect(parseBudgetUsd('$12.50')).toBe(12.5);
    expect(() => parseBudgetUsd('0')).toThrow(/--budget: expected an amount in US dollars/);
    expect(() => parseBudgetUsd('12.345')).toThrow(/--budget/);
  });
});
