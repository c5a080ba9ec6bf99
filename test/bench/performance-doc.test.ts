import { describe, expect, it } from 'vitest';
import {
  mergeRecords,
  parseRecords,
  renderPerformance,
  serializeRecords,
  thisMachine,
  type BenchRecord,
  type PerformanceRun,
} from '../../bench/support/performance-doc.js';

const record = (over: Partial<BenchRecord> & Pick<BenchRecord, 'file'>): BenchRecord => ({
  scale: 'quick',
  exitCode: 0,
  seconds: 10,
  rows: [],
  commit: 'abc1234',
  finishedAt: '2030-01-02T03:04:05.000Z',
  load: { start: 0.4, end: 0.9 },
  ...over,
});

const records: BenchRecord[] = [
  record({
    file: 'aggregate-peers.ts',
    seconds: 304.4,
    rows: [{ figure: 'majority vote', ours: 12.2, peer: 'crowd-kit MajorityVote', theirs: 49.9, unit: 'ms', better: 'lower' }],
  }),
  record({ file: 'qrels-evaluate.ts', exitCode: 1, seconds: 12 }),
  record({
    file: 'pipeline-import.ts',
    scale: 'paper',
    commit: 'def5678',
    load: { start: 1.5, end: 3.25 },
    rows: [{ figure: 'import 50 MiB', ours: 4.75, peer: 'JSON.parse + insertMany', theirs: 7.88, unit: 'MiB/s', better: 'higher' }],
  }),
];

const run: PerformanceRun = {
  records,
  benches: ['aggregate-peers.ts', 'api-load.ts', 'pipeline-import.ts', 'qrels-evaluate.ts'],
  machine: { cpu: 'Test CPU @ 2.0GHz', cores: 2, memoryGiB: 7.8, node: 'v20.19.0', os: 'Linux 6.1', load: { start: 1.5, end: 3.25 } },
  args: ['aggregate-peers', 'qrels-evaluate'],
  commit: 'abc1234',
  finishedAt: new Date(Date.UTC(2030, 0, 2, 3, 4, 5)),
};

describe('docs/performance.md as npm run bench writes it', () => {
  const text = renderPerformance(run);

  it('says it is generated, by what, and how the last run was asked for', () => {
    expect(text.split('\n')[0]).toBe('<!-- written by npm run bench; do not edit (bench/run-all.ts) -->');
    expect(text).toContain('_Written by `npm run bench` (`bench/run-all.ts`) at the end of each run; do not edit._');
    expect(text).toContain('`npm run bench -- aggregate-peers qrels-evaluate` at abc1234, finished 2030-01-02 03:04 UTC');
    expect(text).toContain('npm run bench                        # every benchmark');
  });

  it('gives each figure beside its peer with the ratio and the run that measured it, per scale', () => {
    expect(text).toMatch(
      /\| majority vote\s+\| 12\.2 ms\s+\| crowd-kit MajorityVote\s+\| 49\.9 ms\s+\| 0\.24× \(lower is better\)\s+\| `aggregate-peers\.ts` at abc1234, load 0\.4–0\.9\s+\|/,
    );
    expect(text).toMatch(
      /\| import 50 MiB\s+\| 4\.75 MiB\/s .*\| 0\.60× \(higher is better\)\s+\| `pipeline-import\.ts` at def5678, load 1\.5–3\.25/,
    );
    const quick = text.indexOf('### At the quick sizes');
    const paper = text.indexOf("### At the paper's sizes");
    expect(quick).toBeGreaterThan(0);
    expect(paper).toBeGreaterThan(quick);
    expect(text.indexOf('| majority vote')).toBeGreaterThan(quick);
    expect(text.indexOf('| majority vote')).toBeLessThan(paper);
    expect(text.indexOf('| import 50 MiB')).toBeGreaterThan(paper);
    for (const line of ['| CPU | Test CPU @ 2.0GHz |', '| cores | 2 |', '| memory | 7.8 GiB |', '| Node.js | v20.19.0 |'])
      expect(text).toContain(line);
  });

  it('lists benchmarks never run or failed as such, never with figures', () => {
    expect(text).toContain('| `bench/aggregate-peers.ts` | quick | done | 304.4 | abc1234 | 2030-01-02 03:04 UTC |');
    expect(text).toContain('| `bench/api-load.ts` | | not run yet | | | |');
    expect(text).toContain('| `bench/qrels-evaluate.ts` | quick | failed (exit 1) | 12.0 |');
  });

  it('says so when no benchmark reported a figure with a peer', () => {
    expect(renderPerformance({ ...run, records: [] })).toContain('No benchmark has reported a figure with a peer or a target yet.');
  });

  it("describes this machine from the operating system's own figures", () => {
    const machine = thisMachine(0.5);
    expect(machine.cores).toBeGreaterThan(0);
    expect(machine.memoryGiB).toBeGreaterThan(0);
    expect(machine.node).toBe(process.version);
    expect(machine.cpu.length).toBeGreaterThan(0);
    expect(machine.load.start).toBe(0.5);
    expect(machine.load.end).toBeGreaterThanOrEqual(0);
  });
});

describe('the records a run keeps for the next (docs/performance-runs.json)', () => {
  it('replaces only the benchmarks a run ran, at the scale it ran them, and drops benchmarks gone from bench/', () => {
    const newer = record({ file: 'aggregate-peers.ts', commit: 'fff0000', seconds: 99 });
    const gone = record({ file: 'removed.ts' });
    const merged = mergeRecords([...records, gone], [newer], run.benches);
    expect(merged.map((r) => `${r.scale} ${r.file} ${r.commit}`)).toEqual([
      'quick aggregate-peers.ts fff0000',
      'quick qrels-evaluate.ts abc1234',
      'paper pipeline-import.ts def5678',
    ]);
    // the same bench at the other scale is a record of its own
    const paperAggregate = record({ file: 'aggregate-peers.ts', scale: 'paper', commit: 'eee1111' });
    expect(mergeRecords(merged, [paperAggregate], run.benches)).toHaveLength(4);
  });

  it('reads back what it wrote, and starts empty without a file', () => {
    expect(parseRecords(serializeRecords(records))).toEqual(records);
    expect(parseRecords(null)).toEqual([]);
  });

  it('refuses a file it cannot read, naming the file and the field, rather than dropping every earlier figure', () => {
    expect(() => parseRecords('{', 'docs/performance-runs.json')).toThrow(/^docs\/performance-runs\.json: not JSON .*delete it to start/);
    expect(() => parseRecords('{"records":[{"file":"a.ts"}]}', 'x.json')).toThrow(/^x\.json: records\.0\.scale: /);
  });
});
