import { describe, expect, it } from 'vitest';
import { evaluateSystems } from './evaluate.js';
import { parseMeasures } from './measures.js';
import { parseQrelsText } from './qrels-parse.js';
import { parseRunText } from './run-parse.js';

const qrels = (text: string) => parseQrelsText(text, 'q.txt', 'trec').qrels;
const run = (text: string) => parseRunText(text, 'r.run').run;

// base: q1 relevant a; q2 judged but nothing relevant. new: q1 adds b (hole); q2 gains c; q3 is new.
const base = qrels('q1 0 a 1\nq1 0 x 0\nq2 0 c 0\n');
const next = qrels('q1 0 a 1\nq1 0 x 0\nq1 0 b 1\nq2 0 c 1\nq3 0 z 1\n');
// s1 finds a first in q1, misses q2 and q3; s2 finds b then a, and c in q2; s3 = s1
const s1 = run('q1 Q0 a 1 2 s\nq1 Q0 b 2 1 s\nq9 Q0 a 1 1 s\n');
const s2 = run('q1 Q0 b 1 2 s\nq1 Q0 a 2 1 s\nq2 Q0 c 1 1 s\n');

const report = evaluateSystems({
  base,
  next,
  systems: [
    { name: 's1', run: s1 },
    { name: 's2', run: s2 },
    { name: 's3', run: s1 },
  ],
  measures: parseMeasures(['Success@1 Judged@2 Hole@1']),
});
const result = (measure: string) => report.measures.find((m) => m.measure === measure)!;

describe('evaluateSystems', () => {
  it('averages over every query of the qrels, 0 for queries a run lacks, ignoring unjudged run queries', () => {
    const success = result('Success@1');
    expect(success.queries).toEqual({ base: 2, new: 3 });
    // base: s1 q1=1, q2=0 (no relevant) -> 1/2; s2 q1 b unjudged -> 0, q2 0 -> 0
    // new:  s1 q1=1, q2=0 (missing), q3=0 (missing) -> 1/3; s2 q1=1, q2=1, q3=0 -> 2/3
    expect(success.systems.map((s) => [s.system, s.base, s.new])).toEqual([
      ['s1', 1 / 2, 1 / 3],
      ['s2', 0, 2 / 3],
      ['s3', 1 / 2, 1 / 3],
    ]);
    expect(report.perQuery[0]!.measures['Success@1']).toEqual({ base: { q1: 1, q2: 0 }, new: { q1: 1, q2: 0, q3: 0 } });
  });

  it('ranks systems with shared ranks for ties, and reports the rank change and τ-b', () => {
    const success = result('Success@1');
    expect(success.systems.map((s) => [s.rankBase, s.rankNew, s.rankChange])).toEqual([
      [1, 2, -1],
      [3, 1, 2],
      [1, 2, -1],
    ]);
    // pairs (s1,s2) discordant, (s1,s3) tied in both, (s2,s3) discordant; 3 pairs, 1 tied in each:
    // τ-b = (0 - 2) / sqrt((3 - 1)(3 - 1)) = -1
    expect(success.kendallTau).toBe(-1);
  });

  it('computes Hole@k once per system, from both qrels, over the new qrels queries', () => {
    const hole = result('Hole@1');
    expect(hole.queries).toEqual({ base: null, new: 3 });
    // s2: q1 top 1 is b (relevant now, unjudged in the base) = 1, q2 c was judged in the base = 0, q3 missing = 0
    expect(hole.systems.map((s) => [s.system, s.base, s.new, s.rankBase, s.rankNew, s.rankChange])).toEqual([
      ['s1', null, 0, null, 2, null],
      ['s2', null, 1 / 3, null, 1, null],
      ['s3', null, 0, null, 2, null],
    ]);
    expect(hole.kendallTau).toBeNull();
    expect(report.perQuery[1]!.measures['Hole@1']).toEqual({ base: null, new: { q1: 1, q2: 0, q3: 0 } });
  });

  it('ranks systems whose means differ only by summation noise as tied', () => {
    const judged = qrels('q1 0 j1 1\nq1 0 j2 0\nq1 0 j3 0\nq2 0 j1 1\nq2 0 j2 0\n');
    const ten = (qid: string, judgedDocs: string[]) =>
      [...judgedDocs, ...Array.from({ length: 10 - judgedDocs.length }, (_, i) => `u${i}`)]
        .map((d, i) => `${qid} Q0 ${d} ${i + 1} ${10 - i} s`)
        .join('\n');
    // Judged@10: x = (0.1 + 0.2) / 2 = 0.15000000000000002, y = (0.3 + 0) / 2 = 0.15
    const x = run(`${ten('q1', ['j1'])}\n${ten('q2', ['j1', 'j2'])}\n`);
    const y = run(`${ten('q1', ['j1', 'j2', 'j3'])}\n${ten('q2', [])}\n`);
    const tied = evaluateSystems({
      base: judged,
      next: judged,
      systems: [
        { name: 'x', run: x },
        { name: 'y', run: y },
      ],
      measures: parseMeasures(['Judged@10']),
    });
    const [sx, sy] = tied.measures[0]!.systems;
    expect(sx!.new).not.toBe(sy!.new);
    expect([sx!.rankNew, sy!.rankNew, sx!.rankBase, sy!.rankBase]).toEqual([1, 1, 1, 1]);
    expect(tied.measures[0]!.kendallTau).toBeNull(); // every pair tied
  });

  it('keeps per-query values of unusual query ids as plain keys', () => {
    const odd = evaluateSystems({
      base: qrels('__proto__ 0 a 1\n'),
      next: qrels('__proto__ 0 a 1\n'),
      systems: [{ name: 's', run: run('__proto__ Q0 a 1 1 s\n') }],
      measures: parseMeasures(['R@1']),
    });
    const values = odd.perQuery[0]!.measures['R@1']!.new;
    expect(Object.keys(values)).toEqual(['__proto__']);
    expect(JSON.parse(JSON.stringify(values))).toEqual(JSON.parse('{"__proto__": 1}'));
  });
});
