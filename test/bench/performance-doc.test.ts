import { describe, expect, it } from 'vitest';
import { renderPerformance, thisMachine, type PerformanceRun } from '../../bench/support/performance-doc.js';

const run: PerformanceRun = {
  rows: [
    { figure: 'majority vote', ours: 12.2, peer: 'crowd-kit MajorityVote', theirs: 49.9, unit: 'ms', better: 'lower' },
    { figure: 'import 50 MiB', ours: 4.75, peer: 'JSON.parse + insertMany', theirs: 7.88, unit: 'MiB/s', better: 'higher' },
  ],
  benches: [
    { file: 'aggregate-peers.ts', exitCode: 0, seconds: 304.4 },
    { file: 'api-load.ts', exitCode: null, seconds: null },
    { file: 'qrels-evaluate.ts', exitCode: 1, seconds: 12 },
  ],
  machine: { cpu: 'Test CPU @ 2.0GHz', cores: 2, memoryGiB: 7.8, node: 'v20.19.0', os: 'Linux 6.1', load: { start: 1.5, end: 3.25 } },
  args: ['aggregate-peers', 'qrels-evaluate'],
  commit: 'abc1234',
  finishedAt: new Date(Date.UTC(2030, 0, 2, 3, 4, 5)),
};

describe('docs/performance.md as npm run bench writes it', () => {
  const text = renderPerformance(run);

  it('says it is generated, by what, and how the run was asked for', () => {
    expect(text.split('\n')[0]).toBe('<!-- written by npm run bench; do not edit (bench/run-all.ts) -->');
    expect(text).toContain('_Written by `npm run bench` (`bench/run-all.ts`) at the end of each run; do not edit._');
    expect(text).toContain('`npm run bench -- aggregate-peers qrels-evaluate`');
    expect(text).toContain('npm run bench                        # every benchmark');
  });

  it('gives each figure beside its peer with the ratio, and the machine it ran on', () => {
    expect(text).toMatch(/\| majority vote\s+\| 12\.2 ms\s+\| crowd-kit MajorityVote\s+\| 49\.9 ms\s+\| 0\.24× \(lower is better\)/);
    expect(text).toMatch(/\| import 50 MiB\s+\| 4\.75 MiB\/s .*\| 0\.60× \(higher is better\)/);
    for (const line of [
      '| CPU | Test CPU @ 2.0GHz |',
      '| cores | 2 |',
      '| memory | 7.8 GiB |',
      '| Node.js | v20.19.0 |',
      '| commit | abc1234 |',
      '| load average (1 min), start and end | 1.5, 3.25 |',
    ])
      expect(text).toContain(line);
    expect(text).toContain('| finished | 2030-01-02 03:04 UTC |');
  });

  it('lists benchmarks that were not run or failed as such, never with figures', () => {
    expect(text).toContain('| `bench/aggregate-peers.ts` | done | 304.4 |');
    expect(text).toContain('| `bench/api-load.ts` | not run |  |');
    expect(text).toContain('| `bench/qrels-evaluate.ts` | failed (exit 1) | 12.0 |');
    expect(text).toContain('1 of the 3 benchmarks were not run this time');
  });

  it('says so when no benchmark reported a figure with a peer', () => {
    expect(renderPerformance({ ...run, rows: [] })).toContain('No benchmark that ran reports a figure with a peer or a target.');
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
