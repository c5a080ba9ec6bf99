/**
 * A published batch of any size in the database, for the benchmarks: the bundled sample's
 * escalated cases cloned under new query ids (`q01` -> `q01r7`) up to `cases`, imported and
 * planned by the real pipeline (import, preparePublish with the dream preset), then every
 * planned HIT marked created and given `voteTarget` reviewed assignments from a seeded
 * population (diligent workers answer the hidden label 85% of the time and pass checks;
 * one worker in ten is a spammer who fails some), and the labels aggregated. Only the
 * crowd's work on the marketplace is skipped: the documents are those the pipeline writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyBulkWriteOperation } from 'mongodb';
import type { AssignmentDoc, HitDoc } from '../../src/db/models/index.js';
import type { Judgment } from '../../src/domain/cases.js';
import { caseKey } from '../../src/ingest/index.js';
import { aggregateBatch } from '../../src/pipeline/aggregate.js';
import { loadBatchData } from '../../src/batches/index.js';
import { bulkWriteSliced } from '../../src/pipeline/bulk.js';
import type { PipelineContext } from '../../src/pipeline/context.js';
import { importFile } from '../../src/pipeline/import.js';
import { checkItemId, itemId } from '../../src/pipeline/names.js';
import { preparePublish } from '../../src/pipeline/publish.js';
import { requireBatch } from '../../src/batches/index.js';
import { paths } from '../../src/paths.js';
import { Rng } from '../../tools/samples/rng.js';

interface SampleCase {
  query_id: string;
  chunk_id: string;
  hidden_label?: Judgment;
}

/** `cases` escalations as JSONL lines: the sample's, then clones under new query ids. */
export function syntheticCaseLines(cases: number): string[] {
  const sample = readFileSync(join(paths.samples, 'escalations.jsonl'), 'utf8').trim().split('\n');
  return Array.from({ length: cases }, (_, i) => {
    const round = Math.floor(i / sample.length);
    const line = sample[i % sample.length]!;
    if (round === 0) return line;
    const rec = JSON.parse(line) as SampleCase & Record<string, unknown>;
    return JSON.stringify({ ...rec, query_id: `${rec.query_id}r${round}` });
  });
}

export interface SyntheticBatch {
  batch: string;
  cases: number;
  hits: number;
  assignments: number;
}

export async function buildSyntheticBatch(ctx: PipelineContext, dir: string, batch: string, cases: number): Promise<SyntheticBatch> {
  const lines = syntheticCaseLines(cases);
  const casesFile = join(dir, `${batch}-escalations.jsonl`);
  writeFileSync(casesFile, `${lines.join('\n')}\n`);
  const truth = new Map(
    lines.map((l) => {
      const c = JSON.parse(l) as SampleCase;
      return [itemId(batch, caseKey(c.query_id, c.chunk_id)), c.hidden_label ?? 'yes'] as const;
    }),
  );
  await importFile(ctx, casesFile, { batch });
  await importFile(ctx, join(paths.samples, 'gold.jsonl'), { batch, kind: 'gold' });
  const doc = await preparePublish(ctx, batch, { target: 'local', preset: 'dream' }, 'local');
  const voteTarget = doc.settings!.voteTarget;

  const hits = await ctx.models.hits.find({ batch }).lean<HitDoc[]>();
  const publishedAt = new Date(Date.UTC(2026, 4, 4, 9));
  await bulkWriteSliced(
    ctx.models.hits,
    hits.map((h) => ({
      updateOne: {
        filter: { _id: h._id },
        update: { $set: { state: 'done', hitId: `BENCHHIT${String(h.index).padStart(6, '0')}`, publishedAt } },
      },
    })) as AnyBulkWriteOperation<HitDoc>[],
  );

  const rng = new Rng(2026);
  const next = () => rng.next();
  const workers = Array.from({ length: 60 }, (_, i) => ({ id: `BENCHW${String(i).padStart(3, '0')}`, spammer: i % 10 === 9 }));
  const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');
  const assignments: AssignmentDoc[] = [];
  for (const h of hits) {
    const taken = new Set<number>();
    for (let k = 0; k < voteTarget; k++) {
      let w = Math.floor(next() * workers.length);
      while (taken.has(w)) w = (w + 1) % workers.length;
      taken.add(w);
      const worker = workers[w]!;
      const accepted = new Date(publishedAt.getTime() + Math.floor(next() * 4 * 3600_000));
      const submitted = new Date(accepted.getTime() + 60_000 + Math.floor(next() * 600_000));
      const answers = h.items.map((item) => {
        const key = caseKey(item.queryId, item.chunkId);
        const right = item.kind === 'check' ? item.expected : (truth.get(itemId(batch, key)) ?? 'yes');
        const answer: Judgment = worker.spammer
          ? next() < 0.5
            ? 'yes'
            : 'no'
          : next() < (item.kind === 'check' ? 1 : 0.85)
            ? right
            : flip(right);
        return {
          position: item.position,
          key: item.key,
          kind: item.kind,
          item: item.kind === 'check' ? checkItemId(key) : itemId(batch, key),
          answer,
          difficult: false,
          comment: '',
          ms: 20_000 + Math.floor(next() * 40_000),
        };
      });
      const passed = h.items.every((item, i) => item.kind !== 'check' || answers[i]!.answer === item.expected);
      assignments.push({
        _id: `BENCHA${String(h.index).padStart(6, '0')}${k}`,
        batch,
        hit: h._id,
        hitId: `BENCHHIT${String(h.index).padStart(6, '0')}`,
        workerId: worker.id,
        platformStatus: 'Approved',
        acceptedAt: accepted,
        submittedAt: submitted,
        storedAt: submitted,
        answers,
        parseError: null,
        review: {
          action: passed ? 'approve' : 'approve-and-discard',
          countsVotes: passed,
          reason: passed ? 'passed every check' : 'failed a check',
          feedback: null,
          decidedAt: submitted,
        },
        reviewState: 'done',
        outcome: 'approved',
        reviewedAt: submitted,
      });
    }
  }
  await bulkWriteSliced(
    ctx.models.assignments,
    assignments.map((a) => ({ insertOne: { document: a } })) as AnyBulkWriteOperation<AssignmentDoc>[],
  );
  await aggregateBatch(ctx, await requireBatch(ctx, batch), await loadBatchData(ctx, batch));
  await ctx.models.batches.updateOne(
    { _id: batch },
    { $set: { state: 'complete', publishedAt, completedAt: new Date(publishedAt.getTime() + 6 * 3600_000), updatedAt: ctx.now() } },
  );
  return { batch, cases, hits: hits.length, assignments: assignments.length };
}
