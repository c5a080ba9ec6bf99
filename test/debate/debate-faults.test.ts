import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useTestDatabase } from '../support/db.js';
import { useScriptedEndpoint } from './endpoint.js';
import { candidate, debateScript } from './scripted.js';

const db = useTestDatabase();
const endpoint = useScriptedEndpoint('qrelay-debate-faults-');
const { dir, env } = endpoint;

describe('qrelay debate: faults and options', () => {
  it(
    '401 stops at once with one line naming OPENAI_API_KEY; 404 names the model option; nothing is written',
    { timeout: 240_000 },
    async () => {
      const file = endpoint.writeCandidates('c.jsonl', ['agree-yes-1', 'disagree', 'agree-no-1']);
      endpoint.server.reset();
      endpoint.reply = () => ({ reply: { kind: 'status', status: 401, message: 'Incorrect API key provided' } });
      const unauthorized = await runCli(['debate', file, '--out', join(dir, 'o401'), '--model', 'm'], env(), 180_000);
      expect(unauthorized.code).toBe(1);
      expect(unauthorized.stderr).toBe(
        'qrelay: the endpoint refused the API key (401 Unauthorized): set OPENAI_API_KEY to a valid key for it\n',
      );
      expect(endpoint.server.received.length).toBeLessThanOrEqual(6);
      expect(() => readFileSync(join(dir, 'o401', 'escalations.jsonl'))).toThrow(/ENOENT/);

      // a request that never answers does not hold the stop back: it is cancelled
      endpoint.reply = (req) => (/disagree/.test(req.query) ? { reply: { kind: 'hang' } } : { reply: { kind: 'status', status: 401 } });
      const cancelled = await runCli(['debate', file, '--out', join(dir, 'o401b'), '--model', 'm'], env(), 180_000);
      expect(cancelled.stderr).toBe(
        'qrelay: the endpoint refused the API key (401 Unauthorized): set OPENAI_API_KEY to a valid key for it\n',
      );

      endpoint.reply = (req) =>
        req.model === 'no-such-model'
          ? { reply: { kind: 'status', status: 404, message: 'The model does not exist' } }
          : debateScript(req, 0);
      const unknown = await runCli(
        ['debate', file, '--out', join(dir, 'o404'), '--model-a', 'good', '--model-b', 'no-such-model'],
        env(),
        180_000,
      );
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe(
        'qrelay: the endpoint knows no model "no-such-model" (404 Not Found): fix --model-b (or OPENAI_BASE_URL if the address is wrong)\n',
      );
    },
  );

  it(
    'without OPENAI_API_KEY and OPENAI_BASE_URL: one line naming the variable; a bad candidate line: one line naming file and line',
    { timeout: 240_000 },
    async () => {
      const file = endpoint.writeCandidates('c2.jsonl', ['agree-yes-1']);
      const noKey = await runCli(
        ['debate', file, '--out', join(dir, 'nokey'), '--model', 'm'],
        { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
        180_000,
      );
      expect(noKey.stderr).toMatch(/^qrelay: OPENAI_API_KEY is not set: .*\n$/);
      const bad = join(dir, 'bad.jsonl');
      writeFileSync(bad, `${JSON.stringify(candidate(1, 'agree-yes-1'))}\n{"query_id": "q2", "query": "?", "chunk_id": "d2"}\n`);
      const r = await runCli(['debate', bad, '--out', join(dir, 'bad'), '--model', 'm'], env(), 180_000);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^qrelay: 1 bad candidate line, nothing was asked: .*bad\.jsonl line 2: chunk: required but missing.*\n$/);
      const noModel = await runCli(['debate', file, '--out', join(dir, 'nomodel')], env(), 180_000);
      expect(noModel.stderr).toMatch(/^qrelay: --model is required/);
    },
  );

  it(
    '--budget stops before spending more tokens than allowed, with a clear line; the next run with more budget goes on',
    { timeout: 240_000 },
    async () => {
      endpoint.reply = debateScript;
      endpoint.server.reset();
      const file = endpoint.writeCandidates('budget.jsonl', ['disagree', 'disagree', 'disagree', 'disagree']);
      const out = join(dir, 'budget');
      const r = await runCli(['debate', file, '--out', out, '--model', 'm', '--concurrency', '1', '--budget', '1000'], env(), 180_000);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^qrelay: --budget: \d+ tokens spent, the next request could exceed the budget of 1000 tokens; the run stopped .*\n$/,
      );
      const spent = endpoint.server.usageSent.prompt_tokens + endpoint.server.usageSent.completion_tokens;
      expect(spent).toBeLessThanOrEqual(1000);
      expect(endpoint.server.answered.length).toBeGreaterThan(0);
      const before = endpoint.server.answered.length;
      const again = await runCli(['debate', file, '--out', out, '--model', 'm', '--json'], env(), 180_000);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ escalated: 4, requests: 16, requestsReplayed: before });
    },
  );

  it(
    '--prefilter drops a candidate only when every --prefilter-model says false; --batch imports escalations and consensus',
    { timeout: 240_000 },
    async () => {
      endpoint.reply = (req, attempt) => {
        if (req.role === 'prefilter' && req.model === 'lenient' && /filter-out-one/.test(req.query))
          return { reply: { kind: 'json', object: { is_supported: true } } };
        return debateScript(req, attempt);
      };
      endpoint.server.reset();
      const file = join(dir, 'prefilter.jsonl');
      const rows = [
        { ...candidate(1, 'agree-yes-1'), query: '[agree-yes-1] filter-out-all' },
        { ...candidate(2, 'disagree'), query: '[disagree] filter-out-one' },
        candidate(3, 'agree-no-1'),
        candidate(4, 'disagree'),
      ];
      writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
      const out = join(dir, 'prefilter');
      const r = await runCli(
        [
          'debate',
          file,
          '--out',
          out,
          '--model',
          'm',
          '--prefilter-model',
          'strict',
          '--prefilter-model',
          'lenient',
          '--batch',
          'pf',
          '--json',
        ],
        env(),
        180_000,
      );
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(summary).toMatchObject({
        candidates: 4,
        filtered: 1,
        consensus: 1,
        escalated: 2,
        imported: { batch: 'pf', escalations: 2, consensus: 1 },
      });
      const filtered = readFileSync(join(out, 'filtered.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(filtered).toEqual([
        expect.objectContaining({
          query_id: 'q1',
          prefilter: [
            { model: 'strict', is_supported: false },
            { model: 'lenient', is_supported: false },
          ],
        }),
      ]);
      expect(endpoint.server.received.filter((q) => q.role === 'prefilter')).toHaveLength(8);
      expect(endpoint.server.received.some((q) => q.role !== 'prefilter' && q.query.includes('filter-out-all'))).toBe(false);
      const items = await db.db.collection('items').find({}).toArray();
      expect(items.map((i) => i._id).sort()).toEqual(['pf|q2:d2', 'pf|q4:d4']);
      const consensus = await db.db.collection('consensus').find({}).toArray();
      expect(consensus.map((i) => i._id)).toEqual(['pf|q3:d3']);
      const run = await db.db.collection('llm_runs').findOne({ _id: 'pf|debate' as never });
      expect(run).toMatchObject({
        step: 'debate',
        models: ['m', 'strict', 'lenient'],
        promptTokens: endpoint.server.usageSent.prompt_tokens,
      });
    },
  );
});
