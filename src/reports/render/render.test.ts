import { describe, expect, it } from 'vitest';
import { hit, item, PUBLISHED, simulatedBatch, work } from '../../../test/reports/fixtures.js';
import { UserError } from '../../errors.js';
import { buildReport } from '../build.js';
import type { ReportInput } from '../input.js';
import { csvField } from './csv.js';
import { renderReport, ReportFormat, type ReportFormat as Format } from './index.js';
import { escapeMarkdown } from './markdown.js';

const HOSTILE_BATCH = '<script>alert("batch")</script> | =cmd, "quoted"';
const HOSTILE_WORKERS = [
  '<script>alert(1)</script>',
  'pipe|worker',
  'comma,worker',
  'quote"worker',
  "=cmd|' /C calc'!A0",
  '@SUM(A1)',
  '+fast',
];

function hostileInput(): ReportInput {
  const input = simulatedBatch({ items: 27, batch: HOSTILE_BATCH, workers: HOSTILE_WORKERS });
  input.items[0] = {
    ...input.items[0]!,
    queryId: '=HYPERLINK("http://evil.example")',
    chunkId: '-2+3',
    agentLabels: { A: 'yes', '<b>agent</b>': 'no' },
  };
  return input;
}

/** RFC 4180 parsing, for reading the csv back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  return rows;
}

describe('csv', () => {
  it('quotes per RFC 4180 and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(null)).toBe('');
    expect(csvField(0.5)).toBe('0.5');
    expect(csvField(true)).toBe('true');
  });

  it('writes the worker table: one row per worker, every field read back as written, formulas defused', () => {
    const report = buildReport(hostileInput());
    const text = renderReport(report, 'csv');
    expect(text.endsWith('\r\n')).toBe(true);
    const [head, ...rows] = parseCsv(text);
    expect(head![0]).toBe('worker');
    expect(rows.every((r) => r.length === head!.length)).toBe(true);
    const ids = rows.map((r) => r[0]);
    const expected = report.workers.map((w) => (/^[=+\-@]/.test(w.worker) ? `'${w.worker}` : w.worker));
    expect(ids).toEqual(expected);
    expect(ids).toContain("'=cmd|' /C calc'!A0");
    expect(ids).toContain("'@SUM(A1)");
    expect(ids).toContain('comma,worker');
    expect(ids).toContain('quote"worker');
    const alice = rows.find((r) => r[0] === report.workers[0]!.worker.replace(/^([=+\-@])/, "'$1"))!;
    expect(alice[head!.indexOf('paid_usd')]).toBe((report.workers[0]!.paidCents / 100).toFixed(2));
  });

  it('writes the item table on request, with a column per agent', () => {
    const report = buildReport(hostileInput());
    const [head, ...rows] = parseCsv(renderReport(report, 'csv', { table: 'items' }));
    expect(head).toContain('agent_A');
    expect(head).toContain('agent_<b>agent</b>');
    expect(rows).toHaveLength(report.items);
    expect(rows[0]!.slice(0, 3)).toEqual([report.itemRows[0]!.item, `'=HYPERLINK("http://evil.example")`, "'-2+3"]);
    expect(rows.every((r) => r.length === head!.length)).toBe(true);
  });
});

describe('markdown', () => {
  it('escapes what Markdown would interpret', () => {
    expect(escapeMarkdown('<script>x</script>')).toBe('&lt;script&gt;x&lt;/script&gt;');
    expect(escapeMarkdown('a|b')).toBe('a\\|b');
    expect(escapeMarkdown('*bold* _it_ `code` [link](x) \\')).toBe('\\*bold\\* \\_it\\_ \\`code\\` \\[link\\](x) \\\\');
    expect(escapeMarkdown('line\nbreak')).toBe('line break');
    expect(escapeMarkdown('AT&T')).toBe('AT&amp;T');
  });

  it('keeps hostile batch names and worker ids as text and every table row in its columns', () => {
    const md = renderReport(buildReport(hostileInput()), 'md');
    expect(md).not.toContain('<script>');
    expect(md).toContain('# qrelay report: &lt;script&gt;alert("batch")&lt;/script&gt; \\| =cmd, "quoted"');
    expect(md).toContain('| &lt;script&gt;alert(1)&lt;/script&gt; |');
    expect(md).toContain('| pipe\\|worker |');
    const cells = (line: string) => line.replace(/\\\|/g, '').split('|').length;
    const lines = md.split('\n');
    lines.forEach((line, i) => {
      if (line.startsWith('|') && !lines[i - 1]?.startsWith('|')) {
        // a table starts: all its lines have the header's number of cells
        const width = cells(line);
        for (let j = i; lines[j]?.startsWith('|'); j++) expect(cells(lines[j]!), lines[j]).toBe(width);
      }
    });
  });
});

describe('html', () => {
  it('escapes every outside text and loads nothing from anywhere', () => {
    const html = renderReport(buildReport(hostileInput()), 'html');
    expect(html).not.toMatch(/<script/i);
    // Handlebars escapes = ' ` too
    expect(html).toContain(
      '<title>qrelay report: &lt;script&gt;alert(&quot;batch&quot;)&lt;/script&gt; | &#x3D;cmd, &quot;quoted&quot;</title>',
    );
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('data-worker="quote&quot;worker"');
    expect(html).toContain('agent &lt;b&gt;agent&lt;/b&gt;');
    expect(html).not.toContain('<b>agent</b>');
    expect(html).not.toMatch(/\ssrc=|href="(?!#)|url\(|@import|@font-face/);
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src &#x27;none&#x27;; style-src &#x27;sha256-[A-Za-z0-9+/]+(&#x3D;)*&#x27;; img-src &#x27;none&#x27;/,
    );
  });

  it('draws the three charts with titles, descriptions and data', () => {
    const report = buildReport(simulatedBatch({ items: 45 }));
    const html = renderReport(report, 'html');
    for (const id of ['chart-progress', 'chart-latency', 'chart-workers']) {
      expect(html).toContain(`<svg xmlns="http://www.w3.org/2000/svg" id="${id}" class="chart"`);
      expect(html).toContain(`role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc"`);
    }
    const bars = [...html.matchAll(/class="bar" data-count="(\d+)"/g)].map((m) => Number(m[1]));
    expect(bars.reduce((a, b) => a + b, 0)).toBe(report.latency.timeToTarget.itemsDecided);
    expect([...html.matchAll(/class="point( flagged)?" data-worker=/g)]).toHaveLength(report.workers.length);
    expect(html).toContain(`data-series="valid-votes" data-points="${report.latency.throughput.buckets.length + 1}"`);
  });

  it('shows charts without data as empty axes saying so', () => {
    const empty = buildReport({ batch: 'empty', publishedAt: null, items: [item('x')], hits: [], assignments: [] });
    const html = renderReport(empty, 'html');
    expect(html).toContain('No valid votes yet');
    expect(html).toContain('No item has 3 valid votes yet');
    expect(html).toContain('No worker with checks and compared items yet');
  });
});

describe('κ and α that are undefined', () => {
  const unanimous: ReportInput = {
    batch: 'unanimous',
    publishedAt: PUBLISHED,
    items: [item('x'), item('y')],
    hits: [hit('H', ['x', 'y'])],
    assignments: ['w1', 'w2', 'w3'].map((w, k) => work(`a${k}`, 'H', w, { x: 'yes', y: 'yes' })),
  };
  const report = buildReport(unanimous);

  it('are null in json, with the reason beside them', () => {
    const json = JSON.parse(renderReport(report, 'json')) as {
      fleissKappa: null;
      krippendorffAlpha: null;
      quality: { fleissKappa: { reason: string } };
    };
    expect(json.fleissKappa).toBeNull();
    expect(json.krippendorffAlpha).toBeNull();
    expect(json.quality.fleissKappa.reason).toContain('κ is undefined');
  });

  it('print "undefined" and the reason in md and html', () => {
    const md = renderReport(report, 'md');
    expect(md).toContain(`| Fleiss' κ | undefined: ${report.quality.fleissKappa.reason} (95% —) |`);
    expect(md).toContain(`| Krippendorff's α (nominal) | undefined: ${report.quality.krippendorffAlpha.reason} (95% —) |`);
    const html = renderReport(report, 'html');
    expect(html).toContain(`undefined: every rating used is &quot;yes&quot;: chance agreement is 1, so κ is undefined`);
    expect(html).toContain('expected disagreement is 0, so α is undefined');
  });
});

describe('deterministic output', () => {
  const formats: [Format, { table?: 'items' }][] = [
    ['json', {}],
    ['md', {}],
    ['html', {}],
    ['csv', {}],
    ['csv', { table: 'items' }],
  ];

  it('renders the same input to the same bytes, whatever the order of its lists', () => {
    const input = simulatedBatch({ items: 60 });
    const shuffled: ReportInput = {
      ...input,
      items: [...input.items].reverse(),
      hits: [...input.hits].reverse().map((h) => ({ ...h, items: [...h.items].reverse() })),
      assignments: [...input.assignments].reverse().map((a) => ({ ...a, answers: [...a.answers].reverse() })),
      bonuses: [...(input.bonuses ?? [])].reverse(),
    };
    const a = buildReport(input, { generatedAt: '2026-05-05T00:00:00.000Z' });
    const b = buildReport(input, { generatedAt: '2026-05-05T00:00:00.000Z' });
    const c = buildReport(shuffled, { generatedAt: '2026-05-05T00:00:00.000Z' });
    for (const [format, options] of formats) {
      const first = renderReport(a, format, options);
      expect(renderReport(b, format, options), format).toBe(first);
      expect(renderReport(c, format, options), `${format} of the shuffled input`).toBe(first);
    }
  });
});

describe('renderReport', () => {
  it('refuses an unknown format or table with a sentence', () => {
    const report = buildReport(simulatedBatch({ items: 9 }));
    expect(() => renderReport(report, 'pdf' as Format)).toThrow(UserError);
    expect(() => renderReport(report, 'pdf' as Format)).toThrow('report format "pdf" is not one of json, md, html, csv');
    expect(() => renderReport(report, 'csv', { table: 'hits' as 'items' })).toThrow('csv table "hits" is not one of workers, items');
    expect(ReportFormat.options).toEqual(['json', 'md', 'html', 'csv']);
  });
});

describe('a report of times on a simulated clock', () => {
  it('labels its publishing time simulated, and says nothing of it otherwise', () => {
    const input = simulatedBatch({ items: 3 });
    const generatedAt = '2026-01-01T00:00:00.000Z';
    const simulated = renderReport(buildReport(input, { simulatedClock: true, generatedAt }), 'md');
    expect(simulated).toContain(`Published ${input.publishedAt} (simulated clock); report generated ${generatedAt}.`);
    expect(buildReport(input, { simulatedClock: true }).simulatedClock).toBe(true);
    const real = buildReport(input, { generatedAt });
    expect(real).not.toHaveProperty('simulatedClock');
    expect(renderReport(real, 'md')).toContain(`Published ${input.publishedAt}; report generated ${generatedAt}.`);
  });
});
