import { describe, expect, it } from 'vitest';
import { auditView, batchRowView, breakableParts, safeReturnPath, withMessage } from './view-model.js';

describe('safeReturnPath', () => {
  it('keeps console paths with their query and fragment', () => {
    for (const p of [
      '/',
      '/console/batches/sample',
      '/console/batches/sample?sort=agreement&desc=1#workers',
      '/console/batches/a/workers/W1?notice=ok+done',
    ])
      expect(safeReturnPath(p)).toBe(p);
  });
  it('refuses anything that could leave the console', () => {
    for (const p of [
      '//evil.example/x',
      'https://evil.example/',
      '/api/v1/workers',
      '/console/../x"',
      'javascript:alert(1)',
      undefined,
      42,
    ])
      expect(safeReturnPath(p)).toBe('/');
  });
});

describe('withMessage', () => {
  it('adds the message to the query, replacing an old one, before the fragment', () => {
    expect(withMessage('/console/batches/b?sort=time&notice=old#workers', 'notice', 'worker W blocked')).toBe(
      '/console/batches/b?sort=time&notice=worker+W+blocked#workers',
    );
    expect(withMessage('/', 'error', 'no & yes')).toBe('/?error=no+%26+yes');
  });
});

describe('batchRowView', () => {
  it('formats progress, spend and budget', () => {
    const row = batchRowView(
      {
        batch: 'b',
        state: 'collecting',
        target: 'local',
        preset: 'dream',
        createdAt: '',
        items: 8,
        itemsComplete: 2,
        progress: 0.25,
        labelled: 2,
        unresolved: 0,
        fleissKappa: 0.4,
        spendCents: 1200,
        bonusCents: 0,
        committedCents: 2000,
        budgetCents: 1000,
      },
      3600,
    );
    expect(row).toMatchObject({
      href: '/console/batches/b',
      live: true,
      progress: '2 / 8',
      progressPercent: 25,
      spend: '$12.00',
      budget: '$10.00',
      hasBudget: true,
      overBudget: true,
      kappa: '0.400',
    });
  });
});

describe('auditView', () => {
  const entry = {
    _id: 'x',
    batch: 'b',
    at: new Date('2026-01-02T03:04:05Z'),
    who: 'console',
    action: 'bonus',
    subject: 'W',
    reason: '',
    details: {},
    outcome: 'done',
  };
  it('says the real time as UTC, and a simulated time only labelled so', () => {
    expect(auditView(entry)).toMatchObject({ at: '2026-01-02 03:04:05 UTC', simulatedAt: '' });
    expect(auditView({ ...entry, simulatedAt: new Date('2026-01-02T04:00:00Z') })).toMatchObject({
      at: '2026-01-02 03:04:05 UTC',
      simulatedAt: 'simulated 2026-01-02 04:00:00 UTC',
    });
  });
});

describe('breakableParts', () => {
  it('cuts a URL after its scheme and before dots, the port and the path, never inside them', () => {
    expect(breakableParts('http://127.0.0.1:8090')).toEqual(['http://', '127', '.0', '.0', '.1', ':8090']);
    expect(breakableParts('https://mturk-requester-sandbox.us-east-1.amazonaws.com/x?y=1')).toEqual([
      'https://',
      'mturk-requester-sandbox',
      '.us-east-1',
      '.amazonaws',
      '.com',
      '/x',
      '?y=1',
    ]);
    expect(breakableParts('sandbox')).toEqual(['sandbox']);
  });
});
