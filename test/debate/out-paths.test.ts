import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutFile, ensureOutDir } from '../../src/debate/out-paths.js';
import { tempDir } from '../pipeline/support.js';
import { runCli } from '../support/cli.js';

/**
 * The debate's and the adjudicator's output paths, checked before any token is spent:
 * a path that cannot be used is one line naming it and what to do (it was
 * `unexpected error: EEXIST` / `ENOTDIR`), and a usage error is one line too.
 */

const dir = tempDir('qrelay-out-paths-');
const file = join(dir, 'a-file.jsonl');
writeFileSync(file, 'x\n');
mkdirSync(join(dir, 'a-dir'));

describe('output paths', () => {
  it('a directory to write into: created if missing, refused when it is a file or under one', () => {
    ensureOutDir(join(dir, 'new', 'deeper'));
    expect(() => ensureOutDir(file)).toThrow(`--out: ${file} is a file, not a directory: give a directory (it is created if missing)`);
    expect(() => ensureOutDir(join(file, 'x'))).toThrow(
      `--out: cannot create the directory ${join(file, 'x')} (a part of the path is a file, not a directory): give a directory that can be created`,
    );
  });

  it('a file to write at the end: its directory must exist, and it must not be a directory', () => {
    checkOutFile(join(dir, 'labels.jsonl'));
    checkOutFile(file);
    expect(() => checkOutFile(join(file, 'x'))).toThrow(`--out: ${file} is a file, not a directory: give a path inside a directory`);
    expect(() => checkOutFile(join(dir, 'missing', 'x.jsonl'))).toThrow(
      `--out: the directory ${join(dir, 'missing')} does not exist: create it first, or give a path in an existing directory`,
    );
    expect(() => checkOutFile(join(dir, 'a-dir'))).toThrow(`--out: ${join(dir, 'a-dir')} is a directory: give the path of a file to write`);
  });
});

describe('on the command line', () => {
  const env = { OPENAI_API_KEY: 'not-used', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
  const oneLine = (stderr: string) => expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);

  it('debate --out <existing file> and adjudicate --out <file>/x: one line naming the path', { timeout: 120_000 }, async () => {
    const candidates = join(dir, 'candidates.jsonl');
    writeFileSync(
      candidates,
      `${JSON.stringify({ query_id: 'q1', query: 'q?', answers: ['a'], chunk_id: 'd1', chunk: 'p', dataset: 's' })}\n`,
    );
    const debate = await runCli(['debate', candidates, '--out', file, '--model', 'm'], env);
    expect(debate.code).toBe(1);
    oneLine(debate.stderr);
    expect(debate.stderr).toBe(`qrelay: --out: ${file} is a file, not a directory: give a directory (it is created if missing)\n`);
    const adjudicate = await runCli(['adjudicate', 'no-such-batch', '--model', 'm', '--out', join(file, 'x')], env);
    expect(adjudicate.code).toBe(1);
    oneLine(adjudicate.stderr);
    expect(adjudicate.stderr).toBe(`qrelay: --out: ${file} is a file, not a directory: give a path inside a directory\n`);
  });

  it('an option error is one line, the usage hint on it', { timeout: 120_000 }, async () => {
    for (const args of [['import'], ['debate'], ['report', 'b', '--format', 'pdf'], ['worker', 'block', 'A1', '--bogus']]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).not.toBe(0);
      oneLine(r.stderr);
      expect(r.stderr, args.join(' ')).toMatch(/^qrelay: .+ \(run with --help for usage\)\n$/);
    }
  });
});
