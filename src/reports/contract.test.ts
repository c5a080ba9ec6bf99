import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { simulatedBatch } from '../../test/reports/fixtures.js';
import { buildReport } from './build.js';
import { ReportContract as Contract } from './contract.js';
import { renderReport } from './render/index.js';

/** Every `...Seconds` field under `value`, with its path. */
function secondsFields(value: unknown, path = ''): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => secondsFields(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(k.endsWith('Seconds') ? [[`${path}.${k}`, v] as [string, unknown]] : []),
    ...secondsFields(v, `${path}.${k}`),
  ]);
}

describe('the JSON report contract', () => {
  const report = buildReport(simulatedBatch({ items: 60 }));
  const json = renderReport(report, 'json');
  const parsed = JSON.parse(json) as unknown;

  it('is one JSON object with the stable fields, of the documented types', () => {
    expect(json.endsWith('}\n')).toBe(true);
    const result = Contract.safeParse(parsed);
    expect(result.success, result.success ? '' : z.prettifyError(result.error)).toBe(true);
    const data = Contract.parse(parsed);
    expect(data.cost.total).toBe(data.cost.rewards + data.cost.fees + data.cost.bonuses);
    expect(data.workers.length).toBeGreaterThan(0);
  });

  it('renders the same object compact, on one line (the API answers so)', () => {
    const compact = renderReport(report, 'json', { compact: true });
    expect(compact).not.toContain('\n');
    expect(JSON.parse(compact)).toEqual(parsed);
    expect(compact.length).toBeLessThan(json.length * 0.8);
  });

  it('gives every latency in seconds: fields named ...Seconds hold a number >= 0 or null', () => {
    const fields = secondsFields((parsed as { latency: unknown }).latency, 'latency');
    expect(fields.length).toBeGreaterThan(8);
    for (const [path, v] of fields) expect(v === null || (typeof v === 'number' && v >= 0), path).toBe(true);
  });

  it('holds no NaN, Infinity or undefined anywhere (JSON would change them silently)', () => {
    const bad: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (v === undefined || (typeof v === 'number' && !Number.isFinite(v))) bad.push(`${path}: ${String(v)}`);
      else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
      else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    };
    walk(report, 'report');
    walk(buildReport({ batch: 'empty', publishedAt: null, items: [], hits: [], assignments: [] }), 'empty');
    expect(bad).toEqual([]);
  });
});
