import { describe, expect, it } from 'vitest';
import { hit, item, PUBLISHED, work } from '../../test/reports/fixtures.js';
import { buildReport } from './build.js';
import type { ReportInput } from './input.js';
import { renderReport } from './render/index.js';

const input = (manualLabels: ReportInput['manualLabels']): ReportInput => ({
  batch: 'm',
  publishedAt: PUBLISHED,
  items: [item('i1'), item('i2')],
  hits: [hit('H1', ['i1', 'i2'])],
  assignments: ['a', 'b', 'c'].map((w) => work(`A-${w}`, 'H1', w, { i1: 'yes', i2: w === 'a' ? 'yes' : 'no' })),
  manualLabels,
});

describe('manual decisions in the report', () => {
  const decided = input([
    {
      item: 'i2',
      queryId: 'q-i2',
      chunkId: 'c-i2',
      label: 'yes',
      note: 'the chunk <b>does</b> answer it',
      who: 'console',
      at: '2026-05-05T10:00:00.000Z',
    },
  ]);

  it('lists each decision with the crowd label it replaced', () => {
    expect(buildReport(decided).manualDecisions).toEqual([
      {
        item: 'i2',
        queryId: 'q-i2',
        chunkId: 'c-i2',
        label: 'yes',
        crowdLabel: 'no',
        note: 'the chunk <b>does</b> answer it',
        who: 'console',
        at: '2026-05-05T10:00:00.000Z',
      },
    ]);
    expect(buildReport(input(undefined)).manualDecisions).toEqual([]);
  });

  it('shows them in md and html (escaped), and says so when there are none', () => {
    const md = renderReport(buildReport(decided), 'md');
    expect(md).toContain('## Manual decisions');
    expect(md).toMatch(/q-i2 \| c-i2 \| no \| yes \| console/);
    const html = renderReport(buildReport(decided), 'html');
    expect(html).toContain('the chunk &lt;b&gt;does&lt;/b&gt; answer it');
    expect(renderReport(buildReport(input([])), 'md')).toContain('No item was decided by hand.');
  });
});
