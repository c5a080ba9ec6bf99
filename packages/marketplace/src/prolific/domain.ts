import { createHash, randomBytes } from 'node:crypto';
import { prolificFeeCents } from '../fees.js';

/**
 * Prolific's rules (pure): ids, statuses, the automatic moves of a study, eligibility
 * filters, the study URL's placeholders, the bonus CSV and the fees. The shapes follow
 * Prolific's public researcher API (v1); the imperative shell is service.ts.
 */

export type StudyStatus = 'UNPUBLISHED' | 'ACTIVE' | 'PAUSED' | 'AWAITING REVIEW' | 'COMPLETED';
export type SubmissionStatus = 'ACTIVE' | 'AWAITING REVIEW' | 'APPROVED' | 'REJECTED' | 'RETURNED' | 'TIMED-OUT';

export const REJECTION_CATEGORIES = [
  'TOO_QUICKLY',
  'TOO_SLOWLY',
  'FAILED_INSTRUCTIONS',
  'INCOMP_LONGITUDINAL',
  'FAILED_CHECK',
  'LOW_EFFORT',
  'MALINGERING',
  'NO_CODE',
  'BAD_CODE',
  'NO_DATA',
  'UNSUPP_DEVICE',
  'OTHER',
] as const;

/** Prolific's minimum length of a rejection's message to the participant. */
export const REJECTION_MESSAGE_MIN = 100;

/** What a participant's browser reaches without a code. */
export const NO_CODE = 'NOCODE';

/** Ids "follow a pattern of [a-f\d]{24}": 8 hex digits of seconds, then 16 random ones (as a MongoDB ObjectId). */
export function newProlificId(nowMs: number = Date.now()): string {
  return (
    Math.floor(nowMs / 1000)
      .toString(16)
      .padStart(8, '0')
      .slice(-8) + randomBytes(8).toString('hex')
  );
}

export const isProlificId = (s: string): boolean => /^[a-f\d]{24}$/.test(s);

/** A stable id of hex digits derived from `text`. */
export function hexId(text: string, length = 24): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** A worker's participant id on the Prolific side: stable, shaped like Prolific's. */
export const participantIdOf = (workerId: string): string => hexId(`prolific-participant:${workerId}`);

export interface CompletionAction {
  action: 'AUTOMATICALLY_APPROVE' | 'MANUALLY_REVIEW' | 'ADD_TO_PARTICIPANT_GROUP' | 'REMOVE_FROM_PARTICIPANT_GROUP' | 'REQUEST_RETURN';
  participant_group?: string;
  return_reason?: string;
}

export interface CompletionCode {
  code: string | null;
  code_type: string;
  actions: CompletionAction[];
  actor: 'participant' | 'researcher';
}

export type StudyFilter =
  | { filter_id: string; selected_values: string[] }
  | { filter_id: string; selected_range: { lower?: number | null; upper?: number | null } };

/** The unreviewed and reviewed counts the automatic moves look at. */
export interface SubmissionCounts {
  /** Started and still holding a place: every status but RETURNED, TIMED-OUT and REJECTED. */
  taken: number;
  active: number;
  awaitingReview: number;
}

export function countSubmissions(statuses: Iterable<SubmissionStatus>): SubmissionCounts {
  const counts = { taken: 0, active: 0, awaitingReview: 0 };
  for (const s of statuses) {
    if (s !== 'RETURNED' && s !== 'TIMED-OUT' && s !== 'REJECTED') counts.taken++;
    if (s === 'ACTIVE') counts.active++;
    if (s === 'AWAITING REVIEW') counts.awaitingReview++;
  }
  return counts;
}

export interface StudyState {
  status: StudyStatus;
  total_available_places: number;
  /** Stopped by the researcher: stays closed until places are added. */
  stopped: boolean;
}

/**
 * The study's status after its submissions changed (Prolific's automatic moves): all
 * places submitted → AWAITING REVIEW; all reviewed → COMPLETED; a place reopened by a
 * rejection or return while AWAITING REVIEW → PAUSED (the researcher must START it again).
 */
