import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../paths.js';
import { ADDITIONS_DIR, applyPatches, buildPatchedDevdb, PATCHES_FILE, readPatches, type SourcePatch } from './devdb-build.js';

const patch = (find: string, replace: string): SourcePatch => ({ file: 'a.go', why: 'test', find, replace });

describe('applyPatches', () => {
  it('replaces each patch text once, in order, leaving the rest as it was', () => {
    const text = 'const A = 1\nconst B = 2\n';
    expect(applyPatches(text, 'a.go', [patch('A = 1', 'A = 10'), patch('A = 10\nconst B', 'A = 10\nconst C')])).toBe(
      'const A = 10\nconst C = 2\n',
    );
    expect(applyPatches(text, 'a.go', [])).toBe(text);
  });

  it('refuses a patch whose text is missing, naming the file and the patch', () => {
    expect(() => applyPatches('const A = 1\n', 'x/a.go', [patch('A = 1', 'A = 2'), patch('B = 2', 'B = 3')])).toThrow(
      /ferretdb-patches\.json: patch 2 of x\/a\.go finds its text nowhere \(it must occur once\)/,
    );
  });

  it('refuses a patch whose text occurs more than once', () => {
    expect(() => applyPatches('x = 1; x = 1', 'a.go', [patch('x = 1', 'x = 2')])).toThrow(/patch 1 of a\.go finds its text 2 times/);
  });
});

describe('readPatches', () => {
  it("reads the repository's patches: each names its file, why, and a text to find", () => {
    const { module, patches } = readPatches(join(paths.devdbSource, PATCHES_FILE));
    expect(module).toBe('github.com/FerretDB/FerretDB');
    expect(patches.length).toBeGreaterThan(0);
    for (const p of patches) {
      expect(p.file).toMatch(/^internal\/.+\.go$/);
      expect(p.why.length).toBeGreaterThan(20);
      expect(p.replace).toContain('qrelay devdb');
    }
  });

  it("reads the repository's additions: each is a file of tools/devdb/_ferretdb at the path it takes in the module", () => {
    const { additions } = readPatches(join(paths.devdbSource, PATCHES_FILE));
    expect(additions.map((a) => a.file)).toContain('internal/handler/sjson/onepass.go');
    for (const a of additions) {
      expect(existsSync(join(paths.devdbSource, ADDITIONS_DIR, a.file))).toBe(true);
      expect(a.why.length).toBeGreaterThan(20);
    }
  });

  it('names the field of a malformed patch file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'qrelay-patches-')), PATCHES_FILE);
    writeFileSync(path, JSON.stringify({ about: '', module: 'm', patches: [{ file: 'a.go', why: 'w', replace: '' }] }));
    expect(() => readPatches(path)).toThrow(new RegExp(`${PATCHES_FILE}: patches\\.0\\.find: `));
    writeFileSync(path, '{ not json');
    expect(() => readPatches(path)).toThrow(/not readable JSON/);
  });
});

describe('buildPatchedDevdb', () => {
  /** A copy of the launcher's sources with `patchFile` as its patches (the module as the repository requires it). */
  function sourcesWith(patchFile: Omit<ReturnType<typeof readPatches>, 'module'>): { source: string; binary: string } {
    const source = mkdtempSync(join(tmpdir(), 'qrelay-devdb-src-'));
    for (const f of readdirSync(paths.devdbSource))
      if (/\.go$|^go\.(mod|sum)$/.test(f)) copyFileSync(join(paths.devdbSource, f), join(source, f));
    const { module } = readPatches(join(paths.devdbSource, PATCHES_FILE));
    writeFileSync(join(source, PATCHES_FILE), JSON.stringify({ about: 'test', module, ...patchFile }));
    return { source, binary: join(source, 'bin', 'devdb') };
  }

  it('refuses a patch naming a file the required FerretDB version does not have, before building anything', () => {
    const { source, binary } = sourcesWith({
      patches: [{ file: 'internal/nowhere.go', why: 'test', find: 'x', replace: 'y' }],
      additions: [],
    });
    expect(() => buildPatchedDevdb(source, binary, 'go')).toThrow(
      /ferretdb-patches\.json: internal\/nowhere\.go is not a file of github\.com\/FerretDB\/FerretDB v\d+\.\d+\.\d+: the version in tools\/devdb\/go\.mod no longer matches the patch/,
    );
    expect(existsSync(binary)).toBe(false);
  });

  it('refuses an addition whose file is missing from _ferretdb, or which the module has already, naming it', () => {
    const missing = sourcesWith({ patches: [], additions: [{ file: 'internal/handler/sjson/extra.go', why: 'test' }] });
    expect(() => buildPatchedDevdb(missing.source, missing.binary, 'go')).toThrow(
      /ferretdb-patches\.json: the addition internal\/handler\/sjson\/extra\.go is missing from tools\/devdb\/_ferretdb\/internal\/handler\/sjson\/extra\.go: restore it or remove its entry/,
    );
    const clash = sourcesWith({ patches: [], additions: [{ file: 'internal/handler/sjson/sjson.go', why: 'test' }] });
    mkdirSync(join(clash.source, ADDITIONS_DIR, 'internal', 'handler', 'sjson'), { recursive: true });
    writeFileSync(join(clash.source, ADDITIONS_DIR, 'internal', 'handler', 'sjson', 'sjson.go'), 'package sjson\n');
    expect(() => buildPatchedDevdb(clash.source, clash.binary, 'go')).toThrow(
      /ferretdb-patches\.json: the addition internal\/handler\/sjson\/sjson\.go is a file of github\.com\/FerretDB\/FerretDB v\d+\.\d+\.\d+ already/,
    );
    expect(existsSync(missing.binary) || existsSync(clash.binary)).toBe(false);
  });
});
