import { describe, expect, it } from 'vitest';
import { simulatedBatch } from '../../test/reports/fixtures.js';
import { buildReport, renderReport } from '../reports/index.js';
import { holesSection } from '../reports/render/holes-section.js';
import { compareSystems, evaluateSystem, evaluationContext } from './evaluate.js';
import { holesMattered } from './holes-matter.js';
import { parseMeasures } from './measure-names.js';
import { parseQrelsText } from './qrels-parse.js';
import { parseRunText } from './run-parse.js';
import { significanceReport } from './significance.js';

const qrels = (text: string) => parseQrelsText(text, 'q.txt', 'trec').qrels;
const run = (text: string) => parseRunText(text, 'r.run').run;

// Base: q1..q4 each judge only `a` (relevant). The adjudication adds b, found by s2 alone.
const base = qrels(['q1', 'q2', 'q3', 'q4'].map((q) => `${q} 0 a 1`).join('\n'));
const next = qrels(['q1', 'q2', 'q3', 'q4'].flatMap((q) => [`${q} 0 a 1`, `${q} 0 b 2`]).join('\n'));
const systems = [
  { name: 's1', run: run(['q1', 'q2', 'q3', 'q4'].flatMap((q) => [`${q} Q0 a 1 3 s`, `${q} Q0 x 2 2 s`, `${q} Q0 b 3 1 s`]).join('\n')) },
  { name: 's2', run: run(['q1', 'q2', 'q3', 'q4'].flatMap((q) => [`${q} Q0 b 1 3 s`, `${q} Q0 a 2 2 s`]).join('\n')) },
];
const ctx = evaluationContext(base, next, parseMeasures(['RR', 'Judged@10']));
const evaluations = systems.map((s) => evaluateSystem(ctx, s));
const h = holesMattered(
  compareSystems(ctx, evaluations),
  significanceReport(ctx, evaluations, { trials: 100, samples: 100, seed: 1 }),
  'RR',
  'Judged@10',
);

describe('holesMattered', () => {
  it('gives each run its judged share and measure before and after, with the change and rank change', () => {
    // RR before: s1 1 (a first), s2 1/2 (b unjudged, then a); after: s1 1, s2 1
    expect(h.runs).toEqual([
      expect.objectContaining({
        system: 's1',
        judgedBefore: 1 / 3,
        judgedAfter: 2 / 3,
        before: 1,
        after: 1,
        difference: 0,
        rankBefore: 1,
        rankAfter: 1,
        rankChange: 0,
      }),
      expect.objectContaining({
        system: 's2',
        judgedBefore: 1 / 2,
        judgedAfter: 1,
        before: 0.5,
        after: 1,
        difference: 0.5,
        rankBefore: 2,
        rankAfter: 1,
        rankChange: 1,
      }),
    ]);
    // every query changes by exactly +0.5 for s2: the interval is that point
    expect(h.runs[1]!.interval).toEqual({ low: 0.5, high: 0.5 });
  });

  it('lists no swapped pair when the runs only came to a tie', () => {
    expect(h.swapped).toEqual([]);
  });

  it('renders as a report section, in Markdown too', () => {
    const section = holesSection(h);
    expect(section.title).toBe('Did the holes matter?');
    const table = section.blocks.find((b) => b.kind === 'table');
    expect(table?.kind === 'table' && table.table.rows.map((r) => r.cells[0])).toEqual(['s1', 's2']);
    expect(table?.kind === 'table' && table.table.rows[1]!.cells.slice(1)).toEqual([
      '50.0%',
      '100.0%',
      '0.5000',
      '1.0000',
      '+0.500',
      '[+0.500, +0.500]',
      '2 → 1 (+1)',
    ]);
    expect(section.blocks.some((b) => b.kind === 'text' && b.text === 'The adjudication swapped no pair of runs.')).toBe(true);
  });
});

describe('holesMattered with a swap', () => {
  // s3 leads before (a at rank 1 everywhere); after the adjudication b (grade 2) counts and s4, which ranks b first, leads
  const s3 = run(['q1', 'q2', 'q3', 'q4'].flatMap((q) => [`${q} Q0 a 1 3 s`, `${q} Q0 y 2 2 s`]).join('\n'));
  const s4 = run(['q1', 'q2', 'q3', 'q4'].flatMap((q, i) => [`${q} Q0 b 1 3 s`, `${q} Q0 ${i % 2 ? 'a' : 'z'} 2 2 s`]).join('\n'));
  const c = evaluationContext(base, next, parseMeasures(['nDCG@2', 'Judged@10']));
  const ev = [evaluateSystem(c, { name: 's3', run: s3 }), evaluateSystem(c, { name: 's4', run: s4 })];
  const swapped = holesMattered(
    compareSystems(c, ev),
    significanceReport(c, ev, { trials: 100, samples: 50, seed: 1 }),
    'nDCG@2',
    'Judged@10',
  );

  it('names the pair, who is above now, and whether the new difference is significant', () => {
    expect(swapped.runs.map((r) => [r.system, r.rankBefore, r.rankAfter])).toEqual([
      ['s3', 1, 2],
      ['s4', 2, 1],
    ]);
    expect(swapped.swapped).toHaveLength(1);
    const pair = swapped.swapped[0]!;
    expect([pair.above, pair.below]).toEqual(['s4', 's3']);
    expect(pair.difference).toBeGreaterThan(0);
    expect(pair.significant).toBe(pair.pHolm !== null && pair.pHolm < 0.05);
  });
});

describe('the report with the section', () => {
  it('renders "Did the holes matter?" in Markdown and HTML, escaping run names, and keeps it in JSON', () => {
    const report = {
      ...buildReport(simulatedBatch({ items: 9 })),
      holesMattered: { ...h, runs: h.runs.map((r, i) => (i === 0 ? { ...r, system: '<script>x</script>.run' } : r)) },
    };
    const md = renderReport(report, 'md');
    expect(md).toContain('## Did the holes matter?');
    expect(md).toContain('| s2 | 50.0% | 100.0% | 0.5000 | 1.0000 | +0.500 | \\[+0.500, +0.500\\] | 2 → 1 (+1) |');
    const html = renderReport(report, 'html');
    expect(html).toContain('Did the holes matter?');
    expect(html).not.toContain('<script>x</script>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;.run');
    expect((JSON.parse(renderReport(report, 'json')) as { holesMattered: { runs: unknown[] } }).holesMattered.runs).toHaveLength(2);
    expect(renderReport(buildReport(simulatedBatch({ items: 9 })), 'md')).not.toContain('Did the holes matter?');
  });
});
