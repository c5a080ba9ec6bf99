import { describe, expect, it } from 'vitest';
import { simulatedBatch } from '../../test/reports/fixtures.js';
import type { ExportQrelsResult } from '../export/index.js';
import { evaluateSystems, mergeQrels, parseMeasures, type HumanLabel, type Qrels, type Run } from '../qrels/index.js';
import { buildReport } from '../reports/index.js';
import { demoSummary, renderDemoSummary } from './summary.js';

const qrels = (pairs: Array<[string, string, number]>): Qrels => {
  const q: Qrels = new Map();
  for (const [qid, doc, rel] of pairs) q.set(qid, (q.get(qid) ?? new Map()).set(doc, rel));
  return q;
};
const run = (ranking: Record<string, string[]>): Run =>
  new Map(Object.entries(ranking).map(([qid, docs]) => [qid, docs.map((docid, i) => ({ docid, score: 100 - i }))]));

function fixture() {
  const report = buildReport({ ...simulatedBatch({ items: 30 }), holesFound: 2 });
  const base = qrels([
    ['q1', 'a', 1],
    ['q1', 'b', 0],
    ['q2', 'c', 1],
  ]);
  const human: HumanLabel[] = [
    {
      query_id: 'q1',
      chunk_id: 'b',
      label: 'yes',
      votes: { yes: 3, no: 0 },
      workers: 3,
      batch: 's',
      dataset: 'x',
      source: 'human-majority',
    },
    {
      query_id: 'q1',
      chunk_id: 'z',
      label: 'yes',
      votes: { yes: 2, no: 1 },
      workers: 3,
      batch: 's',
      dataset: 'x',
      source: 'human-majority',
    },
    {
      query_id: 'q2',
      chunk_id: 'y',
      label: 'yes',
      votes: { yes: 2, no: 1 },
      workers: 3,
      batch: 's',
      dataset: 'x',
      source: 'human-majority',
    },
  ];
  const merged = mergeQrels({ base, consensus: [{ query_id: 'q2', chunk_id: 'w', label: 'yes', dataset: 'x' }], human });
  const exported: ExportQrelsResult = {
    batch: 's',
    base: { file: 'base.tsv', format: 'beir', pairs: 3 },
    consensus: { fromBatch: 1, fromFile: null, file: null },
    aggregate: { aggregate: 'majority', from: 'protocol', reason: 'no forecast', forecast: null },
    human: {
      labels: 3,
      unresolved: [
        {
          item: 's|q3:d',
          query_id: 'q3',
          chunk_id: 'd',
          dataset: 'x',
          reason: 'tie',
          votes: { yes: 1, no: 1 },
          validVotes: 2,
          voteTarget: 3,
        },
      ],
    },
    out: { file: 'qrels.trec', format: 'trec', pairs: merged.entries.length },
    holesFound: 2,
    summary: merged.summary,
  };
  const next = qrels(merged.entries.map((e) => [e.query_id, e.doc_id, e.rel]));
  const evaluation = evaluateSystems({
    base,
    next,
    measures: parseMeasures(['nDCG@10', 'Hole@10']),
    systems: [
      { name: 'lexical', run: run({ q1: ['a', 'b'], q2: ['c'] }) },
      { name: 'semantic', run: run({ q1: ['z', 'b', 'a'], q2: ['y', 'w', 'c'] }) },
    ],
  });
  return { report, exported, evaluation };
}

describe('the demo summary', () => {
  const { report, exported, evaluation } = fixture();
  const summary = demoSummary({
    batch: 's',
    cases: 30,
    resumed: false,
    report,
    exported,
    evaluation,
    wall: { workSeconds: 12.5, totalSeconds: 40 },
    files: [{ what: 'qrels (TREC)', path: '/out/s/qrels.trec' }],
  });

  it('takes agreement, cost, latency from the report and the qrels changes from the merge', () => {
    expect(summary.agreement).toEqual({
      fleissKappa: report.fleissKappa,
      krippendorffAlpha: report.krippendorffAlpha,
      labels: report.labels,
      unresolved: 1,
      accuracy: report.quality.accuracy?.accuracy.value ?? null,
    });
    expect(summary.cost).toMatchObject({
      total: report.cost.total,
      perLabel: report.cost.perLabel,
      perHole: report.cost.perHole,
      holesFound: 2,
      quoted: report.cost.quote!.quoted.total,
      difference: report.cost.quote!.difference,
    });
    expect(summary.cost.quoted! + summary.cost.differences.reduce((n, d) => n + d.cents, 0)).toBe(summary.cost.total);
    expect(summary.latency).toEqual({
      timeToTarget: {
        voteTarget: 3,
        p50Seconds: report.latency.timeToTarget.p50Seconds,
        p90Seconds: report.latency.timeToTarget.p90Seconds,
      },
      simulatedSeconds: report.latency.publishToLastValidVoteSeconds,
      workWallSeconds: 12.5,
      totalWallSeconds: 40,
    });
    // holes: q1/z and q2/y by the crowd, q2/w by consensus; q1/b flipped from 0 to relevant
    expect(summary.qrels).toEqual({ holesFilled: 3, byCrowd: 2, byConsensus: 1, flips: 1, unchanged: 0, newNonRelevant: 0, conflicts: 1 });
  });

  it('lists the systems whose rank changed per measure with Kendall τ, leaving out measures without a base ranking', () => {
    expect(summary.rankings).toEqual([
      {
        measure: 'nDCG@10',
        kendallTau: -1,
        changed: [
          { system: 'lexical', rankBase: 1, rankNew: 2 },
          { system: 'semantic', rankBase: 2, rankNew: 1 },
        ],
      },
    ]);
  });

  it('renders every part, the files with their paths', () => {
    const text = renderDemoSummary(summary);
    expect(text).toMatch(/^qrelay demo: batch s, 30 escalated cases, finished in 40s\n/);
    expect(text).toMatch(/^agreement {3}Fleiss κ \d\.\d{3} · Krippendorff α \d\.\d{3} · \d+ labels, 1 unresolved/m);
    expect(text).toMatch(/^cost {8}\$\d+\.\d\d in total · \$\d+\.\d\d per label · \$\d+\.\d\d per hole found \(2 holes\)$/m);
    expect(text).toMatch(/^ {12}quote \$\d+\.\d\d → actual \$\d+\.\d\d \([+−]\$\d+\.\d\d/m);
    expect(text).toMatch(/^latency {5}time to decided p50 \S+, p90 \S+ \(simulated\)/m);
    expect(text).toContain('wall time: crowd work 13s, whole workflow 40s');
    expect(text).toContain('holes filled 3 (2 by the crowd, 1 by consensus) · flips 1 · unchanged 0 · conflicts 1');
    expect(text).toMatch(/^rankings {4}nDCG@10 {2}Kendall τ -1\.000 · moved: lexical 1→2, semantic 2→1$/m);
    expect(text).toMatch(/^files {7}qrels \(TREC\) {2}\/out\/s\/qrels\.trec$/m);
    expect(renderDemoSummary({ ...summary, resumed: true })).toContain('finished in 40s (this session; it continued a stopped run)');
  });
});
