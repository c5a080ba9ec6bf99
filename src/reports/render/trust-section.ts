import { AGGREGATORS, type AgreementInterval } from '../../aggregate/index.js';
import type { ConfusionTable, TableAccuracy } from '../trust.js';
import type { Report } from '../types.js';
import type { Block, Row, Section } from './blocks.js';
import { count, DASH, decimal, percent } from './format.js';

/**
 * The parts of the report's quality section that a reviewer checks the labels with: κ and α
 * with their intervals, the crowd on the gold, the protocol's majority next to Dawid–Skene
 * (and the items on which they differ), and per-worker confusion tables. Plain text; each
 * renderer escapes it.
 */

const row = (cells: readonly string[], strong = false): Row => ({ cells, strong });
const table = (caption: string, head: readonly string[], numeric: readonly boolean[], rows: readonly Row[]): Block => ({
  kind: 'table',
  table: { caption, head, numeric, rows },
});
const text = (t: string): Block => ({ kind: 'text', text: t });

/** "[0.512, 0.688]", or "—" when the bootstrap gave none. */
export function intervalText(i: AgreementInterval): string {
  return i.low === null || i.high === null ? DASH : `[${decimal(i.low)}, ${decimal(i.high)}]`;
}

const accuracyCells = (a: TableAccuracy) => [count(a.answers), percent(a.accuracy), percent(a.balancedAccuracy)];
/** "yes→yes 12 · yes→no 1 · no→yes 0 · no→no 9" as four cells. */
const tableCells = (t: ConfusionTable) => [count(t.yes.yes), count(t.yes.no), count(t.no.yes), count(t.no.no)];

export function goldBlocks(r: Report): Block[] {
  const g = r.quality.gold;
  return [
    table(
      'The crowd on the gold: answers to attention checks against their known answers',
      ['answers', 'accuracy', 'balanced accuracy', 'known yes → yes', 'known yes → no', 'known no → yes', 'known no → no'],
      [true, true, true, true, true, true, true],
      [row([...accuracyCells(g), ...tableCells(g.table)])],
    ),
    text('Balanced accuracy: the mean of the two polarities’ pass rates, so a worker who always answers one way scores 50%.'),
  ];
}

export function aggregationSection(r: Report): Section {
  const a = r.quality.aggregation;
  const ds = a.dawidSkene;
  const summaryRow = (name: string, s: typeof a.majority) =>
    row([name, count(s.labels), count(s.unresolved), percent(s.accuracy), percent(s.balancedAccuracy)]);
  const blocks: Block[] = [
    table(
      'Majority of 3 (the protocol’s label) and Dawid–Skene',
      ['aggregation', 'labels', 'unresolved', 'accuracy (hidden truth)', 'balanced accuracy (hidden truth)'],
      [false, true, true, true, true],
      [
        summaryRow(`${AGGREGATORS.majority.title}${a.used === 'majority' ? ' (used)' : ''}`, a.majority),
        summaryRow(`${AGGREGATORS['dawid-skene'].title}${a.used === 'dawid-skene' ? ' (used)' : ''}`, ds),
      ],
    ),
    text(
      `Dawid–Skene over ${count(ds.answersUsed)} answers (counted or not, checks included), ${count(ds.goldItems)} attention checks held at their known answers, worker priors from the evidence; ${ds.iterations} EM iterations${ds.converged ? '' : ' (not converged)'}. The two differ on ${count(a.differences.length)} item${a.differences.length === 1 ? '' : 's'}.`,
    ),
  ];
  if (a.differences.length > 0) {
    blocks.push(
      table(
        'Items on which majority and Dawid–Skene differ',
        ['query', 'chunk', 'majority', 'Dawid–Skene', 'P(yes) by Dawid–Skene'],
        [false, false, false, false, true],
        a.differences.map((d) =>
          row([d.queryId, d.chunkId, d.majority ?? 'unresolved', d.dawidSkene ?? 'unresolved', decimal(d.probabilityYes)]),
        ),
      ),
    );
  }
  return { id: 'aggregation', title: 'Majority and Dawid–Skene', blocks, subsections: [] };
}

export function confusionSection(r: Report): Section {
  return {
    id: 'worker-confusion',
    title: 'Per-worker confusion tables',
    blocks: [
      table(
        'Each worker against the gold (attention checks) and against the final labels',
        [
          'worker',
          'gold answers',
          'gold accuracy',
          'gold balanced accuracy',
          'gold yes → yes',
          'gold yes → no',
          'gold no → yes',
          'gold no → no',
          'answers vs final',
          'agreement with final',
          'balanced agreement',
          'final yes → yes',
          'final yes → no',
          'final no → yes',
          'final no → no',
        ],
        [false, ...Array<boolean>(14).fill(true)],
        r.workers.map((w) =>
          row([
            w.worker,
            ...accuracyCells(w.confusion.vsGold.summary),
            ...tableCells(w.confusion.vsGold),
            ...accuracyCells(w.confusion.vsFinal.summary),
            ...tableCells(w.confusion.vsFinal),
          ]),
        ),
      ),
      text(
        '“yes → no”: the reference (the known answer, or the final label) is yes and the worker answered no. Every submitted answer counts here, discarded ones included.',
      ),
    ],
    subsections: [],
  };
}
