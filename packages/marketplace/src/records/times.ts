import type { RequesterRecords } from './schema.js';

/**
 * Every time in a records document, walked alike: `mapRecordTimes` rewrites each one
 * (e.g. to move records made under a simulated clock onto the target's clock), and
 * `recordTimeSpan` finds the earliest and the latest. Pure.
 */

function mapDates(value: unknown, fn: (d: Date) => Date): unknown {
  if (value instanceof Date) return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapDates(v, fn));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapDates(v, fn);
    return out;
  }
  return value;
}

/** A copy of `records` with every time (the export's own `exportedAt` included) passed through `fn`. */
export function mapRecordTimes(records: RequesterRecords, fn: (d: Date) => Date): RequesterRecords {
  return mapDates(records, fn) as RequesterRecords;
}

/** The earliest and latest time among the records (`exportedAt` left out); null when they hold none. */
export function recordTimeSpan(records: RequesterRecords): { earliest: Date; latest: Date } | null {
  let lo = Infinity;
  let hi = -Infinity;
  const { exportedAt: _exportedAt, ...rest } = records;
  mapDates(rest, (d) => {
    lo = Math.min(lo, d.getTime());
    hi = Math.max(hi, d.getTime());
    return d;
  });
  return lo === Infinity ? null : { earliest: new Date(lo), latest: new Date(hi) };
}
