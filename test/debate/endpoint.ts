import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startOpenAiServer, type OpenAiServer, type Script } from '../support/openai-server.js';
import { candidate, debateScript, type Behaviour } from './scripted.js';

/**
 * One scripted OpenAI-compatible endpoint and one scratch folder for a test file: started
 * before its tests, closed and removed after them. `reply` may be swapped per test.
 */
export function useScriptedEndpoint(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let script: Script = debateScript;
  let server: OpenAiServer | undefined;
  beforeAll(async () => {
    server = await startOpenAiServer((req, attempt) => script(req, attempt));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    get server(): OpenAiServer {
      if (!server) throw new Error('the scripted endpoint starts before the tests');
      return server;
    },
    set reply(next: Script) {
      script = next;
    },
    env: () => ({ OPENAI_BASE_URL: server?.url ?? '', OPENAI_API_KEY: 'sk-test-key' }),
    /** A candidates file in the scratch folder, one scripted candidate per behaviour. */
    writeCandidates(name: string, behaviours: Behaviour[], extra: (i: number) => Record<string, unknown> = () => ({})): string {
      const file = join(dir, name);
      writeFileSync(file, behaviours.map((b, i) => JSON.stringify({ ...candidate(i + 1, b), ...extra(i + 1) })).join('\n') + '\n');
      return file;
    },
  };
}

export const readJsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
