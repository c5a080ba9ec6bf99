import type { HitSummary, UnmetRequirement } from '../workers.js';
import { dollars, duration, relative } from './format.js';

/** The HIT list of the worker site: HITs grouped by HIT type, as MTurk showed them (pure). */

export interface HitRow {
  hitId: string;
  expires: string;
  available: number;
  canPreview: boolean;
  canAccept: boolean;
}

export interface HitGroupView {
  groupId: string;
  title: string;
  description: string;
  keywords?: string;
  reward: string;
  timeAllotted: string;
  expires: string;
  hitCount: number;
  assignmentsAvailable: number;
  canAcceptAny: boolean;
  unmet: string[];
  requestable: boolean;
  hits: HitRow[];
}

const COMPARATORS: Record<UnmetRequirement['comparator'], string> = {
  LessThan: 'less than',
  LessThanOrEqualTo: 'at most',
  GreaterThan: 'greater than',
  GreaterThanOrEqualTo: 'at least',
  EqualTo: 'equal to',
  NotEqualTo: 'not equal to',
  Exists: 'held',
  DoesNotExist: 'not held',
  In: 'one of',
  NotIn: 'none of',
};

/** "Masters held", "PercentAssignmentsApproved greater than 90", "Locale one of US, GB". */
export function requirementText(r: UnmetRequirement): string {
  const values = [
    ...(r.integerValues ?? []).map(String),
    ...(r.localeValues ?? []).map((l) => (l.Subdivision ? `${l.Country}-${l.Subdivision}` : l.Country)),
  ];
  return [r.name, COMPARATORS[r.comparator], values.join(', ')].filter((s) => s !== '').join(' ');
}

export function groupHits(hits: readonly HitSummary[], now: Date): HitGroupView[] {
  const groups = new Map<string, HitSummary[]>();
  for (const h of hits) {
    const list = groups.get(h.hitGroupId);
    if (list) list.push(h);
    else groups.set(h.hitGroupId, [h]);
  }
  return [...groups.values()].map((list) => {
    const first = list[0]!;
    const earliest = list.reduce((a, b) => (b.expiration.getTime() < a.expiration.getTime() ? b : a));
    const unmet = new Map<string, UnmetRequirement>();
    for (const h of list) for (const r of h.unmetRequirements) unmet.set(`${r.qualificationTypeId}:${r.comparator}`, r);
    return {
      groupId: first.hitGroupId,
      title: first.title,
      description: first.description,
      ...(first.keywords !== undefined ? { keywords: first.keywords } : {}),
      reward: dollars(first.rewardCents),
      timeAllotted: duration(first.assignmentDurationSeconds),
      expires: relative(earliest.expiration, now),
      hitCount: list.length,
      assignmentsAvailable: list.reduce((n, h) => n + h.availableAssignments, 0),
      canAcceptAny: list.some((h) => h.canAccept),
      unmet: [...unmet.values()].map(requirementText),
      requestable: [...unmet.values()].some((r) => r.requestable),
      hits: list.map((h) => ({
        hitId: h.hitId,
        expires: relative(h.expiration, now),
        available: h.availableAssignments,
        canPreview: h.canPreview,
        canAccept: h.canAccept,
      })),
    };
  });
}
