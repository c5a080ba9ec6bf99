import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chooseDemoRun } from '../../src/demo/workflow.js';
import { demoRunModel } from '../../src/demo/runs.js';
import type { DemoSummary } from '../../src/demo/summary.js';
import { readQrels } from '../../src/qrels/index.js';
import { checkReportContract } from '../../src/reports/index.js';
import { spawnCli, summaryFiles, useDemoEnvironment } from './support.js';

/**
 * `qrelay demo` as a person runs it, on a fresh database: the sample's first 18 cases
 * through the whole workflow (dream preset, simulated population, local marketplace),
 * the summary, and the files it names, each read back.
 */

const e = useDemoEnvironment();
const CASES = 18;
const STAGES = ['import', 'publish', 'work', 'review', 'aggregate', 'export', 'evaluate', 'report'];

describe('qrelay demo', () => {
  it('runs the sample through every stage, prints the summary, and the files it names exist and parse', async () => {
    const demo = spawnCli(['demo', '--sample-size', String(CASES)], e.env);
    const { code } = await demo.exited;
    const stdout = demo.stdout();
    expect(code, `${stdout}\n${demo.stderr()}`).toBe(0);

    expect(stdout).toMatch(
      /^qrelay demo: batch sample, 18 escalated cases of the bundled sample \(samples\/\), files in .*\/out\/sample$/m,
    );
    expect(stdout).toMatch(/^marketplace: started in this process at http:\/\/127\.0\.0\.1:\d+/m);
    for (const stage of STAGES) expect(stdout, stage).toMatch(new RegExp(`^${stage}: .* · done$`, 'm'));
    expect(stdout).toMatch(/^qrelay demo: batch sample, 18 escalated cases, finished in \S+$/m);
    expect(stdout).toMatch(/^agreement {3}Fleiss κ -?\d\.\d{3} · Krippendorff α -?\d\.\d{3} · 18 labels, 0 unresolved/m);
    expect(stdout).toMatch(/^cost {8}\$\d+\.\d\d in total · \$\d+\.\d\d per label · \$\d+\.\d\d per hole found \(\d+ holes\)$/m);
    expect(stdout).toMatch(/^ {12}quote \$\d+\.\d\d → actual \$\d+\.\d\d/m);
    expect(stdout).toMatch(/^latency {5}time to decided p50 \S+, p90 \S+ \(simulated\)/m);
    expect(stdout).toMatch(/^ {12}wall time: crowd work \S+, whole workflow \S+$/m);
    expect(stdout).toMatch(
      /^qrels {7}holes filled \d+ \(\d+ by the crowd, 212 by consensus\) · flips \d+ · unchanged \d+ · conflicts \d+$/m,
    );
    expect(stdout).toMatch(/^rankings {4}nDCG@10 +Kendall τ \S+ · /m);

    const files = summaryFiles(stdout);
    expect([...files.keys()]).toEqual([
      'qrels (TREC)',
      'qrels (BEIR tsv)',
      'qrels (JSONL, provenance)',
      'evaluation (JSON)',
      'evaluation (table)',
      'report (JSON)',
      'report (Markdown)',
      'report (HTML)',
      'report (CSV, workers)',
      'report (CSV, items)',
      'this summary (JSON)',
    ]);
    for (const path of files.values()) {
      expect(path.startsWith(`${e.dataDir}/out/sample/`), path).toBe(true);
      expect(existsSync(path), path).toBe(true);
    }

    const qrels = await Promise.all(['qrels (TREC)', 'qrels (BEIR tsv)', 'qrels (JSONL, provenance)'].map((k) => readQrels(files.get(k)!)));
    expect(qrels.map((q) => q.format)).toEqual(['trec', 'beir', 'bridge']);
    expect(qrels[0]!.pairs).toBeGreaterThan(198 + 212); // the base, the consensus holes, the crowd's labels
    expect(qrels[1]!.qrels).toEqual(qrels[0]!.qrels);
    expect(qrels[2]!.qrels).toEqual(qrels[0]!.qrels);

    const report = checkReportContract(JSON.parse(readFileSync(files.get('report (JSON)')!, 'utf8')));
    expect([report.batch, report.items, report.labels]).toEqual(['sample', CASES, CASES]);
    const evaluation = JSON.parse(readFileSync(files.get('evaluation (JSON)')!, 'utf8')) as {
      runs: Array<{ system: string }>;
      measures: Array<{ measure: string; kendallTau: number | null }>;
    };
    expect(evaluation.runs.map((r) => r.system)).toEqual(['bm25.trec', 'dense.trec', 'hybrid.trec', 'rerank.trec', 'overlap.trec']);
    expect(evaluation.measures.map((m) => m.measure)).toEqual(['nDCG@10', 'R@100', 'Success@10', 'Judged@10', 'Hole@10']);
    expect(readFileSync(files.get('report (HTML)')!, 'utf8')).toMatch(/^<!DOCTYPE html>/i);
    expect(readFileSync(files.get('report (Markdown)')!, 'utf8')).toContain('sample');
    expect(readFileSync(files.get('report (CSV, items)')!, 'utf8').trim().split('\n')).toHaveLength(CASES + 1);
    const summary = JSON.parse(readFileSync(files.get('this summary (JSON)')!, 'utf8')) as DemoSummary;
    expect(summary).toMatchObject({
      batch: 'sample',
      cases: CASES,
      resumed: false,
      cost: { currency: 'USD', unit: 'cents', total: report.cost.total },
    });
    expect(summary.files.map((f) => f.path)).toEqual([...files.values()]);

    // the run is recorded as done; the next demo takes a new batch name instead of failing
    expect(await demoRunModel(e.db.connection).findById('sample').lean()).toMatchObject({ state: 'done', cases: CASES });
    const next = await chooseDemoRun(e.db.connection, { dataDir: e.dataDir, cases: 5 });
    expect(next).toMatchObject({ resumed: false, run: { _id: 'sample-2', cases: 5, state: 'running' } });
  });
});