export function settleStudy(study: StudyState, counts: SubmissionCounts): StudyStatus {
  const full = counts.taken >= study.total_available_places;
  const closed = study.stopped || full;
  switch (study.status) {
    case 'ACTIVE':
      if (!full || counts.active > 0) return 'ACTIVE';
      return counts.awaitingReview > 0 ? 'AWAITING REVIEW' : 'COMPLETED';
    case 'AWAITING REVIEW':
      if (!closed) return 'PAUSED';
      if (counts.active > 0 || counts.awaitingReview > 0) return 'AWAITING REVIEW';
      return 'COMPLETED';
    case 'COMPLETED':
      return !closed ? 'ACTIVE' : 'COMPLETED';
    default:
      return study.status;
  }
}

export type StudyAction = 'PUBLISH' | 'PAUSE' | 'START' | 'STOP';

/** A transition's next status, or why it cannot happen. */
export function transitionStudy(
  study: StudyState,
  action: string,
  counts: SubmissionCounts,
): { ok: true; status: StudyStatus; stopped: boolean } | { ok: false; detail: string } {
  const from = study.status;
  const refuse = (detail: string) => ({ ok: false as const, detail });
  switch (action) {
    case 'PUBLISH':
      return from === 'UNPUBLISHED'
        ? { ok: true, status: 'ACTIVE', stopped: false }
        : refuse(`Cannot publish a study whose status is ${from}: only an UNPUBLISHED study can be published.`);
    case 'PAUSE':
      return from === 'ACTIVE'
        ? { ok: true, status: 'PAUSED', stopped: false }
        : refuse(`Cannot pause a study whose status is ${from}: only an ACTIVE study can be paused.`);
    case 'START':
      if (from === 'PAUSED' || (from === 'AWAITING REVIEW' && !study.stopped && counts.taken < study.total_available_places))
        return { ok: true, status: 'ACTIVE', stopped: false };
      return refuse(`Cannot start a study whose status is ${from}: only a PAUSED study can be started.`);
    case 'STOP':
      if (from === 'UNPUBLISHED') return refuse('Cannot stop a study that was never published.');
      if (from === 'COMPLETED') return refuse('The study is already COMPLETED; increase its places to make it active again.');
      return { ok: true, status: counts.active > 0 || counts.awaitingReview > 0 ? 'AWAITING REVIEW' : 'COMPLETED', stopped: true };
    default:
      return refuse(`"${action}" is not a valid action: use one of PUBLISH, PAUSE, START, STOP.`);
  }
}

/** The study URL a participant is sent to: the three placeholders filled in (added as parameters when `url_parameters` asks and the URL has none). */
export function participantUrl(
  template: string,
  option: string,
  ids: { participantId: string; studyId: string; sessionId: string },
): string {
  const values: Record<string, string> = { PROLIFIC_PID: ids.participantId, STUDY_ID: ids.studyId, SESSION_ID: ids.sessionId };
  const hasPlaceholder = /\{\{%(PROLIFIC_PID|STUDY_ID|SESSION_ID)%\}\}/.test(template);
  let url = template.replace(/\{\{%(PROLIFIC_PID|STUDY_ID|SESSION_ID)%\}\}/g, (_m, name: string) => encodeURIComponent(values[name]!));
  if (!hasPlaceholder && option === 'url_parameters') {
    const params = new URLSearchParams(values).toString();
    const hash = url.indexOf('#');
    const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
    url = `${base}${base.includes('?') ? '&' : '?'}${params}${fragment}`;
  }
  return url;
}

/** What eligibility reads of a participant. */
export interface Participant {
  participantId: string;
  approvalRate: number;
  approvals: number;
  /** ISO 3166 alpha-2. */
  country: string;
  /** The participant groups they belong to. */
  groups: ReadonlySet<string>;
  /** The studies they took part in (a submission neither returned nor timed out). */
  studies: ReadonlySet<string>;
}

export const FILTER_IDS = {
  approvalRate: 'approval_rate',
  approvals: 'approval_numbers',
  country: 'current-country-of-residence',
  groupAllow: 'participant_group_allowlist',
  groupBlock: 'participant_group_blocklist',
  customAllow: 'custom_allowlist',
  customBlock: 'custom_blocklist',
  studiesAllow: 'previous_studies_allowlist',
  studiesBlock: 'previous_studies_blocklist',
} as const;

