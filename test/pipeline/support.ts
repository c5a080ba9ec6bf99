import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { RetryPolicy } from '../../src/crowd/mturk/retry.js';
import { createLogger } from '../../src/log.js';
import { createPipelineContext, type PipelineContext } from '../../src/pipeline/context.js';
import { paths } from '../../src/paths.js';
import type { Judgment } from '../../src/domain/cases.js';
import type { PlannedItem } from '../../src/hits/index.js';
import type { SimulatedMarketplace } from '../../src/simulation/index.js';
import type { TestDatabase } from '../support/db.js';
import { newWorker, type MarketplaceHarness } from '../marketplace/support.js';

/** Fast retries for tests (the real policy waits up to 20 s between attempts). */
export const TEST_RETRY: RetryPolicy = { maxAttempts: 12, baseDelayMs: 5, maxDelayMs: 100 };

export function testContext(t: TestDatabase, env: NodeJS.ProcessEnv = {}, lines: string[] = [], retries: string[] = []): PipelineContext {
  return createPipelineContext({
    connection: t.connection,
    config: loadConfig({ ...process.env, ...env }),
    logger: createLogger('silent'),
    retry: TEST_RETRY,
    progress: (line) => lines.push(line),
    onRetry: ({ operation, kind }) => retries.push(`${operation}:${kind}`),
  });
}

/** A temporary directory for this test file, removed at the end. */
export function tempDir(prefix = 'qrelay-pipeline-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function sampleLines(file: string): string[] {
  return readFileSync(join(paths.samples, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

export function writeLines(dir: string, name: string, lines: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => `${l}\n`).join(''));
  return path;
}

/** A batch of the first `cases` sample escalations and the whole sample gold pool. */
export async function importSampleBatch(ctx: PipelineContext, dir: string, batch: string, cases: number, offset = 0): Promise<void> {
  const { importFile } = await import('../../src/pipeline/import.js');
  await importFile(ctx, writeLines(dir, `${batch}-e.jsonl`, sampleLines('escalations.jsonl').slice(offset, offset + cases)), { batch });
  await importFile(ctx, writeLines(dir, `${batch}-g.jsonl`, sampleLines('gold.jsonl')), { batch, kind: 'gold' });
}

/** A scripted answer: what the test makes a worker answer for one planned item. */
export type Answerer = (item: PlannedItem, truth: Judgment | undefined) => Judgment;

export const honest: Answerer = (item, truth) => (item.kind === 'check' ? item.expected : (truth ?? 'yes'));
export const alwaysYes: Answerer = () => 'yes';

/** Accepts and submits one assignment of our HIT `hitDoc` as `workerId`, through the marketplace's worker functions. */
export async function work(
  running: SimulatedMarketplace,
  ctx: PipelineContext,
  hitDoc: string,
  workerId: string,
  answer: Answerer,
): Promise<string> {
  const hit = await ctx.models.hits.findById(hitDoc).lean();
  if (!hit?.hitId) throw new Error(`HIT ${hitDoc} is not published`);
  const truth = new Map((await ctx.models.items.find({ batch: hit.batch }).lean()).map((r) => [r.key, r.label ?? undefined]));
  const view = await running.workers.acceptHit(workerId, hit.hitId);
  const fields: Record<string, string> = { assignmentId: view.assignmentId };
  for (const item of hit.items) {
    fields[`item${item.position}_answer`] = answer(item, truth.get(item.key));
    fields[`item${item.position}_ms`] = '15000';
  }
  await running.workers.submitAssignment(workerId, view.assignmentId, fields);
  return view.assignmentId;
}

/**
 * A small batch's answers with one item agreed and one tied: three workers answer HIT 0 as
 * the truth says, two answer HIT 1 and the second flips `tied`. Checks are answered right.
 */
export async function answerAgreedAndTied(h: MarketplaceHarness, ctx: PipelineContext, batch: string, tied: Pick<PlannedItem, 'position'>) {
  const right: Answerer = (item, t) => (item.kind === 'check' ? item.expected : t!);
  for (let w = 0; w < 3; w++) await work(h.running, ctx, `${batch}|0`, (await newWorker(h)).workerId, right);
  await work(h.running, ctx, `${batch}|1`, (await newWorker(h)).workerId, right);
  await work(h.running, ctx, `${batch}|1`, (await newWorker(h)).workerId, (item, t) =>
    item.kind === 'check' ? item.expected : item.position === tied.position ? (t === 'yes' ? 'no' : 'yes') : t!,
  );
}
