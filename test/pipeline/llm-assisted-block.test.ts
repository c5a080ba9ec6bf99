import { describe, expect, it } from 'vitest';
import { useMarketplace } from '../marketplace/support.js';
import { runLlmPolicyBatch } from './llm-assisted-policy.js';
import { tempDir } from './support.js';

/**
 * A preset with `llmAssisted: block` (and `workerStop: reject`): a worker flagged
 * `llm-assisted` is soft-blocked like a worker not doing the task, with the cause and the
 * flag's evidence recorded, and their work not yet reviewed is rejected (the preset's stop
 * policy) and collected again from others.
 */
const h = useMarketplace({ clockSpeed: 8000 });
const dir = tempDir();

describe('llmAssisted: block', () => {
  it('stops flagged workers with the cause llm-assisted and rejects their unreviewed work', { timeout: 900_000 }, async () => {
    const { complete, data, flagged, decisions, kindOf } = await runLlmPolicyBatch(h, dir, 'lb', {
      llmAssisted: 'block',
      workerStop: 'reject',
    });
    expect(complete).toBe(true);
    const stopped = new Map(decisions.map((d) => [d.workerId, d]));
    const byLlm = decisions.filter((d) => d.cause === 'llm-assisted');
    const summary = decisions.map((d) => `${d.workerId} ${kindOf.get(d.workerId)} ${d.cause}: ${d.reason}`).join('\n');
    expect(byLlm.length, summary).toBeGreaterThan(0);
    // the flag stops exactly the flagged workers (the flag's own precision is the detector's: src/quality/llm-assisted.ts)
    for (const d of byLlm) {
      expect(d, summary).toMatchObject({ state: 'sent', action: 'soft-block', reason: expect.stringMatching(/^llm-assisted: \S/) });
      expect(flagged.has(d.workerId), summary).toBe(true);
    }
    expect(byLlm.filter((d) => kindOf.get(d.workerId) === 'llm').length, summary).toBeGreaterThan(0);
    // every worker the flag names at the end is stopped (for being flagged, or earlier for not doing the task)
    for (const w of flagged) expect(stopped.has(w), `${w} ${kindOf.get(w)}\n${summary}`).toBe(true);
    // no careful worker is stopped for not doing the task
    for (const d of decisions) if (d.cause !== 'llm-assisted') expect(kindOf.get(d.workerId), summary).not.toBe('diligent');
    // their work not reviewed when they were stopped: rejected (workerStop: reject), with the reason, never counted
    const stoppedWork = data.assignments.filter((a) => a.review?.reason.startsWith('the worker was stopped for the batch: llm-assisted: '));
    expect(stoppedWork.length, summary).toBeGreaterThan(0);
    for (const a of stoppedWork) {
      expect(stopped.get(a.workerId)?.cause).toBe('llm-assisted');
      expect(a).toMatchObject({ review: { action: 'reject', countsVotes: false } });
      expect(a.review?.feedback).toMatch(/AI assistant/);
    }
  });
});
