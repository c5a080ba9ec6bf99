import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDevdbBinary } from '../src/db/devdb.js';
import { runCli } from './support/cli.js';

/** Each failure: non-zero exit, one line on stderr saying what is wrong and what to do. */
function oneLine(stderr: string): string {
  const lines = stderr
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('{')); // drop JSON log lines
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  return lines[0]!;
}

describe('qrelay exits with one clear line', () => {
  it('on a malformed MONGODB_URI', async () => {
    const res = await runCli(['migrate'], { MONGODB_URI: 'localhost:27017/qrelay' });
    expect(res.code).toBe(1);
    expect(oneLine(res.stderr)).toMatch(/^qrelay: bad environment: MONGODB_URI: expected a MongoDB connection string/);
  });

  it('on an unreachable database', async () => {
    const res = await runCli(['migrate'], { MONGODB_URI: 'mongodb://127.0.0.1:1/qrelay?serverSelectionTimeoutMS=300' });
    expect(res.code).toBe(1);
    expect(oneLine(res.stderr)).toMatch(/^qrelay: cannot reach the database at mongodb:\/\/127\.0\.0\.1:1\/qrelay.*check MONGODB_URI/);
  });

  it('when a program that is not a database listens at the dev database address', async () => {
    const http = createHttpServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    const address = `127.0.0.1:${(http.address() as { port: number }).port}`;
    try {
      // MONGODB_URI unset (undefined drops it from the child's environment): the dev database's address is used
      const res = await runCli(['migrate'], { MONGODB_URI: undefined, QRELAY_DEVDB_ADDRESS: address });
      expect(res.code).toBe(1);
      expect(oneLine(res.stderr)).toBe(
        `qrelay: QRELAY_DEVDB_ADDRESS ${address} (MONGODB_URI is unset) is not a database: an HTTP server answers there ("HTTP/1.1 404 Not Found"); stop what answers there, or set QRELAY_DEVDB_ADDRESS to a free host:port for the dev database (or MONGODB_URI to a MongoDB server)`,
      );
    } finally {
      http.close();
    }
  });

  it('on TREC qrels given to import, saying where qrels go', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'qrelay-qrels-')), 'base.qrels');
    writeFileSync(file, 'q1 0 doc1 1\nq1 0 doc2 0\n');
    for (const kind of [[], ['--kind', 'escalations']]) {
      const res = await runCli(['import', file, '--batch', 'qrels-by-mistake', ...kind]);
      expect(res.code).toBe(1);
      expect(oneLine(res.stderr)).toBe(
        `qrelay: ${file} line 1: this is TREC qrels, not a JSON record: qrelay import takes JSONL (escalated cases, gold items, consensus labels); give qrels to \`qrelay export-qrels --base <file>\` (the base the crowd's labels are merged into) or to \`qrelay evaluate --qrels <file>\``,
      );
    }
  });

  it('on a port in use', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const res = await runCli(['serve', '--port', String(port)], { QRELAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'qrelay-cli-')) });
      expect(res.code).toBe(1);
      expect(oneLine(res.stderr)).toBe(
        `qrelay: port ${port} on 127.0.0.1 is already in use: stop what runs there or set PORT to another port`,
      );
    } finally {
      blocker.close();
    }
  });

  it('on a bad option value, naming the option', async () => {
    const res = await runCli(['serve', '--port', 'http']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("option '--port <port>' argument 'http' is invalid");
  });

  it('when the dev database is needed and Go is missing', () => {
    const binary = join(mkdtempSync(join(tmpdir(), 'qrelay-nogo-')), 'devdb');
    expect(() => ensureDevdbBinary({ binary, goCommand: 'go-is-not-installed' })).toThrow(
      /the dev database needs the Go toolchain .* install Go, or set MONGODB_URI/,
    );
  });
});

describe('qrelay migrate', () => {
  it('applies the repository migrations, then finds nothing to do', async () => {
    const first = await runCli(['migrate']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^migrations: \d+ applied/);
    const second = await runCli(['migrate']);
    expect(second.stdout).toMatch(/^migrations: 0 applied, \d+ already applied/);
  });
});

describe('the dev database launcher build', () => {
  it('counts every Go source of tools/devdb when deciding whether the binary is stale', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qrelay-stale-'));
    const at = (f: string, seconds: number) => {
      writeFileSync(join(dir, f), '');
      utimesSync(join(dir, f), seconds, seconds);
    };
    at('main.go', 1000);
    at('go.mod', 1000);
    at('go.sum', 1000);
    at('serialize.go', 2000);
    at('devdb', 1500);
    const binary = join(dir, 'devdb');
    const ensure = () => ensureDevdbBinary({ binary, sourceDir: dir, goCommand: 'go-is-not-installed' });
    // older than serialize.go alone (not main.go): stale, so a build is attempted (and Go is "missing")
    expect(ensure).toThrow(/needs the Go toolchain/);
    at('devdb', 3000);
    expect(ensure().built).toBe(false);
    at('proxy_test.go', 4000); // tests are not part of the binary
    expect(ensure().built).toBe(false);
  });
});
