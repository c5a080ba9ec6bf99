import { describe, expect, it } from 'vitest';
import {
  baselineFor,
  EMPTY_STATS,
  SYSTEM_QUALIFICATION_IDS as IDS,
  isMasters,
  isSystemQualification,
  percentApproved,
  systemQualification,
  type WorkerProfile,
} from './system-qualifications.js';

const profile = (over: Partial<WorkerProfile> = {}): WorkerProfile => ({
  locale: { Country: 'US', Subdivision: 'WA' },
  adult: false,
  masters: false,
  baseline: { submitted: 0, approved: 0 },
  ...over,
});

describe('PercentAssignmentsApproved', () => {
  it('is 100 below 100 submissions, whatever was rejected', () => {
    expect(percentApproved(profile(), { submitted: 99, approved: 0, rejected: 99 })).toBe(100);
    expect(percentApproved(profile(), EMPTY_STATS)).toBe(100);
  });
  it('is the rounded-down share from 100 submissions on', () => {
    expect(percentApproved(profile(), { submitted: 100, approved: 95, rejected: 5 })).toBe(95);
    expect(percentApproved(profile(), { submitted: 300, approved: 269, rejected: 31 })).toBe(89); // 89.67
  });
  it('adds the baseline to the marketplace counts', () => {
    const p = profile({ baseline: { submitted: 1000, approved: 900 } });
    expect(percentApproved(p, { submitted: 0, approved: 0, rejected: 0 })).toBe(90);
    expect(percentApproved(p, { submitted: 100, approved: 100, rejected: 0 })).toBe(90); // 1000/1100 = 90.9
    expect(systemQualification(IDS.percentAssignmentsApproved, p, EMPTY_STATS)).toEqual({ integerValue: 90 });
  });
});

describe('system qualification values', () => {
  it('NumberHITsApproved counts baseline and marketplace approvals', () => {
    const p = profile({ baseline: { submitted: 600, approved: 550 } });
    expect(systemQualification(IDS.numberHITsApproved, p, { submitted: 3, approved: 2, rejected: 1 })).toEqual({ integerValue: 552 });
  });
  it('Locale is the profile locale', () => {
    expect(systemQualification(IDS.locale, profile(), EMPTY_STATS)).toEqual({ localeValue: { Country: 'US', Subdivision: 'WA' } });
  });
  it('Adult and Masters are held or not', () => {
    expect(systemQualification(IDS.adult, profile(), EMPTY_STATS)).toBeUndefined();
    expect(systemQualification(IDS.adult, profile({ adult: true }), EMPTY_STATS)).toEqual({ integerValue: 1 });
    expect(systemQualification(IDS.mastersSandbox, profile(), EMPTY_STATS)).toBeUndefined();
    expect(systemQualification(IDS.mastersSandbox, profile({ masters: true }), EMPTY_STATS)).toEqual({ integerValue: 1 });
    expect(systemQualification(IDS.mastersProduction, profile({ masters: true }), EMPTY_STATS)).toEqual({ integerValue: 1 });
  });
  it('knows which ids are system ones', () => {
    expect(isSystemQualification('000000000000000000L0')).toBe(true);
    expect(isSystemQualification('3ABCDEF')).toBe(false);
    expect(isMasters('2F1QJWKUDD8XADTFD2Q0G6UTO95ALH')).toBe(true);
    expect(isMasters('00000000000000000040')).toBe(false);
    expect(systemQualification('3ABCDEF', profile(), EMPTY_STATS)).toBeUndefined();
  });
});

describe('a baseline from approved HITs and an approval rate', () => {
  const shown = (approvedHits: number, rate: number) => {
    const r = baselineFor(approvedHits, rate);
    if (!r.ok) throw new Error(r.message);
    return {
      ...r.baseline,
      percent: percentApproved(profile({ baseline: r.baseline }), EMPTY_STATS),
      approved: systemQualification(IDS.numberHITsApproved, profile({ baseline: r.baseline }), EMPTY_STATS)!.integerValue,
    };
  };
  it('gives exactly the asked rate and count, for every rate', () => {
    for (const approvedHits of [99, 100, 500, 1000, 2017, 123_457]) {
      for (let rate = 1; rate <= 100; rate++) {
        if (approvedHits < rate) continue;
        const r = baselineFor(approvedHits, rate);
        if (!r.ok) continue; // a few small counts cannot make some rates exactly: said so, checked below
        expect(shown(approvedHits, rate)).toMatchObject({ percent: rate, approved: approvedHits });
      }
    }
    expect(shown(500, 95)).toEqual({ submitted: 526, approved: 500, percent: 95 });
    expect(shown(0, 0)).toEqual({ submitted: 100, approved: 0, percent: 0 });
    expect(shown(20, 100)).toEqual({ submitted: 20, approved: 20, percent: 100 });
  });
  it('explains what it cannot give', () => {
    expect(baselineFor(50, 90)).toMatchObject({
      ok: false,
      field: 'approvedHits',
      message: expect.stringContaining('needs at least 90 approved HITs'),
    });
    expect(baselineFor(5, 0)).toMatchObject({ ok: false, field: 'approvalRate' });
    expect(baselineFor(-1, 90)).toMatchObject({ ok: false, field: 'approvedHits' });
    expect(baselineFor(500, 101)).toMatchObject({ ok: false, field: 'approvalRate' });
    expect(baselineFor(500, 95.5)).toMatchObject({ ok: false, field: 'approvalRate' });
  });
});
