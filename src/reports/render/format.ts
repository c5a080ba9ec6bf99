import { formatUsd } from '@qrelay/marketplace/fees';

/**
 * How the human-readable renderings (md, html) write numbers. Locale independent on
 * purpose: the same report gives the same bytes on every machine.
 */

export const DASH = '—';

/** 1234567 -> "1,234,567". */
export function count(n: number): string {
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.abs(Math.trunc(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Cents as dollars: 123456 -> "$1,234.56", -120 -> "-$1.20"; null -> "—". */
export function usd(cents: number | null): string {
  if (cents === null) return DASH;
  const [whole, frac] = formatUsd(Math.abs(cents)).split('.');
  return `${cents < 0 ? '-' : ''}$${count(Number(whole))}.${frac}`;
}

/** Signed: "+$3.60", "-$1.20", "$0.00". */
export function signedUsd(cents: number): string {
  return cents > 0 ? `+${usd(cents)}` : usd(cents);
}

export function signedCount(n: number): string {
  return n > 0 ? `+${count(n)}` : count(n);
}

/** A fraction as a percentage: 0.8235 -> "82.4%"; null -> "—". */
export function percent(fraction: number | null, digits = 1): string {
  return fraction === null ? DASH : `${(fraction * 100).toFixed(digits)}%`;
}

export function decimal(value: number | null, digits = 3): string {
  return value === null ? DASH : value.toFixed(digits);
}

/** "passed / total (rate)": "14 / 17 (82.4%)"; "—" without any. */
export function passRate(rate: { total: number; passed: number; passRate: number | null }): string {
  return rate.total === 0 ? DASH : `${count(rate.passed)} / ${count(rate.total)} (${percent(rate.passRate)})`;
}

/** A duration in the unit that suits it: "45.0 s", "12.3 min", "2.5 h", "3.1 d"; null -> "—". */
export function duration(seconds: number | null): string {
  if (seconds === null) return DASH;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  if (seconds < 3600) return `${(seconds / 60).toFixed(1)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} d`;
}

/** Cents per hour as "$7.50/h". */
export function hourly(centsPerHour: number | null): string {
  return centsPerHour === null ? DASH : `${usd(centsPerHour)}/h`;
}

/** A time unit for an axis whose values reach `maxSeconds`. */
export function timeUnit(maxSeconds: number): { seconds: number; short: string; long: string } {
  if (maxSeconds <= 2 * 3600) return { seconds: 60, short: 'min', long: 'minutes' };
  if (maxSeconds <= 72 * 3600) return { seconds: 3600, short: 'h', long: 'hours' };
  return { seconds: 86_400, short: 'd', long: 'days' };
}
