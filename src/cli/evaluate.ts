import { InvalidArgumentError, type Command } from 'commander';
import { UserError } from '../errors.js';
import {
  DEFAULT_MEASURES,
  DEFAULT_SIGNIFICANCE,
  evaluateFiles,
  evaluationDocument,
  measuresHelp,
  parseMeasures,
  perQueryLines,
  QRELS_FORMATS,
  renderEvaluationTable,
  type QrelsFormat,
} from '../qrels/index.js';
import { parseChoice } from './options.js';
import { action } from './run.js';

interface EvaluateOptions {
  qrels?: string[];
  measures?: string[];
  qrelsFormat?: QrelsFormat;
  json?: boolean;
  perQuery?: boolean;
  relLevel?: number;
  significance: boolean;
  randomizationTrials: number;
  bootstrapSamples: number;
  seed: number;
  posterior?: string;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

function integer(min: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`expected ${what}`);
    return n;
  };
}

/** Writes lines to stdout in chunks, waiting when the pipe is full. */
async function writeLines(lines: Iterable<string>): Promise<void> {
  let chunk: string[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const ok = process.stdout.write(`${chunk.join('\n')}\n`);
    chunk = [];
    if (!ok) await new Promise((resolve) => process.stdout.once('drain', resolve));
  };
  for (const line of lines) {
    chunk.push(line);
    if (chunk.length >= 10_000) await flush();
  }
  await flush();
}

export function registerEvaluate(program: Command): void {
  program
    .command('evaluate')
    .description('evaluate TREC runs under the base and the new qrels: means, rank changes, Kendall τ-b and τ_AP, significance')
    .argument('<runs...>', 'TREC run files (qid Q0 docid rank score tag; tabs or spaces)')
    .option('--qrels <file>', 'qrels file (TREC, BEIR tsv or BRIDGE jsonl); give it twice: the base, then the new', collect)
    .option('--measures <list>', `measures, comma or space separated (default: "${DEFAULT_MEASURES.join(' ')}")`, collect)
    .option(
      '--rel-level <N>',
      "binary measures count grade >= N as relevant (trec_eval -l; default 1); a measure's own rel=N wins",
      integer(1, 'a positive integer'),
    )
    .option('--qrels-format <format>', `read both qrels as ${QRELS_FORMATS.join('|')} instead of detecting it`, parseQrelsFormat)
    .option('--json', 'print one JSON object (per-query values, significance, intervals) instead of the table; with --per-query: JSONL')
    .option(
      '--per-query',
      'print every per-query value instead of the table: trec_eval -q\'s three columns "measure qid value" (JSONL with --json)',
    )
    .option('--no-significance', 'skip the significance tests and bootstrap intervals')
    .option(
      '--randomization-trials <N>',
      'trials of the paired randomization test (0: skip it)',
      integer(0, 'a non-negative integer'),
      DEFAULT_SIGNIFICANCE.trials,
    )
    .option(
      '--bootstrap-samples <N>',
      'bootstrap samples for the 95% intervals (0: none)',
      integer(0, 'a non-negative integer'),
      DEFAULT_SIGNIFICANCE.samples,
    )
    .option(
      '--seed <N>',
      'seed of the randomization test and the bootstrap (same seed, same output)',
      integer(0, 'a non-negative integer'),
      DEFAULT_SIGNIFICANCE.seed,
    )
    .option(
      '--posterior <file>',
      "p_relevant of the new qrels (export-qrels --format jsonl --posterior): the new intervals, τ intervals and pair verdicts also carry the labels' doubt (withLabels, pFlip)",
    )
    .addHelpText(
      'after',
      `
Measures, named as ir_measures names them (k a positive integer; rel=N where binary):
${measuresHelp()};
e.g. "AP(rel=2)", "P(rel=2)@10". Values equal ir_measures' (trec_eval's for most): grade −1 is
judged non-relevant (no gain, judged for Judged@k, ignored by Bpref); nDCG and Judged
take no relevance level. Means are over the queries of each qrels; a query missing from
a run scores 0 (as ir_measures and trec_eval -c). Significance, per measure and qrels,
for every pair of runs: paired two-sided t-test, paired randomization test, Holm-adjusted
t-test p; 95% bootstrap intervals of every mean, change, τ-b and τ_AP. See
docs/evaluation.md.`,
    )
    .action(
      action(async (runFiles: string[], opts: EvaluateOptions) => {
        const [basePath, newPath, ...extra] = opts.qrels ?? [];
        if (basePath === undefined || newPath === undefined || extra.length > 0) {
          throw new UserError(`give --qrels exactly twice, the base qrels first and the new qrels second (got ${opts.qrels?.length ?? 0})`);
        }
        const measures = parseMeasures(opts.measures ?? [...DEFAULT_MEASURES]);
        const withSignificance = opts.significance && !opts.perQuery;
        const { inputs, report, significance } = await evaluateFiles({
          base: basePath,
          next: newPath,
          runs: runFiles,
          measures,
          ...(opts.qrelsFormat && { qrelsFormat: opts.qrelsFormat }),
          ...(opts.relLevel !== undefined && { relLevel: opts.relLevel }),
          ...(withSignificance && { significance: { trials: opts.randomizationTrials, samples: opts.bootstrapSamples, seed: opts.seed } }),
          ...(opts.posterior !== undefined && { posterior: opts.posterior }),
        });
        if (opts.perQuery) return writeLines(perQueryLines(report, opts.json ? 'jsonl' : 'trec'));
        process.stdout.write(
          opts.json
            ? `${JSON.stringify(evaluationDocument(inputs, report, significance))}\n`
            : renderEvaluationTable(inputs, report, significance),
        );
      }),
    );
}

function parseQrelsFormat(value: string): QrelsFormat {
  return parseChoice(QRELS_FORMATS)(value);
}