/**
 * Choice ids of current-country-of-residence: Prolific's own for the two whose meaning
 * its users' code shows ("0" United Kingdom, "1" United States); ISO codes are taken too.
 */
const COUNTRY_CHOICES: Record<string, { iso: string; name: string }> = {
  '0': { iso: 'GB', name: 'United Kingdom' },
  '1': { iso: 'US', name: 'United States' },
};

const RANGE_FILTERS: ReadonlySet<string> = new Set([FILTER_IDS.approvalRate, FILTER_IDS.approvals]);
const SELECT_FILTERS: ReadonlySet<string> = new Set([
  FILTER_IDS.country,
  FILTER_IDS.groupAllow,
  FILTER_IDS.groupBlock,
  FILTER_IDS.customAllow,
  FILTER_IDS.customBlock,
  FILTER_IDS.studiesAllow,
  FILTER_IDS.studiesBlock,
]);

const unknownFilter = (id: string) =>
  `Unknown filter_id "${id}": this marketplace applies ${[...RANGE_FILTERS, ...SELECT_FILTERS].join(', ')} (GET /api/v1/filters/)`;

/** Problems with a study's filters (unknown ids, a select filter given a range...), empty when usable. */
export function filterProblems(filters: readonly StudyFilter[]): string[] {
  const problems: string[] = [];
  for (const f of filters) {
    const range = 'selected_range' in f;
    if (range && !RANGE_FILTERS.has(f.filter_id)) {
      problems.push(
        SELECT_FILTERS.has(f.filter_id) ? `${f.filter_id} is a select filter: give selected_values` : unknownFilter(f.filter_id),
      );
    } else if (!range && !SELECT_FILTERS.has(f.filter_id)) {
      problems.push(RANGE_FILTERS.has(f.filter_id) ? `${f.filter_id} is a range filter: give selected_range` : unknownFilter(f.filter_id));
    }
  }
  return problems;
}

const inRange = (value: number, r: { lower?: number | null; upper?: number | null }) =>
  (r.lower == null || value >= r.lower) && (r.upper == null || value <= r.upper);

const countryOf = (choice: string): string => (COUNTRY_CHOICES[choice]?.iso ?? choice).toUpperCase();

/**
 * Whether a participant passes every filter: ranges bound approval rate and approvals,
 * select filters name countries or ids. One participant_group_allowlist entry with
 * several groups admits a member of any of them; several entries must all admit.
 */
export function passesFilters(p: Participant, filters: readonly StudyFilter[]): boolean {
  return filters.every((f) => {
    if ('selected_range' in f) {
      if (f.filter_id === FILTER_IDS.approvalRate) return inRange(p.approvalRate, f.selected_range);
      if (f.filter_id === FILTER_IDS.approvals) return inRange(p.approvals, f.selected_range);
      return false;
    }
    const values = f.selected_values;
    switch (f.filter_id) {
      case FILTER_IDS.country:
        return values.some((v) => countryOf(v) === p.country.toUpperCase());
      case FILTER_IDS.groupAllow:
        return values.some((g) => p.groups.has(g));
      case FILTER_IDS.groupBlock:
        return !values.some((g) => p.groups.has(g));
      case FILTER_IDS.customAllow:
        return values.includes(p.participantId);
      case FILTER_IDS.customBlock:
        return !values.includes(p.participantId);
      case FILTER_IDS.studiesAllow:
        return values.some((s) => p.studies.has(s));
      case FILTER_IDS.studiesBlock:
        return !values.some((s) => p.studies.has(s));
      default:
        return false;
    }
  });
}

