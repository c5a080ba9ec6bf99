/** How the worker site writes amounts and times (pure). */

export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const UNITS: [number, string][] = [
  [86_400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** "2 hours 5 minutes": the two largest units, rounded down. */
export function duration(seconds: number): string {
  let rest = Math.max(0, Math.floor(seconds));
  if (rest === 0) return '0 seconds';
  const parts: string[] = [];
  for (const [size, name] of UNITS) {
    if (rest >= size) {
      const n = Math.floor(rest / size);
      rest -= n * size;
      parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

/** "in 3 hours 10 minutes" / "3 hours 10 minutes ago", measured on the marketplace clock. */
export function relative(at: Date, now: Date): string {
  const s = (at.getTime() - now.getTime()) / 1000;
  return s >= 0 ? `in ${duration(s)}` : `${duration(-s)} ago`;
}

/** A marketplace time as a person reads it (UTC, to the minute). */
export const when = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
