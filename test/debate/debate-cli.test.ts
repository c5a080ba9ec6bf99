import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../demo/support.js';
import { runCli } from '../support/cli.js';
import { readJsonl, useScriptedEndpoint } from './endpoint.js';
import { BEHAVIOURS, candidate, type Behaviour } from './scripted.js';

const endpoint = useScriptedEndpoint('qrelay-debate-test-');
const { dir, env } = endpoint;

const ALL = Object.keys(BEHAVIOURS) as Behaviour[];

/** A resumed run ends as the uninterrupted one did: the same files, the same summary counts. */
function expectSameRun(whole: { out: string; stdout: string }, resumed: { out: string; stdout: string }, files: readonly string[]): void {
  for (const name of files) {
    expect(readFileSync(join(resumed.out, name), 'utf8'), name).toBe(readFileSync(join(whole.out, name), 'utf8'));
  }
  const a = JSON.parse(whole.stdout) as Record<string, number>;
  const b = JSON.parse(resumed.stdout) as Record<string, number>;
  for (const field of [
    'candidates',
    'consensus',
    'escalated',
    'failed',
    'requests',
    'retries',
    'promptTokens',
    'completionTokens',
  ] as const)
    expect(b[field], field).toBe(a[field]);
}

describe('qrelay debate against a scripted OpenAI-compatible endpoint', () => {
  it(
    "decides every scripted behaviour: consensus in round 1 and 2, escalations with both agents' rounds, failures after 2 re-asks; tokens from usage",
    { timeout: 240_000 },
    async () => {
      endpoint.server.reset();
      const file = endpoint.writeCandidates('all.jsonl', ALL);
      const out = join(dir, 'out-all');
      const r = await runCli(['debate', file, '--out', out, '--model', 'scripted-model', '--json'], env(), 180_000);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const summary = JSON.parse(r.stdout) as Record<string, number>;

      const consensus = readJsonl(join(out, 'consensus.jsonl'));
      const escalations = readJsonl(join(out, 'escalations.jsonl'));
      const failed = readJsonl(join(out, 'failed.jsonl'));
      ALL.forEach((b, i) => {
        const id = `q${i + 1}`;
        const want = BEHAVIOURS[b];
        const c = consensus.find((x) => x.query_id === id);
        const e = escalations.find((x) => x.query_id === id);
        const f = failed.find((x) => x.query_id === id);
        if (want.outcome === 'consensus') {
          expect(c, b).toMatchObject({ query_id: id, chunk_id: `d${i + 1}`, label: want.label, round: want.round, dataset: 'scripted' });
          expect((c!.debate as unknown[]).length, b).toBe(2 * want.round);
          expect(e ?? f, b).toBeUndefined();
        } else if (want.outcome === 'escalated') {
          expect(e, b).toBeDefined();
          expect(e!.debate, b).toEqual(
            [1, 1, 2, 2].map((round, k) =>
              expect.objectContaining({
                round,
                agent: k % 2 === 0 ? 'A' : 'B',
                stance: k % 2 === 0 ? 'relevant' : 'irrelevant',
                label: k % 2 === 0 ? 'yes' : 'no',
              }),
            ),
          );
          expect((e!.debate as { reasoning: string }[])[2]!.reasoning).toContain('Agent A round 2');
          expect(e).toMatchObject({
            query: candidate(i + 1, b).query,
            answers: candidate(i + 1, b).answers,
            chunk: candidate(i + 1, b).chunk,
          });
          expect(c ?? f, b).toBeUndefined();
        } else {
          expect(f, b).toMatchObject({ query_id: id });
          expect(String(f!.reason)).toMatch(/agent A, round 1: 3 answers could not be read/);
          expect(c ?? e, b).toBeUndefined();
        }
      });
      const expectCount = (o: string) => ALL.filter((b) => BEHAVIOURS[b].outcome === o).length;
      expect(summary).toMatchObject({
        candidates: ALL.length,
        consensus: expectCount('consensus'),
        escalated: expectCount('escalated'),
        failed: expectCount('failed'),
        requests: endpoint.server.answered.length,
        promptTokens: endpoint.server.usageSent.prompt_tokens,
        completionTokens: endpoint.server.usageSent.completion_tokens,
        // malformed-once: 1 re-ask; malformed-always: 2 re-asks
        retries: 3,
      });
      expect(summary.wallSeconds).toBeGreaterThan(0);
      // a 429 on each of the two rate-limited requests, 500 + 503 on each of the four server-error ones
      expect(summary.httpRetries).toBe(2 + 4 * 2);
      // the agents' round-2 prompt carries round 1 of both agents, with their reasoning
      const round2 = endpoint.server.answered.find((q) => q.round === 2 && q.role === 'A')!;
      expect(round2.messages[1]!.content).toMatch(/Agent A: Yes\. Agent A round 1 on .*Agent B: No\. Agent B round 1 on/);
      expect(round2.model).toBe('scripted-model');
      expect(round2.temperature).toBe(0);
      // each answered request was asked once
      expect(new Set(endpoint.server.answered.map((q) => q.key)).size).toBe(endpoint.server.answered.length);
      expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({
        candidates: ALL.length,
        consensusByRound: { '1': 5, '2': 2 },
      });

      // the escalations import with no flag
      const imported = await runCli(['import', join(out, 'escalations.jsonl'), '--batch', 'debated'], {}, 180_000);
      expect(imported.stderr).toBe('');
      expect(imported.stdout).toMatch(/2 escalations records \(2 new/);
      const importedConsensus = await runCli(
        ['import', join(out, 'consensus.jsonl'), '--batch', 'debated', '--kind', 'consensus'],
        {},
        180_000,
      );
      expect(importedConsensus.stdout).toMatch(/7 consensus records/);
    },
  );

  it(
    'a run killed with SIGKILL after N requests and started again asks no answered request twice and writes the same files',
    { timeout: 240_000 },
    async () => {
      const behaviours = Array.from(
        { length: 24 },
        (_, i) => (['agree-yes-1', 'agree-no-2', 'disagree', 'agree-yes-2', 'malformed-once', 'agree-no-1'] as const)[i % 6]!,
      );
      const file = endpoint.writeCandidates('kill.jsonl', behaviours);
      const args = (out: string) => [
        'debate',
        file,
        '--out',
        out,
        '--model-a',
        'model-one',
        '--model-b',
        'model-two',
        '--concurrency',
        '4',
        '--json',
      ];

      endpoint.server.reset();
      const whole = join(dir, 'out-whole');
      const uninterrupted = await runCli(args(whole), env(), 180_000);
      expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
      const wholeRequests = endpoint.server.answered.length;

      endpoint.server.reset();
      const out = join(dir, 'out-killed');
      const KILL_AFTER = 30;
      const first = spawnCli(args(out), env());
      const reached = new Promise<void>((resolve) => {
        endpoint.server.onRequest = (_req, n) => {
          if (n === KILL_AFTER) {
            endpoint.server.freeze();
            resolve();
          }
        };
      });
      await reached;
      // every answer sent so far is in the journal (the child stores it before asking on) ...
      const answeredBeforeKill = endpoint.server.answered.length;
      await expect
        .poll(() => readFileSync(join(out, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).length, { timeout: 120_000 })
        .toBe(answeredBeforeKill);
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      endpoint.server.onRequest = undefined;
      const askedBefore = endpoint.server.answered.map((q) => q.key);
      endpoint.server.reset();
      expect(answeredBeforeKill).toBeGreaterThan(10);
      expect(answeredBeforeKill).toBeLessThan(wholeRequests);

      const second = await runCli(args(out), env(), 180_000);
      expect(second.code, second.stderr).toBe(0);
      for (const key of askedBefore) expect(endpoint.server.answeredCount(key)).toBe(0);
      expect(endpoint.server.answered.length).toBe(wholeRequests - answeredBeforeKill);
      expectSameRun({ out: whole, stdout: uninterrupted.stdout }, { out, stdout: second.stdout }, [
        'escalations.jsonl',
        'consensus.jsonl',
        'filtered.jsonl',
        'failed.jsonl',
      ]);
      expect((JSON.parse(second.stdout) as Record<string, number>).requestsReplayed).toBe(answeredBeforeKill);

      // a changed model is another run: nothing of the journal is reused
      endpoint.server.reset();
      const changed = await runCli(['debate', file, '--out', out, '--model', 'model-three', '--json'], env(), 180_000);
      expect(changed.code, changed.stderr).toBe(0);
      expect(JSON.parse(changed.stdout)).toMatchObject({ requestsReplayed: 0, requests: endpoint.server.answered.length });
    },
  );

  it(
    'killed at once on the 60th request (8 in flight, slow and rate-limited answers among them), restarted: the same files; only requests in flight at the kill are asked again',
    { timeout: 240_000 },
    async () => {
      const mix = ['agree-yes-1', 'disagree', 'agree-no-2', 'slow', 'rate-limited', 'agree-yes-2', 'malformed-once', 'agree-no-1'] as const;
      const behaviours = Array.from({ length: 40 }, (_, i) => mix[i % mix.length]!);
      const file = endpoint.writeCandidates('kill60.jsonl', behaviours);
      const args = (out: string) => ['debate', file, '--out', out, '--model', 'model-one', '--json'];

      endpoint.server.reset();
      const whole = join(dir, 'out-whole60');
      const uninterrupted = await runCli(args(whole), env(), 180_000);
      expect(uninterrupted.code, uninterrupted.stderr).toBe(0);

      endpoint.server.reset();
      const out = join(dir, 'out-killed60');
      const first = spawnCli(args(out), env());
      endpoint.server.onRequest = (_req, n) => {
        if (n === 60) first.child.kill('SIGKILL');
      };
      expect((await first.exited).signal).toBe('SIGKILL');
      endpoint.server.onRequest = undefined;
      const before = new Set(endpoint.server.answered.map((q) => q.key));
      endpoint.server.reset();
      const second = await runCli(args(out), env(), 180_000);
      expect(second.code, second.stderr).toBe(0);
      const askedAgain = [...before].filter((key) => endpoint.server.answeredCount(key) > 0);
      // at most the requests whose answers were on the wire when the process died
      expect(askedAgain.length).toBeLessThanOrEqual(8);
      expectSameRun({ out: whole, stdout: uninterrupted.stdout }, { out, stdout: second.stdout }, [
        'escalations.jsonl',
        'consensus.jsonl',
        'failed.jsonl',
      ]);
    },
  );
});
