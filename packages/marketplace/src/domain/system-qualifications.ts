import type { HeldQualification, Locale } from './types.js';

/** The qualifications MTurk computes for every worker, and how this marketplace computes them. */
export const SYSTEM_QUALIFICATION_IDS = {
  percentAssignmentsApproved: '000000000000000000L0',
  numberHITsApproved: '00000000000000000040',
  locale: '00000000000000000071',
  adult: '00000000000000000060',
  mastersSandbox: '2ARFPLSP75KLA8M8DH1HTEQVJT3SY6',
  mastersProduction: '2F1QJWKUDD8XADTFD2Q0G6UTO95ALH',
} as const;

export const MASTERS_IDS: readonly string[] = [SYSTEM_QUALIFICATION_IDS.mastersSandbox, SYSTEM_QUALIFICATION_IDS.mastersProduction];

/** Below this many submitted assignments a worker's approval rate counts as 100%. */
export const APPROVAL_RATE_MIN_SUBMISSIONS = 100;

export interface WorkerProfile {
  locale: Locale;
  adult: boolean;
  masters: boolean;
  /** Work done before this marketplace (or elsewhere): counts added to the marketplace's own. */
  baseline: { submitted: number; approved: number };
}

export interface WorkerStats {
  /** Assignments submitted here (Submitted, Approved or Rejected). */
  submitted: number;
  approved: number;
  rejected: number;
}

export const EMPTY_STATS: WorkerStats = { submitted: 0, approved: 0, rejected: 0 };

const SYSTEM_IDS: ReadonlySet<string> = new Set(Object.values(SYSTEM_QUALIFICATION_IDS));

/** (Asked for every requirement of every HIT a worker's list looks at: a set, not a new array each time.) */
export function isSystemQualification(id: string): boolean {
  return SYSTEM_IDS.has(id);
}

export function isMasters(id: string): boolean {
  return MASTERS_IDS.includes(id);
}

/** Integer percent (rounded down) of submitted assignments that were approved. */
export function percentApproved(profile: WorkerProfile, stats: WorkerStats): number {
  const submitted = profile.baseline.submitted + stats.submitted;
  const approved = profile.baseline.approved + stats.approved;
  if (submitted < APPROVAL_RATE_MIN_SUBMISSIONS) return 100;
  return Math.min(100, Math.floor((approved * 100) / submitted));
}

export type BaselineResult =
  { ok: true; baseline: WorkerProfile['baseline'] } | { ok: false; field: 'approvedHits' | 'approvalRate'; message: string };

/**
 * The earlier work that gives a worker `approvedHits` approved HITs at `approvalRate`
 * percent (PercentAssignmentsApproved, rounded down as here). Fewer than 100 submitted
 * assignments count as 100%, so a rate below 100 needs at least `approvalRate` approved HITs.
 */
export function baselineFor(approvedHits: number, approvalRate: number): BaselineResult {
  if (!Number.isSafeInteger(approvedHits) || approvedHits < 0)
    return { ok: false, field: 'approvedHits', message: `must be a whole number >= 0 (got ${approvedHits})` };
  if (!Number.isInteger(approvalRate) || approvalRate < 0 || approvalRate > 100)
    return { ok: false, field: 'approvalRate', message: `must be a whole percent from 0 to 100 (got ${approvalRate})` };
  if (approvalRate === 100) return { ok: true, baseline: { submitted: approvedHits, approved: approvedHits } };
  if (approvalRate === 0) {
    return approvedHits === 0
      ? { ok: true, baseline: { submitted: APPROVAL_RATE_MIN_SUBMISSIONS, approved: 0 } }
      : { ok: false, field: 'approvalRate', message: `0% means no approved HITs (approvedHits is ${approvedHits})` };
  }
  if (approvedHits < approvalRate) {
    return {
      ok: false,
      field: 'approvedHits',
      message: `an approval rate of ${approvalRate}% needs at least ${approvalRate} approved HITs (got ${approvedHits}): below ${APPROVAL_RATE_MIN_SUBMISSIONS} submitted assignments the rate counts as 100%`,
    };
  }
  let submitted = Math.floor((approvedHits * 100) / approvalRate);
  while (Math.floor((approvedHits * 100) / submitted) > approvalRate) submitted++;
  if (Math.floor((approvedHits * 100) / submitted) !== approvalRate) {
    return {
      ok: false,
      field: 'approvalRate',
      message: `${approvedHits} approved HITs cannot make exactly ${approvalRate}%: give more approved HITs`,
    };
  }
  return { ok: true, baseline: { submitted, approved: approvedHits } };
}

/** The worker's value of a system qualification; undefined when they do not hold it. */
export function systemQualification(id: string, profile: WorkerProfile, stats: WorkerStats): HeldQualification | undefined {
  switch (id) {
    case SYSTEM_QUALIFICATION_IDS.percentAssignmentsApproved:
      return { integerValue: percentApproved(profile, stats) };
    case SYSTEM_QUALIFICATION_IDS.numberHITsApproved:
      return { integerValue: profile.baseline.approved + stats.approved };
    case SYSTEM_QUALIFICATION_IDS.locale:
      return { localeValue: profile.locale };
    case SYSTEM_QUALIFICATION_IDS.adult:
      return profile.adult ? { integerValue: 1 } : undefined;
    case SYSTEM_QUALIFICATION_IDS.mastersSandbox:
    case SYSTEM_QUALIFICATION_IDS.mastersProduction:
      return profile.masters ? { integerValue: 1 } : undefined;
    default:
      return undefined;
  }
}

export interface SystemQualificationType {
  QualificationTypeId: string;
  Name: string;
  Description: string;
  Keywords: string;
}

export const SYSTEM_QUALIFICATION_TYPES: SystemQualificationType[] = [
  {
    QualificationTypeId: SYSTEM_QUALIFICATION_IDS.percentAssignmentsApproved,
    Name: 'Worker_PercentAssignmentsApproved',
    Description:
      'The percentage of assignments the Worker has submitted that were subsequently approved by the Requester, over all assignments the Worker has submitted (100 below 100 submissions).',
    Keywords: 'system,approval,rate',
  },
  {
    QualificationTypeId: SYSTEM_QUALIFICATION_IDS.numberHITsApproved,
    Name: 'Worker_NumberHITsApproved',
    Description: 'The number of assignments of the Worker that Requesters approved.',
    Keywords: 'system,approved',
  },
  {
    QualificationTypeId: SYSTEM_QUALIFICATION_IDS.locale,
    Name: 'Worker_Locale',
    Description: "The Worker's location: an ISO 3166 country code and optional ISO 3166-2 subdivision.",
    Keywords: 'system,locale,country',
  },
  {
    QualificationTypeId: SYSTEM_QUALIFICATION_IDS.adult,
    Name: 'Worker_Adult',
    Description: 'The Worker has confirmed being at least 18 years old (value 1).',
    Keywords: 'system,adult',
  },
  {
    QualificationTypeId: SYSTEM_QUALIFICATION_IDS.mastersSandbox,
    Name: 'Masters (sandbox id)',
    Description: 'Workers who have demonstrated excellence across a wide range of HITs.',
    Keywords: 'system,masters',
  },
  {
    QualificationTypeId: SYSTEM_QUALIFICATION_IDS.mastersProduction,
    Name: 'Masters',
    Description: 'Workers who have demonstrated excellence across a wide range of HITs.',
    Keywords: 'system,masters',
  },
];
