import { InvalidArgumentError, type Command } from 'commander';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { createProgress } from '../demo/progress.js';
import { UserError } from '../errors.js';
import type { importDebateOutputs } from '../debate/import-outputs.js';
import { loadPriceTable, formatCost } from '../debate/prices.js';
import type { DebateSummary } from '../debate/run.js';
import { parseWhole, withPipeline } from './pipeline.js';
import { action } from './run.js';

/** `qrelay debate CANDIDATES --out DIR`: the DREAM debate over an OpenAI-compatible endpoint. */

interface DebateCliOptions {
  out: string;
  model?: string;
  modelA?: string;
  modelB?: string;
  rounds: number;
  concurrency: number;
  temperature: number;
  prompts?: string;
  budget?: number;
  json?: boolean;
  prefilter?: boolean;
  prefilterModel: string[];
  batch?: string;
  timeout: number;
}

/**
 * Exit code of a debate that finished with candidates the endpoint left unanswered: the
 * outputs are written, the run is not complete, and running it again asks those requests.
 * (Candidates whose answers could not be read are final: a rerun replays the same answers.)
 */
export const EXIT_CANDIDATES_FAILED = 3;
/** Exit code after Ctrl-C (128 + SIGINT), as shells report it. */
const EXIT_INTERRUPTED = 130;

const timeoutOption = [
  '--timeout <seconds>',
  'seconds one attempt of a request may take before it is retried',
  parseWhole(1, 86_400),
  300,
] as const;

/**
 * Ctrl-C (or SIGTERM) while `work` runs: requests in flight are cancelled and one line says
 * what is kept; a second signal exits at once.
 */
async function stoppable<T>(what: string, kept: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    return await work(controller.signal);
  } catch (err) {
    // by name: the debate's modules (and the openai SDK) load only when the command runs
    if (controller.signal.aborted && err instanceof Error && err.name === 'Interrupted') {
      process.stderr.write(`qrelay: ${what} stopped by ${String(controller.signal.reason)}; ${kept}\n`);
      process.exit(EXIT_INTERRUPTED);
    }
    throw err;
  } finally {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  }
}

function parseTemperature(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 2) throw new InvalidArgumentError('expected a number from 0 to 2');
  return n;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Which option chose a model, for the 404 message. */
export function modelOptionNamer(o: Pick<DebateCliOptions, 'model' | 'modelA' | 'modelB' | 'prefilterModel'>) {
  return (model: string): string => {
    const names = [];
    if (o.modelA === model) names.push('--model-a');
    if (o.modelB === model) names.push('--model-b');
    if (o.model === model && (o.modelA === undefined || o.modelB === undefined)) names.push('--model');
    if (o.prefilterModel.includes(model)) names.push('--prefilter-model');
    return names.length > 0 ? names.join(' / ') : '--model';
  };
}

function summaryText(s: DebateSummary): string {
  const rounds = Object.entries(s.consensusByRound)
    .map(([r, n]) => `${n} in round ${r}`)
    .join(', ');
  return [
    `debate: ${s.candidates} candidates: ${s.consensus} consensus${rounds ? ` (${rounds})` : ''}, ${s.escalated} escalated, ${s.failed} failed${s.filtered ? `, ${s.filtered} filtered out` : ''}`,
    `requests ${s.requests} (${s.requestsSent} answered by the endpoint, ${s.requestsReplayed} from the journal, ${s.requestsFailed} failed; ${s.httpRequests} HTTP requests sent), re-asks ${s.retries}, transport retries ${s.httpRetries}; tokens ${s.promptTokens} prompt + ${s.completionTokens} completion; cost ${formatCost(s.cost)}; ${s.wallSeconds}s`,
    `files: ${s.files.escalations}, ${s.files.consensus}, ${s.files.filtered}, ${s.files.failed}, ${s.files.summary}`,
  ].join('\n');
}

