import { describe, expect, it } from 'vitest';
import {
  countSubmissions,
  filterProblems,
  ledgerCharge,
  minimumAllowedTime,
  parseBonusCsv,
  participantUrl,
  passesFilters,
  serviceFee,
  settleStudy,
  transitionStudy,
  type Participant,
  type StudyState,
} from './domain.js';

const ids = { participantId: 'aaaaaaaaaaaaaaaaaaaaaaaa', studyId: 'bbbbbbbbbbbbbbbbbbbbbbbb', sessionId: 'cccccccccccccccccccccccc' };

describe('the study URL', () => {
  it('fills the three placeholders wherever they are', () => {
    expect(participantUrl('https://x.example/s?p={{%PROLIFIC_PID%}}&s={{%STUDY_ID%}}#{{%SESSION_ID%}}', 'url_parameters', ids)).toBe(
      `https://x.example/s?p=${ids.participantId}&s=${ids.studyId}#${ids.sessionId}`,
    );
  });

  it('adds the parameters for url_parameters when the URL has no placeholder, before a fragment', () => {
    expect(participantUrl('https://x.example/s?lang=en#top', 'url_parameters', ids)).toBe(
      `https://x.example/s?lang=en&PROLIFIC_PID=${ids.participantId}&STUDY_ID=${ids.studyId}&SESSION_ID=${ids.sessionId}#top`,
    );
    expect(participantUrl('https://x.example/s', 'not_required', ids)).toBe('https://x.example/s');
  });
});

describe("a study's automatic moves", () => {
  const study = (status: StudyState['status'], stopped = false): StudyState => ({ status, total_available_places: 2, stopped });

  it('awaits review when every place is submitted, completes when all are reviewed', () => {
    expect(settleStudy(study('ACTIVE'), countSubmissions(['AWAITING REVIEW', 'ACTIVE']))).toBe('ACTIVE');
    expect(settleStudy(study('ACTIVE'), countSubmissions(['AWAITING REVIEW', 'APPROVED']))).toBe('AWAITING REVIEW');
    expect(settleStudy(study('AWAITING REVIEW'), countSubmissions(['APPROVED', 'APPROVED']))).toBe('COMPLETED');
    expect(settleStudy(study('ACTIVE'), countSubmissions(['APPROVED', 'APPROVED']))).toBe('COMPLETED');
  });

  it('reopens a place on rejection: an ACTIVE study recruits, one AWAITING REVIEW pauses', () => {
    expect(settleStudy(study('ACTIVE'), countSubmissions(['REJECTED', 'AWAITING REVIEW']))).toBe('ACTIVE');
    expect(settleStudy(study('AWAITING REVIEW'), countSubmissions(['REJECTED', 'AWAITING REVIEW']))).toBe('PAUSED');
    expect(settleStudy(study('AWAITING REVIEW', true), countSubmissions(['REJECTED', 'AWAITING REVIEW']))).toBe('AWAITING REVIEW');
  });

  it('takes the documented transitions and refuses the others', () => {
    const none = countSubmissions([]);
    expect(transitionStudy(study('UNPUBLISHED'), 'PUBLISH', none)).toEqual({ ok: true, status: 'ACTIVE', stopped: false });
    expect(transitionStudy(study('ACTIVE'), 'PUBLISH', none).ok).toBe(false);
    expect(transitionStudy(study('ACTIVE'), 'PAUSE', none)).toMatchObject({ status: 'PAUSED' });
    expect(transitionStudy(study('PAUSED'), 'START', none)).toMatchObject({ status: 'ACTIVE' });
    expect(transitionStudy(study('ACTIVE'), 'STOP', countSubmissions(['ACTIVE']))).toMatchObject({
      status: 'AWAITING REVIEW',
      stopped: true,
    });
    expect(transitionStudy(study('ACTIVE'), 'STOP', countSubmissions(['APPROVED']))).toMatchObject({ status: 'COMPLETED' });
    expect(transitionStudy(study('UNPUBLISHED'), 'STOP', none).ok).toBe(false);
    expect(transitionStudy(study('ACTIVE'), 'EXPIRE', none).ok).toBe(false);
  });
});

describe('eligibility filters', () => {
  const p: Participant = {
    participantId: 'p1',
    approvalRate: 97,
    approvals: 40,
    country: 'GB',
    groups: new Set(['g1']),
    studies: new Set(['s1']),
  };

  it('bounds approval rate and approvals, selects countries, and uses groups as allow or block lists', () => {
    expect(passesFilters(p, [])).toBe(true);
    expect(passesFilters(p, [{ filter_id: 'approval_rate', selected_range: { lower: 95 } }])).toBe(true);
    expect(passesFilters(p, [{ filter_id: 'approval_rate', selected_range: { lower: 98, upper: null } }])).toBe(false);
    expect(passesFilters(p, [{ filter_id: 'approval_numbers', selected_range: { lower: 50 } }])).toBe(false);
    expect(passesFilters(p, [{ filter_id: 'current-country-of-residence', selected_values: ['us', 'gb'] }])).toBe(true);
    expect(passesFilters(p, [{ filter_id: 'participant_group_allowlist', selected_values: ['g2', 'g1'] }])).toBe(true);
    expect(
      passesFilters(p, [
        { filter_id: 'participant_group_allowlist', selected_values: ['g1'] },
        { filter_id: 'participant_group_allowlist', selected_values: ['g2'] },
      ]),
    ).toBe(false);
    expect(passesFilters(p, [{ filter_id: 'participant_group_blocklist', selected_values: ['g1'] }])).toBe(false);
    expect(passesFilters(p, [{ filter_id: 'custom_blocklist', selected_values: ['p1'] }])).toBe(false);
    expect(passesFilters(p, [{ filter_id: 'previous_studies_blocklist', selected_values: ['s1'] }])).toBe(false);
    expect(passesFilters(p, [{ filter_id: 'previous_studies_allowlist', selected_values: ['s2', 's1'] }])).toBe(true);
    // Prolific's choice ids: "0" the United Kingdom, "1" the United States
    expect(passesFilters(p, [{ filter_id: 'current-country-of-residence', selected_values: ['0'] }])).toBe(true);
    expect(passesFilters(p, [{ filter_id: 'current-country-of-residence', selected_values: ['1'] }])).toBe(false);
  });

  it('names unknown filters and filters given the wrong shape', () => {
    expect(filterProblems([{ filter_id: 'approval_rate', selected_values: ['9'] }])).toEqual([
      'approval_rate is a range filter: give selected_range',
    ]);
    expect(filterProblems([{ filter_id: 'favourite_colour', selected_values: ['0'] }])[0]).toMatch(/Unknown filter_id "favourite_colour"/);
  });
});

describe('bonuses and fees', () => {
  it('reads the CSV amounts as pounds/dollars and answers in cents', () => {
    expect(parseBonusCsv('a1,4.25\nb2, 30\r\n\nc3,0.5')).toEqual({
      ok: true,
      lines: [
        { id: 'a1', cents: 425 },
        { id: 'b2', cents: 3000 },
        { id: 'c3', cents: 50 },
      ],
    });
    expect(parseBonusCsv('participant_id,amount\na1,1.005').ok).toBe(false);
    expect(parseBonusCsv('a1,0').ok).toBe(false);
  });

  it("charges a third in fees, as Prolific's example (850 → 283.34), the ledger moving whole cents", () => {
    expect(serviceFee(850)).toBe(283.34);
    expect(ledgerCharge(850)).toEqual({ rewardCents: 850, feeCents: 283, totalCents: 1133 });
    expect(minimumAllowedTime(5)).toBe(17);
  });
});
