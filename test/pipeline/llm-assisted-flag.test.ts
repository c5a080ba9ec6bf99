import { describe, expect, it } from 'vitest';
import { useMarketplace } from '../marketplace/support.js';
import { runLlmPolicyBatch } from './llm-assisted-policy.js';
import { tempDir } from './support.js';

/**
 * A preset with `llmAssisted: flag` (the default): LLM-assisted workers are flagged with the
 * evidence, and the flag alone stops nobody (a flagged worker may still be stopped for not
 * doing the task, by the evidence of their answers, with that cause: an LLM-assisted worker
 * who follows one agent against the others' majority on 40% of the items usually is).
 */
const h = useMarketplace({ clockSpeed: 8000 });
const dir = tempDir();

describe('llmAssisted: flag', () => {
  it('flags LLM-assisted workers and stops nobody for the flag', { timeout: 900_000 }, async () => {
    const { complete, flagged, decisions, kindOf } = await runLlmPolicyBatch(h, dir, 'lf', { llmAssisted: 'flag' });
    expect(complete).toBe(true);
    const summary = decisions.map((d) => `${d.workerId} ${kindOf.get(d.workerId)} ${d.cause}: ${d.reason}`).join('\n');
    expect(flagged.size).toBeGreaterThan(0);
    for (const w of flagged) expect(kindOf.get(w)).toBe('llm');
    for (const d of decisions) {
      expect(d.cause, summary).toBe('not-working');
      expect(d.reason, summary).toMatch(/^stopped: P\(not doing the task\)/);
    }
    // what stopped a flagged worker, if anything, was the evidence of their answers (agreeing with the
    // others' majority about as often as a coin), never the flag: no decision names it
    expect(
      decisions.filter((d) => d.cause === 'llm-assisted' || d.reason.startsWith('llm-assisted')),
      summary,
    ).toEqual([]);
  });
});
