import { quote, type MergeConflict, type MergeCounts } from '../qrels/index.js';
import { describeUnresolved } from './human-labels.js';
import type { ExportQrelsResult, PosteriorSummary } from './qrels-export.js';

/** What `qrelay export-qrels` prints (pure). `--json` prints the result object instead. */

/** Conflicts and unresolved items listed in the text; `--json` has them all. */
export const LISTED = 20;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}

function countsRow(name: string, c: MergeCounts): string[] {
  return [
    name,
    c.labelled,
    c.holesFilled,
    c.flips,
    c.unchanged,
    c.newNonRelevant,
    c.bySource['human-majority'] + c.bySource['human-dawid-skene'] + c.bySource['llm-adjudicator'] + c.bySource.manual,
    c.bySource['dream-consensus'],
  ].map(String);
}

const judged = (v: string | number | null) => (v === null ? '–' : String(v));

export function describeConflict(c: MergeConflict): string {
  return `query ${quote(c.query_id)} chunk ${quote(c.doc_id)}: base ${judged(c.base)}, consensus ${judged(c.consensus)}, human ${judged(c.human)} -> kept ${c.kept.source} (${c.kept.rel})`;
}

function posteriorLine(format: ExportQrelsResult['out']['format'], p: PosteriorSummary): string {
  if (format !== 'jsonl') return `p_relevant: not written (${format} has no field for it; use --format jsonl)`;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const forecast = p.labelError === null ? '' : `, and at least the forecast's label error ${pct(p.labelError)}`;
  return `p_relevant: crowd labels from Dawid–Skene, no surer than a majority at ${pct(p.voteError)} error per vote (gold: ${p.gold.wrong} of ${p.gold.checks} check answers wrong; items' agreement: ${pct(p.agreementError)})${forecast}; consensus ${p.consensusConfidence}, LLM adjudicator ${p.adjudicatorConfidence}; base 1 or 0`;
}

export function renderExportSummary(r: ExportQrelsResult): string {
  const s = r.summary;
  const consensus = `${r.consensus.fromBatch} from the batch${r.consensus.fromFile !== null ? ` + ${r.consensus.fromFile} from ${r.consensus.file}` : ''}`;
  const lines = [
    `batch ${r.batch}${r.simulated ? " (simulated: its human labels are a simulated crowd's)" : ''}: wrote ${r.out.file} (${r.out.format}, ${r.out.pairs} pairs)`,
    `labels: ${r.aggregate.aggregate === 'ds' ? 'Dawid–Skene (source human-dawid-skene)' : 'majority of 3 (source human-majority)'}, because ${r.aggregate.reason}`,
    `inputs: base ${r.base.file} (${r.base.format}, ${r.base.pairs} pairs); consensus labels ${consensus}; human labels ${r.human.labels} (${r.human.unresolved.length} unresolved, not written)`,
    ...(r.posterior ? [posteriorLine(r.out.format, r.posterior)] : []),
    '',
    ...table([
      ['', 'labelled', 'holes filled', 'flips', 'unchanged', 'new non-relevant', 'by humans', 'by consensus'],
      countsRow('overall', s.overall),
      ...s.datasets.map((d) => countsRow(`  ${d.dataset}`, d)),
    ]),
    '',
    `holes found by the crowd: ${r.holesFound} (human "relevant" on pairs the base did not judge)`,
    `base pairs untouched: ${s.baseOnly}; duplicates ignored: ${s.duplicates.consensus} consensus, ${s.duplicates.human} human`,
    `conflicts: ${s.conflicts.length}${s.conflicts.length ? ' (a label contradicting the base, or a human label the consensus; the higher tier is kept)' : ''}`,
    ...s.conflicts.slice(0, LISTED).map((c) => `  ${describeConflict(c)}`),
    ...(s.conflicts.length > LISTED ? [`  ... and ${s.conflicts.length - LISTED} more (--json lists all)`] : []),
  ];
  if (r.human.unresolved.length > 0) {
    lines.push(`unresolved items (not written): ${r.human.unresolved.length}`);
    lines.push(...r.human.unresolved.slice(0, LISTED).map((u) => `  ${describeUnresolved(u)}`));
    if (r.human.unresolved.length > LISTED) lines.push(`  ... and ${r.human.unresolved.length - LISTED} more (--json lists all)`);
  }
  return `${lines.join('\n')}\n`;
}