/** The catalogue `GET /filters/` answers (Prolific's shape): the filters this marketplace applies. */
export const FILTER_CATALOGUE = [
  {
    filter_id: FILTER_IDS.approvalRate,
    title: 'Approval Rate',
    description: 'The percentage of reviewed submissions (HITs and studies, here and before) that were approved.',
    question: '',
    type: 'range',
    data_type: 'integer',
    min: 0,
    max: 100,
  },
  {
    filter_id: FILTER_IDS.approvals,
    title: 'Number of previous submissions',
    description: 'The number of approved submissions (HITs and studies, here and before).',
    question: '',
    type: 'range',
    data_type: 'integer',
    min: 0,
    max: 1_000_000,
  },
  {
    filter_id: FILTER_IDS.country,
    title: 'Current Country of Residence',
    description: 'The country the participant lives in. Choices: the ids below, or any ISO 3166 alpha-2 code (e.g. DE).',
    question: 'In what country do you currently reside?',
    type: 'select',
    data_type: 'ChoiceID',
    choices: Object.fromEntries(Object.entries(COUNTRY_CHOICES).map(([id, c]) => [id, c.name])),
  },
  ...(
    [
      [FILTER_IDS.groupAllow, 'Participant Group AllowList', 'ParticipantGroupID', 'members of any of the groups'],
      [FILTER_IDS.groupBlock, 'Participant Group BlockList', 'ParticipantGroupID', 'everyone but members of the groups'],
      [FILTER_IDS.customAllow, 'Custom AllowList', 'ParticipantID', 'the participants listed'],
      [FILTER_IDS.customBlock, 'Custom BlockList', 'ParticipantID', 'everyone but the participants listed'],
      [FILTER_IDS.studiesAllow, 'Previous Studies AllowList', 'StudyID', 'participants of any of the studies'],
      [FILTER_IDS.studiesBlock, 'Previous Studies BlockList', 'StudyID', 'everyone but participants of the studies'],
    ] as const
  ).map(([filter_id, title, data_type, who]) => ({
    filter_id,
    title,
    description: `Admits ${who}.`,
    question: '',
    type: 'select',
    data_type,
    choices: {},
  })),
];

export interface BonusLine {
  /** A participant or submission id, as the CSV names it. */
  id: string;
  cents: number;
}

/**
 * `csv_bonuses`: lines `<participant_id|submission_id>,<amount>`, the amount in major units
 * (`4.25` is £4.25 / $4.25, `30` is 30 pounds, not pence). Returns the lines in cents, or
 * the problems.
 */
export function parseBonusCsv(csv: string): { ok: true; lines: BonusLine[] } | { ok: false; problems: string[] } {
  const lines: BonusLine[] = [];
  const problems: string[] = [];
  csv
    .split(/\r?\n/)
    .map((l) => l.trim())
    .forEach((line, i) => {
      if (line === '') return;
      const m = /^([^,\s]+)\s*,\s*(\d+(?:\.\d{1,2})?)$/.exec(line);
      if (!m) {
        problems.push(
          `line ${i + 1} "${line.slice(0, 80)}": expected <participant_id or submission_id>,<amount> such as 60ffe5c8371090c7041d43f8,4.25`,
        );
        return;
      }
      const [whole, fraction = ''] = m[2]!.split('.');
      const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
      if (cents <= 0) problems.push(`line ${i + 1}: the amount must be above 0`);
      else lines.push({ id: m[1]!, cents });
    });
  if (lines.length === 0 && problems.length === 0) problems.push('csv_bonuses has no bonus lines');
  return problems.length ? { ok: false, problems } : { ok: true, lines };
}

/** Prolific's service fee: a third of rewards and bonuses (its documented example: 850 → 283.34), to a hundredth of a cent. */
export function serviceFee(cents: number): number {
  return Math.ceil((cents * 100) / 3) / 100;
}

/** The whole cents the ledger moves for a payment of `cents` and its fee. */
export function ledgerCharge(cents: number): { rewardCents: number; feeCents: number; totalCents: number } {
  const feeCents = prolificFeeCents(cents);
  return { rewardCents: cents, feeCents, totalCents: cents + feeCents };
}

/** The least `maximum_allowed_time` Prolific takes: 2 + 2·ect + 2·√ect minutes. */
export const minimumAllowedTime = (ect: number): number => Math.ceil(2 + 2 * ect + 2 * Math.sqrt(ect));
/** Below 24 hours. */
export const MAXIMUM_ALLOWED_TIME = 24 * 60 - 1;
