import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Judgment } from '../../src/domain/cases.js';
import { loadHumanLabels } from '../../src/export/load-labels.js';
import type { PlannedItem } from '../../src/hits/index.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { expireBatch } from '../../src/pipeline/expire.js';
import { importFile } from '../../src/pipeline/import.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { useMarketplace } from '../marketplace/support.js';
import { answerAgreedAndTied, sampleLines, tempDir, testContext, writeLines } from '../pipeline/support.js';
import { runCli } from '../support/cli.js';
import { agentJson, startOpenAiServer, type OpenAiServer } from '../support/openai-server.js';

/**
 * `qrelay adjudicate` on a batch worked by scripted workers (quick preset, 8 sample cases):
 * HIT 0 by three honest workers, HIT 1 by two who disagree on one item, then expired; so
 * one item is unresolved. The scripted adjudicator gives the true label except on one case.
 */

const h = useMarketplace();
const dir = tempDir('qrelay-adjudicate-');
const BATCH = 'adj';
const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

let server: OpenAiServer;
const cases = sampleLines('escalations.jsonl')
  .slice(0, 8)
  .map((l) => JSON.parse(l) as { query_id: string; chunk_id: string; query: string; chunk: string; hidden_label: Judgment });
const wrongOn = cases[0]!;
let tied: PlannedItem & { kind: 'real' };

beforeAll(async () => {
  server = await startOpenAiServer((req) => {
    const c = cases.find(
      (x) =>
        req.messages[1]!.content.includes(`<query> ${x.query} </query>`) && req.messages[1]!.content.includes(`<doc> ${x.chunk} </doc>`),
    );
    const label = c === undefined ? 'no' : c === wrongOn ? flip(c.hidden_label) : c.hidden_label;
    return {
      reply: { kind: 'json', object: agentJson(label, `the adjudicator says ${label}`, ['a sentence']), wrap: 'fence' },
      usage: { prompt_tokens: 1000, completion_tokens: 100 },
    };
  });
  const ctx = testContext(h.db);
  await importFile(ctx, writeLines(dir, 'cases.jsonl', sampleLines('escalations.jsonl').slice(0, 8)), { batch: BATCH });
  await importFile(ctx, writeLines(dir, 'gold.jsonl', sampleLines('gold.jsonl')), { batch: BATCH, kind: 'gold' });
  await publishBatch(ctx, BATCH, { preset: 'quick', target: h.running.url }, 'local');
  const hit1 = await ctx.models.hits.findById(`${BATCH}|1`).lean();
  tied = hit1!.items.filter((i): i is PlannedItem & { kind: 'real' } => i.kind === 'real')[0]!;
  await answerAgreedAndTied(h, ctx, BATCH, tied);
  await collectBatch(ctx, BATCH);
  await expireBatch(ctx, BATCH);
}, 180_000);
afterAll(() => server?.close());

const env = () => ({
  OPENAI_BASE_URL: server.url,
  OPENAI_API_KEY: 'sk-test',
  QRELAY_DATA_DIR: join(dir, 'data'),
  MARKETPLACE_URL: h.running.url,
});

