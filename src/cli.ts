#!/usr/bin/env node
// first: schemas made by any later import take .openapi()
import './zod-openapi.js';
import { Command } from 'commander';
import { reportFailure } from './cli/run.js';
import { registerServe } from './cli/serve.js';
import { registerEvaluate } from './cli/evaluate.js';
import { registerMarketplace } from './cli/marketplace.js';
import { registerPipeline } from './cli/pipeline.js';
import { registerExportQrels } from './cli/export-qrels.js';
import { registerReport } from './cli/report.js';
import { registerStart } from './cli/start.js';
import { registerDebate } from './cli/debate.js';
import { registerConsoleActions } from './cli/console-actions.js';
import { registerSimulate } from './cli/simulate.js';
import { registerReputation } from './cli/reputation.js';
import { version } from './version.js';

// qrelay targets Node 20 (package-lock pins an SDK that supports it); the SDK's multi-line
// notice that its releases after January 2027 need Node 22 would otherwise precede every
// command's output, and a failure must stay one line. Set it to "false" to see the notice.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const program = new Command('qrelay')
  .description('crowd adjudication of relevance cases on which LLM judges disagreed')
  .version(version)
  .showHelpAfterError('(run with --help for usage)')
  .configureOutput({ outputError: (str, write) => write(str.startsWith('error:') ? `qrelay: ${str.slice(7)}` : str) });

registerServe(program);
registerStart(program);
registerEvaluate(program);
registerMarketplace(program);
registerPipeline(program);
registerExportQrels(program);
registerReport(program);
registerDebate(program);
registerConsoleActions(program);
registerSimulate(program);
registerReputation(program);

program.parseAsync(process.argv).catch(reportFailure);
