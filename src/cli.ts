#!/usr/bin/env node
// first: schemas made by any later import take .openapi()
import './zod-openapi.js';
import { Command } from 'commander';
import { reportFailure, stopEarlyOnSignal } from './cli/run.js';
import { boundHeapGrowth } from './cli/heap.js';
import { version } from './version.js';

// qrelay targets Node 20 (package-lock pins an SDK that supports it); the SDK's multi-line
// notice that its releases after January 2027 need Node 22 would otherwise precede every
// command's output, and a failure must stay one line. Set it to "false" to see the notice.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const program = new Command('qrelay')
  .description('crowd adjudication of relevance cases on which LLM judges disagreed')
  .version(version)
  // a usage error is one line, as every failure (docs/interfaces.md): the hint on the same line
  .configureOutput({ outputError: (str, write) => write(usageLine(str)) });

function usageLine(str: string): string {
  const message = (str.startsWith('error:') ? str.slice(7) : str).trim().replace(/\s*\n\s*/g, ' ');
  return `qrelay: ${message} (run with --help for usage)\n`;
}

type Register = (program: Command) => void;

/**
 * The pipeline's commands (cli/pipeline.ts) loaded alone when one of them runs. Not `review`:
 * the console's actions add `review override` to it (cli/console-actions.ts).
 */
const PIPELINE_COMMANDS = new Set(['import', 'publish', 'status', 'expire', 'cleanup']);

/**
 * Every command's module, in the order `qrelay --help` lists them. One of PIPELINE_COMMANDS
 * loads only its own module: `qrelay import` then starts without the server, the marketplace,
 * the debate's client and the reports, which cost a large share of a short command's start.
 * Anything else (another command, help, a mistyped name) loads them all, as before.
 */
async function registers(command: string | undefined): Promise<Register[]> {
  if (command !== undefined && PIPELINE_COMMANDS.has(command)) return [(await import('./cli/pipeline.js')).registerPipeline];
  return Promise.all([
    import('./cli/serve.js').then((m) => m.registerServe),
    import('./cli/start.js').then((m) => m.registerStart),
    import('./cli/evaluate.js').then((m) => m.registerEvaluate),
    import('./cli/marketplace.js').then((m) => m.registerMarketplace),
    import('./cli/pipeline.js').then((m) => m.registerPipeline),
    import('./cli/export-qrels.js').then((m) => m.registerExportQrels),
    import('./cli/report.js').then((m) => m.registerReport),
    import('./cli/debate.js').then((m) => m.registerDebate),
    import('./cli/console-actions.js').then((m) => m.registerConsoleActions),
    import('./cli/simulate.js').then((m) => m.registerSimulate),
    import('./cli/reputation.js').then((m) => m.registerReputation),
  ]);
}

/** The long-running commands, as the line printed on Ctrl-C names their next start. */
const LONG_RUNNING = new Map([
  ['start', '`npm start`'],
  ['demo', '`qrelay demo`'],
  ['serve', '`qrelay serve`'],
]);
const longRunning = LONG_RUNNING.get(process.argv[2] ?? '');
// Ctrl-C while such a command loads its modules says so too (cli/lifecycle.ts takes over once it runs)
if (longRunning) stopEarlyOnSignal(longRunning);

// a command that holds a whole batch lets its heap grow by half at most between collections (cli/heap.ts)
boundHeapGrowth(process.argv[2]);

// the command is the first argument (the program has no options of its own but --version and --help)
registers(process.argv[2])
  .then((all) => {
    for (const register of all) register(program);
    return program.parseAsync(process.argv);
  })
  .catch(reportFailure);