describe('qrelay adjudicate', () => {
  it(
    "labels every escalated case with provenance beside the crowd's, reports κ, the confusion table, accuracies and the cost line; a second run asks nothing",
    { timeout: 300_000 },
    async () => {
      const out = join(dir, 'adjudications.jsonl');
      const r = await runCli(['adjudicate', BATCH, '--model', 'gpt-4o-mini', '--out', out, '--json'], env(), 180_000);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const result = JSON.parse(r.stdout) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads the JSON as printed
      expect(result).toMatchObject({
        batch: BATCH,
        model: 'gpt-4o-mini',
        cases: 8,
        asked: 8,
        failed: 0,
        filled: 0,
        requests: 8,
        promptTokens: 8000,
        completionTokens: 800,
      });
      // the crowd labelled 7 items (one tie), all right; the adjudicator is wrong on one case
      const crowdWrongOnTheSameCase = `${wrongOn.query_id}` === tied.queryId && wrongOn.chunk_id === tied.chunkId;
      expect(result.agreement.accuracy.crowd).toEqual({ correct: 7, total: 7, value: 1 });
      expect(result.agreement.accuracy.adjudicator).toEqual({ correct: 7, total: 8, value: 7 / 8 });
      expect(result.agreement.pairs).toBe(7);
      const c = result.agreement.confusion as Record<Judgment, Record<Judgment, number>>;
      expect(c.yes.no + c.no.yes).toBe(crowdWrongOnTheSameCase ? 0 : 1);
      // the cost: gpt-4o-mini at $0.15/$0.60 per million: 8000 × 0.15e-6 + 800 × 0.6e-6 = $0.00168
      expect(result.cost).toMatchObject({ debate: null, adjudicator: { usd: 0.00168, unpriced: [] } });
      expect(result.cost.crowdCents).toBeGreaterThan(0);

      const text = await runCli(['adjudicate', BATCH, '--model', 'gpt-4o-mini'], env(), 180_000);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/8 escalated cases, 0 asked now; yes \d, no \d, failed 0/);
      expect(text.stdout).toMatch(/crowd vs adjudicator: 7 items labelled by both, agreement \d+\.\d%, Cohen's κ (-?\d\.\d{3}|n\/a)/);
      expect(text.stdout).toMatch(/accuracy against the true labels: crowd 100\.0% \(7\/7\), adjudicator 87\.5% \(7\/8\)/);
      expect(text.stdout).toMatch(/cost: LLM debate n\/a, crowd \$\d+\.\d\d, adjudicator \$0\.0017/);
      expect(server.answered).toHaveLength(8);

      const lines = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
      expect(lines).toHaveLength(8);
      expect(lines[0]).toMatchObject({
        reasoning: expect.stringMatching(/^the adjudicator says/) as string,
        references: ['a sentence'],
        provenance: { source: 'llm-adjudicator', model: 'gpt-4o-mini', promptHash: result.promptHash },
      });
      expect(Date.parse(lines[0]!.provenance.at)).not.toBeNaN();

      // the batch report carries the same cost line
      const md = await runCli(['report', BATCH, '--format', 'md'], env(), 180_000);
      expect(md.code, md.stderr).toBe(0);
      expect(md.stdout).toMatch(/## LLM steps\n\nLLM debate n\/a, crowd \$\d+\.\d\d, adjudicator \$0\.0017\n$/);
      const json = await runCli(['report', BATCH, '--format', 'json'], env(), 180_000);
      expect(JSON.parse(json.stdout)).toMatchObject({
        batch: BATCH,
        llmCost: { debate: null, adjudicator: { usd: 0.00168 }, line: expect.stringMatching(/^LLM debate n\/a, crowd/) as string },
      });
    },
  );

  it(
    "--fill-unresolved gives only the unresolved item the adjudicator's label, with its provenance, in the human labels",
    { timeout: 300_000 },
    async () => {
      const ctx = testContext(h.db);
      const before = await loadHumanLabels(ctx, BATCH);
      expect(before.unresolved.map((u) => u.chunk_id)).toEqual([tied.chunkId]);
      const r = await runCli(['adjudicate', BATCH, '--model', 'gpt-4o-mini', '--fill-unresolved', '--json'], env(), 180_000);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ filled: 1, asked: 0 });
      const after = await loadHumanLabels(ctx, BATCH);
      expect(after.unresolved).toEqual([]);
      const filled = after.labels.filter((l) => l.source === 'llm-adjudicator');
      expect(filled).toEqual([expect.objectContaining({ query_id: tied.queryId, chunk_id: tied.chunkId, source: 'llm-adjudicator' })]);
      expect(after.labels.filter((l) => l.source === 'human-majority')).toEqual(before.labels);
    },
  );
});