export function registerDebate(program: Command): void {
  program
    .command('debate')
    .description(
      'the DREAM debate (two LLM agents, Tables 27/28) over candidates: consensus labels, and escalations for the crowd (resumable)',
    )
    .argument('<candidates>', 'JSONL file: {query_id, query, answers, chunk_id, chunk, dataset?} per line')
    .requiredOption(
      '--out <dir>',
      'output directory (escalations.jsonl, consensus.jsonl, filtered.jsonl, failed.jsonl, summary.json, journal.jsonl)',
    )
    .option('--model <name>', 'model of both agents (required unless --model-a and --model-b are given)')
    .option('--model-a <name>', 'model of Agent A (stance yes)')
    .option('--model-b <name>', 'model of Agent B (stance no)')
    .option('--rounds <n>', 'rounds before a disagreement is escalated', parseWhole(1, 20), 2)
    .option('--concurrency <n>', 'requests in flight', parseWhole(1, 1000), 8)
    .option('--temperature <t>', 'sampling temperature', parseTemperature, 0)
    .option('--prompts <dir>', 'directory with the prompt templates (default: the bundled prompts/)')
    .option('--budget <tokens>', 'stop before spending more tokens than this', parseWhole(1, Number.MAX_SAFE_INTEGER))
    .option('--json', 'print the summary as one JSON object')
    .option(
      '--prefilter',
      "drop clearly irrelevant candidates first (the paper's Table 17 filter): dropped only when every --prefilter-model says false",
    )
    .option(
      '--prefilter-model <name>',
      "a model of the prefilter (repeatable; default: the agents' models); implies --prefilter",
      collect,
      [],
    )
    .option('--batch <name>', 'import the escalations and the consensus labels into this batch afterwards')
    .option(...timeoutOption)
    .addHelpText(
      'after',
      `\nExit codes: 0 every candidate finished (failed.jsonl lists those whose answers could not be read); ${EXIT_CANDIDATES_FAILED} the outputs are written but the endpoint gave no answer for some candidates (failed.jsonl says why; the same command asks their requests again); 1 an error; ${EXIT_INTERRUPTED} stopped by Ctrl-C (answers so far are kept in the journal).`,
    )
    .action(
      action(async (candidates: string, opts: DebateCliOptions) => {
        const modelA = opts.modelA ?? opts.model;
        const modelB = opts.modelB ?? opts.model;
        if (modelA === undefined || modelB === undefined)
          throw new UserError('--model is required (or both --model-a and --model-b): the model name the endpoint serves');
        const prefilterModels = opts.prefilterModel.length > 0 ? opts.prefilterModel : opts.prefilter ? [...new Set([modelA, modelB])] : [];
        const config = loadConfig();
        const terminal = process.stderr.isTTY === true && !opts.json;
        const progress = terminal ? createProgress(process.stderr, { terminal: true }) : undefined;
        const stage = progress?.stage('debate', { total: 0, unit: 'candidates' });
        // Loaded when used: the other commands need not load the openai SDK.
        const { runDebate } = await import('../debate/run.js');
        const journal = join(opts.out, 'journal.jsonl');
        const summary = await stoppable(
          'debate',
          `the answers so far are kept in ${journal}: run the same command again to continue`,
          (signal) =>
            runDebate({
              candidates,
              out: opts.out,
              modelA,
              modelB,
              rounds: opts.rounds,
              concurrency: opts.concurrency,
              temperature: opts.temperature,
              ...(opts.prompts !== undefined && { promptsDir: opts.prompts }),
              ...(opts.budget !== undefined && { budgetTokens: opts.budget }),
              prefilterModels,
              llm: {
                apiKey: config.env.OPENAI_API_KEY,
                baseURL: config.env.OPENAI_BASE_URL,
                timeoutMs: opts.timeout * 1000,
                modelOption: modelOptionNamer(opts),
              },
              prices: loadPriceTable(config.env.QRELAY_LLM_PRICES),
              onProgress: (done, total) => stage?.update(done, total),
              signal,
              // while requests wait: a line at least every 30 s, sooner when attempts end sooner
              waitingEveryMs: Math.min(30_000, Math.max(1000, (opts.timeout * 1000) / 2)),
              onWaiting: (line) => process.stderr.write(`${terminal ? '\n' : ''}${line}\n`),
            }),
        );
        stage?.finish();
        let imported: Awaited<ReturnType<typeof importDebateOutputs>> | undefined;
        if (opts.batch !== undefined) {
          const batch = opts.batch;
          const { importDebateOutputs: importOutputs } = await import('../debate/import-outputs.js');
          await withPipeline(
            async (ctx) => {
              imported = await importOutputs(ctx, batch, summary);
            },
            { quiet: true },
          );
        }
        if (opts.json) process.stdout.write(`${JSON.stringify({ ...summary, ...(imported && { imported }) })}\n`);
        else {
          process.stdout.write(`${summaryText(summary)}\n`);
          if (imported)
            process.stdout.write(
              `batch ${imported.batch}: ${imported.escalations} escalated cases and ${imported.consensus} consensus labels imported\n`,
            );
        }
        if (summary.failedByEndpoint > 0) {
          process.stderr.write(
            `qrelay: ${summary.failedByEndpoint} of ${summary.candidates} candidates failed because the endpoint gave no answer (reasons in ${summary.files.failed}); the same command asks their requests again\n`,
          );
          process.exitCode = EXIT_CANDIDATES_FAILED;
        }
      }),
    );

  program
    .command('adjudicate')
    .description(
      "the LLM adjudicator (Table 29) on a batch's escalated cases: labels stored with provenance llm-adjudicator beside the crowd's; crowd vs adjudicator κ, confusion table, accuracies",
    )
    .argument('<batch>', 'batch name')
    .requiredOption('--model <name>', 'the adjudicator model')
    .option('--out <file>', 'also write the labels as JSONL (query_id, chunk_id, label, reasoning, references, crowd_label, provenance)')
    .option(
      '--fill-unresolved',
      "give the items the crowd left unresolved the adjudicator's label (provenance llm-adjudicator); the crowd's labels are never replaced",
    )
    .option('--concurrency <n>', 'requests in flight', parseWhole(1, 1000), 8)
    .option('--temperature <t>', 'sampling temperature', parseTemperature, 0)
    .option('--prompts <dir>', 'directory with the prompt templates (default: the bundled prompts/)')
    .option('--json', 'print the result as one JSON object')
    .option(...timeoutOption)
    .action(
      action(
        async (
          batch: string,
          opts: {
            model: string;
            out?: string;
            fillUnresolved?: boolean;
            concurrency: number;
            temperature: number;
            prompts?: string;
            json?: boolean;
            timeout: number;
          },
        ) => {
          await withPipeline(
            async (ctx, config) => {
              const terminal = process.stderr.isTTY === true && !opts.json;
              const stage = terminal
                ? createProgress(process.stderr, { terminal: true }).stage('adjudicate', { total: 0, unit: 'cases' })
                : undefined;
              const { adjudicateBatch, renderAdjudication } = await import('../debate/adjudicate.js');
              const result = await adjudicateBatch(ctx, {
                batch,
                model: opts.model,
                ...(opts.out !== undefined && { out: opts.out }),
                fillUnresolved: opts.fillUnresolved === true,
                concurrency: opts.concurrency,
                temperature: opts.temperature,
                ...(opts.prompts !== undefined && { promptsDir: opts.prompts }),
                journalDir: join(config.dataDir, 'llm'),
                llm: { apiKey: config.env.OPENAI_API_KEY, baseURL: config.env.OPENAI_BASE_URL, timeoutMs: opts.timeout * 1000 },
                prices: loadPriceTable(config.env.QRELAY_LLM_PRICES),
                onProgress: (done, total) => stage?.update(done, total),
              });
              stage?.finish();
              process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${renderAdjudication(result)}\n`);
            },
            { quiet: true },
          );
        },
      ),
    );
}
