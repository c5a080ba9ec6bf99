/** Shapes shared by the marketplace's pure rules; names follow the MTurk API model. */

/** MTurk's comparators: the package's one list (the records' schema validates with it). */
export const COMPARATORS = [
  'LessThan',
  'LessThanOrEqualTo',
  'GreaterThan',
  'GreaterThanOrEqualTo',
  'EqualTo',
  'NotEqualTo',
  'Exists',
  'DoesNotExist',
  'In',
  'NotIn',
] as const;
export type Comparator = (typeof COMPARATORS)[number];

export const ACCESS_ACTIONS = ['Accept', 'PreviewAndAccept', 'DiscoverPreviewAndAccept'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

export interface Locale {
  Country: string;
  Subdivision?: string;
}

export interface Requirement {
  QualificationTypeId: string;
  Comparator: Comparator;
  IntegerValues?: number[];
  LocaleValues?: Locale[];
  RequiredToPreview?: boolean;
  ActionsGuarded?: AccessAction;
}

export type HitStatus = 'Assignable' | 'Unassignable' | 'Reviewable' | 'Reviewing' | 'Disposed';

/** `Accepted` is the marketplace's own state for work in progress; the API never shows it. */
export type AssignmentStatus = 'Accepted' | 'Submitted' | 'Approved' | 'Rejected';

export type EventType =
  | 'AssignmentAccepted'
  | 'AssignmentAbandoned'
  | 'AssignmentReturned'
  | 'AssignmentSubmitted'
  | 'AssignmentRejected'
  | 'AssignmentApproved'
  | 'HITCreated'
  | 'HITExpired'
  | 'HITReviewable'
  | 'HITExtended'
  | 'HITDisposed'
  | 'Ping';

/** What a worker holds of one qualification type (undefined: not held). */
export interface HeldQualification {
  integerValue?: number;
  localeValue?: Locale;
}

export const DAY_MS = 86_400_000;
