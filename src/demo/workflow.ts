import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from 'mongoose';
import type { Config } from '../config.js';
import { collections } from '../db/collections.js';
import { writeTextAtomically } from '../qrels/index.js';
import type { DemoEnv } from './env.js';
import { demoRunModel, nextDemoBatch, unfinishedRun, type DemoRunDoc } from './runs.js';
import { SAMPLE_CASES } from './sample.js';
import { importStage } from './stages/intake.js';
import { handOverStage } from './stages/hand-over.js';
import { simulatedCrowdStage } from './stages/simulated-crowd.js';
import { aggregateStage, evaluateStage, exportStage, reportStage, type WrittenFile } from './stages/outputs.js';
import { demoSummary, renderDemoSummary, type DemoSummary } from './summary.js';

/**
 * The demo: the bundled sample batch through the whole workflow on the local marketplace
 * with simulated workers — import, publish (preset `dream`), work, review, aggregate,
 * export qrels (TREC, BEIR, JSONL), evaluate the sample runs (base vs adjudicated qrels),
 * report (json, md, html, csv), hand the simulated marketplace's records to the bundled
 * marketplace — then a summary. Every stage is resumable: a run stopped
 * anywhere (Ctrl-C, a crash) continues where it was the next time, on the same batch.
 */

export interface DemoSettings {
  /** The configuration the private simulated marketplace is started with. */
  config: Config;
  /** The bundled marketplace the simulated marketplace's records are handed to at the end (stages/hand-over.ts). */
  marketplaceUrl: string;
}

/** The unfinished run to continue, else a new one (`sample`, or `sample-2`, ... when that name is taken). */
export async function chooseDemoRun(
  connection: Connection,
  opts: { dataDir: string; cases?: number; now?: Date },
): Promise<{ run: DemoRunDoc; resumed: boolean }> {
  const unfinished = await unfinishedRun(connection);
  if (unfinished) return { run: unfinished, resumed: true };
  const runs = demoRunModel(connection);
  const [batches, previous] = await Promise.all([
    connection
      .collection(collections.batches)
      .find({}, { projection: { _id: 1 } })
      .toArray(),
    runs.find({}, { _id: 1 }).lean(),
  ]);
  const batch = nextDemoBatch(new Set([...batches.map((b) => String(b._id)), ...previous.map((r) => r._id)]));
  const run: DemoRunDoc = {
    _id: batch,
    cases: opts.cases ?? SAMPLE_CASES,
    state: 'running',
    startedAt: opts.now ?? new Date(),
    finishedAt: null,
    outDir: join(opts.dataDir, 'out', batch),
  };
  await runs.create(run);
  return { run, resumed: false };
}

export interface DemoResult {
  summary: DemoSummary;
  text: string;
}

export async function runDemo(
  env: DemoEnv,
  run: DemoRunDoc,
  settings: DemoSettings,
  opts: { resumed?: boolean } = {},
): Promise<DemoResult> {
  const started = performance.now();
  const batch = run._id;
  mkdirSync(run.outDir, { recursive: true });
  await importStage(env, batch, run.cases);
  const crowd = await simulatedCrowdStage(env, settings.config, batch);
  await aggregateStage(env, batch);
  const exported = await exportStage(env, batch, run.outDir);
  const evaluated = await evaluateStage(env, exported.files[0]!.path, run.outDir);
  const reported = await reportStage(env, batch, run.outDir);
  // last, so that the demo's figures never depend on it and its times are closest to now
  await handOverStage(env, run, settings.config, settings.marketplaceUrl);

  const summaryJson = join(run.outDir, 'summary.json');
  const files: WrittenFile[] = [
    ...exported.files,
    ...evaluated.files,
    ...reported.files,
    { what: 'this summary (JSON)', path: summaryJson },
  ];
  const summary = demoSummary({
    batch,
    cases: run.cases,
    resumed: opts.resumed === true,
    report: reported.report,
    exported: exported.result,
    evaluation: evaluated.report,
    wall: { workSeconds: crowd.wallSeconds, totalSeconds: (performance.now() - started) / 1000 },
    files,
  });
  await writeTextAtomically(summaryJson, `${JSON.stringify(summary, null, 2)}\n`);
  await demoRunModel(env.ctx.models.batches.db).updateOne({ _id: batch }, { $set: { state: 'done', finishedAt: new Date() } });
  return { summary, text: renderDemoSummary(summary) };
}
