import type { Command } from 'commander';
import { AGGREGATES, exportQrels, renderExportSummary, type ExportQrelsOptions } from '../export/index.js';
import { QRELS_FORMATS, QRELS_OUTPUT_FORMATS } from '../qrels/index.js';
import { parseChoice } from './options.js';
import { withPipeline } from './pipeline.js';
import { action } from './run.js';

/** The export's own options (the batch is the argument), and --json. */
type ExportOptions = Omit<ExportQrelsOptions, 'batch'> & { json?: boolean };

export function registerExportQrels(program: Command): void {
  program
    .command('export-qrels')
    .description("merge the batch's human labels and the consensus labels into base qrels, and write them (atomically)")
    .argument('<batch>', 'batch name')
    .requiredOption('--base <file>', 'base qrels: TREC, BEIR tsv or BRIDGE jsonl')
    .option('--base-format <format>', `read the base as ${QRELS_FORMATS.join('|')} instead of detecting it`, parseChoice(QRELS_FORMATS))
    .option('--consensus <file>', "debate-consensus labels (JSONL, as qrelay import reads them), used with the batch's imported ones")
    .requiredOption('--out <file>', 'the merged qrels to write')
    .option(
      '--format <format>',
      `${QRELS_OUTPUT_FORMATS.join('|')} (default: from --out: .tsv beir, .jsonl jsonl, else trec)`,
      parseChoice(QRELS_OUTPUT_FORMATS),
    )
    .option(
      '--aggregate <method>',
      `${AGGREGATES.join('|')}: the protocol's majority of 3, or Dawid–Skene with the checks as gold (default: the one the batch's simulated forecast showed better, else majority)`,
      parseChoice(AGGREGATES),
    )
    .option(
      '--posterior',
      'add p_relevant (0-1) to every JSONL record: the posterior of crowd labels given the worker model, floored by the gold checks; stated confidences for consensus and LLM labels; 1 or 0 for base judgments (TREC and BEIR outputs are unchanged)',
    )
    .option('--json', 'print one JSON object (every conflict and unresolved item) instead of the summary')
    .addHelpText(
      'after',
      `
Precedence: a human label > a consensus label > the base judgment. A label that
contradicts the base (or a human label the consensus) wins and is listed as a conflict.
Only final labels are written (the item has its votes, or the batch takes no more work);
unresolved items (ties, missing votes) are listed, never written. Nothing is written if
any input is bad.`,
    )
    .action(
      action(async (batch: string, opts: ExportOptions) => {
        await withPipeline(
          async (ctx) => {
            const result = await exportQrels(ctx, {
              batch,
              base: opts.base,
              out: opts.out,
              ...(opts.baseFormat && { baseFormat: opts.baseFormat }),
              ...(opts.consensus !== undefined && { consensus: opts.consensus }),
              ...(opts.format && { format: opts.format }),
              ...(opts.aggregate && { aggregate: opts.aggregate }),
              ...(opts.posterior && { posterior: true }),
            });
            process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : renderExportSummary(result));
          },
          { quiet: true },
        );
      }),
    );
}
