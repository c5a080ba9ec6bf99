import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_REASON_CHARS } from '../../src/debate/answer.js';
import { runCli } from '../support/cli.js';
import { spawnCli } from '../demo/support.js';
import { agentJson } from '../support/openai-server.js';
import { readJsonl, useScriptedEndpoint } from './endpoint.js';
import { debateScript } from './scripted.js';

/**
 * `qrelay debate` against an endpoint that misbehaves the way real ones do: a 200 whose
 * body is cut short, answers of tens of megabytes, a server that never answers, one that
 * always fails. Each costs at most its own candidate, the run says what it waits for, the
 * exit code says whether every candidate finished, and the counts are the requests sent.
 */

const endpoint = useScriptedEndpoint('qrelay-debate-endpoint-');
const { dir, env } = endpoint;

/** A chat-completions body cut in the middle of its content string. */
const TRUNCATED = '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\\"resp';

describe('qrelay debate against a faulty endpoint', () => {
  it(
    'a 200 with a body cut short is asked again; always cut short, it fails that candidate only (exit 3)',
    { timeout: 240_000 },
    async () => {
      const file = endpoint.writeCandidates('truncated.jsonl', ['agree-yes-1', 'agree-no-1', 'disagree']);
      endpoint.server.reset();
      endpoint.reply = (req, attempt) => {
        if (/question number 1\?/.test(req.query) && attempt === 0) return { reply: { kind: 'raw', body: TRUNCATED } };
        if (/question number 2\?/.test(req.query)) return { reply: { kind: 'raw', body: TRUNCATED } };
        return debateScript(req, attempt);
      };
      const out = join(dir, 'truncated');
      const r = await runCli(['debate', file, '--out', out, '--model', 'm', '--json'], env(), 180_000);
      expect(r.stderr).not.toMatch(/unexpected error/);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/^qrelay: 1 of 3 candidates failed because the endpoint gave no answer \(reasons in .*failed\.jsonl\)/m);
      const summary = JSON.parse(r.stdout) as Record<string, number>;
      expect(summary).toMatchObject({ candidates: 3, consensus: 1, escalated: 1, failed: 1 });
      // every HTTP request the server saw is counted, and the failed requests are requests too
      expect(summary.httpRequests).toBe(endpoint.server.received.length);
      expect(summary.requestsFailed).toBe(2);
      expect(summary.requests).toBe(summary.requestsSent! + summary.requestsFailed!);
      const failed = readJsonl(join(out, 'failed.jsonl'));
      expect(failed).toEqual([expect.objectContaining({ query_id: 'q2' })]);
      expect(String(failed[0]!.reason)).toMatch(/not readable JSON 3 times: /);
    },
  );

  it('an answer of 40 MB fails its request at once, unread; a long reason is kept cut to its cap', { timeout: 240_000 }, async () => {
    const file = endpoint.writeCandidates('large.jsonl', ['agree-yes-1', 'disagree']);
    endpoint.server.reset();
    const longReason = 'because '.repeat(60_000);
    endpoint.reply = (req, attempt) => {
      if (/question number 1\?/.test(req.query)) return { reply: { kind: 'flood', bytes: 40 * 1024 * 1024 } };
      if (req.role === 'A') return { reply: { kind: 'json', object: agentJson('yes', longReason) } };
      return debateScript(req, attempt);
    };
    const out = join(dir, 'large');
    const r = await runCli(['debate', file, '--out', out, '--model', 'm', '--json'], env(), 180_000);
    expect(r.code, r.stderr).toBe(3);
    const failed = readJsonl(join(out, 'failed.jsonl'));
    expect(failed.map((f) => f.query_id)).toEqual(['q1']);
    expect(String(failed[0]!.reason)).toMatch(/over the 1048576-byte limit; the answer was not kept/);
    // no retry of a flood: one request per agent of the round
    expect(endpoint.server.received.filter((q) => /question number 1\?/.test(q.query))).toHaveLength(2);
    const [escalation] = readJsonl(join(out, 'escalations.jsonl'));
    const turns = escalation!.debate as { agent: string; reasoning: string }[];
    const a = turns.find((t) => t.agent === 'A')!;
    expect(a.reasoning.length).toBe(MAX_REASON_CHARS);
    expect(a.reasoning).toMatch(/\[… cut: 480000 characters in all\]$/);
    expect(readFileSync(join(out, 'escalations.jsonl')).length).toBeLessThan(64 * 1024);
  });

  it(
    'an endpoint that never answers: --timeout ends each attempt, a line says what waits, the run ends (exit 3)',
    { timeout: 240_000 },
    async () => {
      const file = endpoint.writeCandidates('hung.jsonl', ['agree-yes-1']);
      endpoint.server.reset();
      endpoint.reply = () => ({ reply: { kind: 'hang' } });
      const out = join(dir, 'hung');
      const r = await runCli(['debate', file, '--out', out, '--model', 'm', '--timeout', '2', '--json'], env(), 180_000);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/^debate: 0 of 1 candidates done; 2 requests waiting on the endpoint \(the longest \d+ s\)/m);
      const [failed] = readJsonl(join(out, 'failed.jsonl'));
      expect(String(failed!.reason)).toMatch(/no answer within 2 s \(--timeout\), 3 attempts/);
      // both agents of round 1, three attempts each
      expect(endpoint.server.received).toHaveLength(6);
      expect(JSON.parse(r.stdout)).toMatchObject({ failed: 1, requests: 2, requestsFailed: 2, httpRequests: 6, httpRetries: 4 });
    },
  );

  it('an endpoint that always answers 500: exit 3, and the summary counts every request sent', { timeout: 240_000 }, async () => {
    const file = endpoint.writeCandidates('always500.jsonl', ['agree-yes-1', 'disagree', 'agree-no-1', 'agree-yes-2']);
    endpoint.server.reset();
    endpoint.reply = () => ({ reply: { kind: 'status', status: 500, retryAfter: '0' } });
    const out = join(dir, 'always500');
    const r = await runCli(['debate', file, '--out', out, '--model', 'm'], env(), 180_000);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toBe(
      `qrelay: 4 of 4 candidates failed because the endpoint gave no answer (reasons in ${join(out, 'failed.jsonl')}); the same command asks their requests again\n`,
    );
    // 4 candidates x 2 agents, 7 attempts each
    expect(endpoint.server.received).toHaveLength(56);
    expect(r.stdout).toMatch(
      /^requests 8 \(0 answered by the endpoint, 0 from the journal, 8 failed; 56 HTTP requests sent\), re-asks 0, transport retries 48;/m,
    );
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, number>;
    expect(summary).toMatchObject({ failed: 4, requests: 8, requestsFailed: 8, httpRequests: 56, httpRetries: 48 });
  });

  it('Ctrl-C while requests wait: one line saying what is kept, exit 130, no output half-written', { timeout: 240_000 }, async () => {
    const file = endpoint.writeCandidates('interrupt.jsonl', ['agree-yes-1', 'disagree']);
    endpoint.server.reset();
    endpoint.reply = (req, attempt) => (/question number 2\?/.test(req.query) ? { reply: { kind: 'hang' } } : debateScript(req, attempt));
    const out = join(dir, 'interrupt');
    const cli = spawnCli(['debate', file, '--out', out, '--model', 'm'], env());
    // both hanging requests of candidate 2 have arrived (and candidate 1 is done)
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`the requests never arrived; stderr: ${cli.stderr()}`)), 120_000);
      const poll = setInterval(() => {
        if (
          endpoint.server.received.filter((q) => /question number 2\?/.test(q.query)).length === 2 &&
          endpoint.server.answered.length >= 2
        ) {
          clearInterval(poll);
          clearTimeout(deadline);
          resolve();
        }
      }, 50);
    });
    cli.child.kill('SIGINT');
    expect((await cli.exited).code).toBe(130);
    expect(cli.stderr()).toBe(
      `qrelay: debate stopped by SIGINT; the answers so far are kept in ${join(out, 'journal.jsonl')}: run the same command again to continue\n`,
    );
    expect(readJsonl(join(out, 'journal.jsonl')).length).toBeGreaterThanOrEqual(2);
    expect(() => readFileSync(join(out, 'escalations.jsonl'))).toThrow(/ENOENT/);
  });
});
