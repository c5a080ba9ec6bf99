import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../paths.js';
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

  it("takes the stop policy from the preset's workerStop, --worker-stop over it, and reject with --on-failure reject", () => {
    const dir = mkdtempSync(join(tmpdir(), 'qrelay-settings-'));
    const file = join(dir, 'rejecting.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(join(paths.presets, 'lab.json'), 'utf8')), workerStop: 'reject' }));
    try {
      expect(resolveSettings('t', { preset: 'dream' }, 'local').review).toMatchObject({
        onFailure: 'approve-and-discard',
        workerStop: 'discard',
      });
      expect(resolveSettings('t', { preset: file }, 'local').review).toMatchObject({
        onFailure: 'approve-and-discard',
        workerStop: 'reject',
      });
      expect(resolveSettings('t', { preset: file, workerStop: 'discard' }, 'local').review.workerStop).toBe('discard');
      expect(resolveSettings('t', { preset: 'dream', onFailure: 'reject' }, 'local').review.workerStop).toBe('reject');
      expect(resolveSettings('t', { preset: 'dream', onFailure: 'reject', workerStop: 'discard' }, 'local').review.workerStop).toBe(
        'discard',
      );
      expect(() => resolveSettings('t', { preset: 'dream', workerStop: 'ban' as never }, 'local')).toThrow(/publish options: workerStop: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
