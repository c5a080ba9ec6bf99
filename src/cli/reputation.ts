import type { Command } from 'commander';
import { parseTargetName } from '../pipeline/context.js';
import { NEUTRAL_REPUTATION, syncTargetReputation, targetReputation, type ReputationDoc } from '../pipeline/reputation.js';
import { checkReachable, withPipeline } from './pipeline.js';
import { action } from './run.js';

/**
 * `qrelay reputation sync|show`: the workers' cross-batch reputation on a target
 * (src/pipeline/reputation.ts). `sync` recomputes every batch's records and sets every
 * changed value on the platform; `show` lists what qrelay's database holds, without calling
 * the platform.
 */

const say = (line: string): void => void process.stdout.write(`${line}\n`);

/** The JSON shape of one worker (both commands). */
const view = (d: ReputationDoc) => ({
  workerId: d.workerId,
  score: d.score,
  pushed: d.pushed,
  batches: d.batches.map((b) => b.batch),
  reason: d.reason,
});

const line = (d: ReputationDoc) =>
  `${d.workerId.padEnd(16)}  ${String(d.score).padStart(3)}  ${d.pushed === d.score ? 'set    ' : 'not set'}  ${d.batches.length} batch${d.batches.length === 1 ? '' : 'es'}  ${d.reason}`;

const targetOption = ['--target <target>', 'local, sandbox, production or a URL (default: MTURK_TARGET)'] as const;

export function registerReputation(program: Command): void {
  const reputation = program
    .command('reputation')
    .description(
      `workers' reputation across batches (0-100, the qrelay-reputation qualification; new workers start at ${NEUTRAL_REPUTATION})`,
    );

  reputation
    .command('sync')
    .description("recompute every batch's records on the target and set each changed score on the platform (repeat-safe)")
    .option(...targetOption)
    .option('--json', 'print one JSON object: {target, batches, changed, pushed, workers: [...]}')
    .action(
      action(async (opts: { target?: string; json?: boolean }) => {
        await withPipeline(
          async (ctx, config) => {
            const target = parseTargetName(opts.target ?? config.env.MTURK_TARGET);
            await checkReachable(config, target);
            const r = await syncTargetReputation(ctx, target);
            if (opts.json) return say(JSON.stringify({ ...r, workers: r.workers.map(view) }));
            say(
              `reputation on ${target}: ${r.batches.length} batches, ${r.workers.length} workers, ${r.changed} records changed, ${r.pushed} scores set`,
            );
            for (const d of r.workers) say(line(d));
          },
          { quiet: opts.json === true },
        );
      }),
    );

  reputation
    .command('show')
    .description("the workers' reputation on the target as qrelay's database holds it (no platform call)")
    .argument('[workers...]', 'only these worker ids')
    .option(...targetOption)
    .option('--json', 'print one JSON object: {target, workers: [...]}')
    .action(
      action(async (only: string[], opts: { target?: string; json?: boolean }) => {
        await withPipeline(
          async (ctx, config) => {
            const target = parseTargetName(opts.target ?? config.env.MTURK_TARGET);
            const wanted = new Set(only);
            const docs = (await targetReputation(ctx, target)).filter((d) => wanted.size === 0 || wanted.has(d.workerId));
            const unseen = only.filter((w) => !docs.some((d) => d.workerId === w));
            if (opts.json) return say(JSON.stringify({ target, workers: docs.map(view), unseen, neutral: NEUTRAL_REPUTATION }));
            if (docs.length === 0 && only.length === 0) say(`reputation on ${target}: no worker has a record yet`);
            for (const d of docs) say(line(d));
            for (const w of unseen)
              say(`${w.padEnd(16)}  ${String(NEUTRAL_REPUTATION).padStart(3)}  no record on ${target}: the neutral score`);
          },
          { quiet: true },
        );
      }),
    );
}
