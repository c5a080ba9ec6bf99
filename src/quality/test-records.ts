import type { Judgment } from '../domain/cases.js';
import type { AssignmentRecord, HitRecord } from './types.js';

/** For the quality tests: HIT H1 with these real items and two checks, g1 (yes) and g2 (no). */
export function hitWithChecks(items: readonly string[]): HitRecord {
  return {
    hitId: 'H1',
    items,
    checks: [
      { item: 'g1', expected: 'yes' },
      { item: 'g2', expected: 'no' },
    ],
  };
}

/** For the quality tests: a submitted assignment of `worker` on H1 answering `labels` (each answer taking `ms`, when given). */
export function submittedAssignment(
  worker: string,
  labels: Record<string, Judgment>,
  options: { ms?: number; id?: string; extra?: Partial<AssignmentRecord> } = {},
): AssignmentRecord {
  const { ms, id = `A-${worker}`, extra = {} } = options;
  return {
    assignmentId: id,
    hitId: 'H1',
    worker,
    status: 'submitted',
    answers: Object.entries(labels).map(([item, label]) => ({ item, label, ...(ms !== undefined && { timeMs: ms }) })),
    ...extra,
  };
}
