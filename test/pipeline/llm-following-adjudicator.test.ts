import { describe, expect, it } from 'vitest';
import { llmModels } from '../../src/debate/store.js';
import { adjudicatorLabelsOf } from '../../src/pipeline/llm-flags.js';
import { useTestDatabase } from '../support/db.js';
import { testContext } from './support.js';

/** The LLM-following detection reads the adjudicator's stored labels of the round's batch, by item id. */
const t = useTestDatabase();

describe('adjudicatorLabelsOf', () => {
  it("reads the batch's adjudicator labels, leaving out unreadable answers and other batches", async () => {
    const ctx = testContext(t);
    const { adjudications } = llmModels(ctx.models.batches.db);
    const doc = (batch: string, chunk: string, label: 'yes' | 'no' | null) => ({
      _id: `${batch}|q1:${chunk}`,
      batch,
      queryId: 'q1',
      chunkId: chunk,
      label,
      provenance: { source: 'llm-adjudicator', model: 'm', promptHash: 'h', at: new Date(0) },
      tokens: { prompt: 0, completion: 0 },
    });
    await adjudications.insertMany([doc('b1', 'c1', 'yes'), doc('b1', 'c2', 'no'), doc('b1', 'c3', null), doc('b2', 'c1', 'no')]);
    const labels = await adjudicatorLabelsOf(ctx, [{ batch: 'b1' }]);
    expect([...labels].sort()).toEqual([
      ['b1|q1:c1', 'yes'],
      ['b1|q1:c2', 'no'],
    ]);
    expect(await adjudicatorLabelsOf(ctx, [])).toEqual(new Map());
  });
});
