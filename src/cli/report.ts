import type { Command } from 'commander';
import { costLine } from '../debate/prices.js';
import { llmCostsOf } from '../debate/store.js';
import { batchReport } from '../export/index.js';
import { writeTextAtomically } from '../qrels/index.js';
import { CsvTable, renderReport, ReportFormat } from '../reports/index.js';
import { parseChoice } from './options.js';
import { withPipeline } from './pipeline.js';
import { action } from './run.js';

interface ReportCliOptions {
  format: ReportFormat;
  table?: CsvTable;
  out?: string;
  base?: string;
  runs?: string[];
  adjudicated?: string;
  measure?: string;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function registerReport(program: Command): void {
  program
    .command('report')
    .description(
      "a batch's cost, latency and quality report: agreement (κ, α), cost per label and per hole, quote vs actual, items decided and time to decided, workers",
    )
    .argument('<batch>', 'batch name')
    .option('--format <format>', ReportFormat.options.join('|'), parseChoice(ReportFormat.options), 'json')
    .option('--table <table>', `csv only: ${CsvTable.options.join('|')} (default workers)`, parseChoice(CsvTable.options))
    .option('--out <file>', 'write the report to this file (atomically) instead of standard output')
    .option('--base <file>', "base qrels to count the holes found against (default: the base of the batch's last export-qrels)")
    .option(
      '--runs <file>',
      'a TREC run for the "did the holes matter" section (repeat for each run): scored under the base and the adjudicated qrels',
      collect,
    )
    .option('--adjudicated <file>', "with --runs: the adjudicated qrels (default: the output of the batch's last export-qrels)")
    .option('--measure <measure>', 'with --runs: the measure compared, as qrelay evaluate names it (default nDCG@10)')
    .addHelpText(
      'after',
      `
JSON: money in whole US cents (cost.unit "cents"), durations in seconds (fields named
...Seconds), null where a measure is undefined. Stable fields: batch, items, hits,
assignments, votes, labels, fleissKappa, krippendorffAlpha, cost{rewards, fees, bonuses,
total, perLabel, currency}, latency{...Seconds}, workers[...].`,
    )
    .action(
      action(async (batch: string, opts: ReportCliOptions) => {
        await withPipeline(
          async (ctx) => {
            const { report } = await batchReport(ctx, batch, {
              ...(opts.base !== undefined && { base: opts.base }),
              ...(opts.runs && { runs: opts.runs }),
              ...(opts.adjudicated !== undefined && { adjudicated: opts.adjudicated }),
              ...(opts.measure !== undefined && { measure: opts.measure }),
            });
            let text = renderReport(report, opts.format, opts.table ? { table: opts.table } : {});
            // The LLM steps' costs beside the crowd's, when `debate --batch` or `adjudicate` ran for the batch.
            const llm = await llmCostsOf(ctx.models.batches.db, batch);
            if (llm.debate || llm.adjudicator) {
              const line = costLine({ ...llm, crowdCents: report.cost.total });
              if (opts.format === 'json')
                text = `${JSON.stringify({ ...(JSON.parse(text) as object), llmCost: { ...llm, line } }, null, 2)}\n`;
              else if (opts.format === 'md') text = `${text.trimEnd()}\n\n## LLM steps\n\n${line}\n`;
            }
            if (opts.out === undefined) return void process.stdout.write(text);
            await writeTextAtomically(opts.out, text);
            process.stdout.write(
              `wrote ${opts.out} (${opts.format}${opts.format === 'csv' ? `, ${opts.table ?? 'workers'} table` : ''})\n`,
            );
          },
          { quiet: true },
        );
      }),
    );
}
