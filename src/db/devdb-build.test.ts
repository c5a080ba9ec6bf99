import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../paths.js';
import { ADDITIONS_DIR, applyPatchFile, buildPatchedDevdb, listAdditions, listPatches, PATCHES_DIR } from './devdb-build.js';

const original = 'package a\n\nconst A = 1\n\nconst B = 2\n\nconst C = 3\n';

/** A unified diff of a/x.go changing `const B = 2` to `const B = 20`, as `git diff` writes it. */
const patchOfB = [
  'Why: a test.',
  '---',
  'diff --git a/a/x.go b/a/x.go',
  '--- a/a/x.go',
  '+++ b/a/x.go',
  '@@ -3,5 +3,5 @@ package a',
  ' const A = 1',
  ' ',
  '-const B = 2',
  '+const B = 20',
  ' ',
  ' const C = 3',
  '',
].join('\n');

/** A tree holding a/x.go with `text`, and the patch above beside it. */
function treeWith(text: string): { dir: string; patch: string } {
  const root = mkdtempSync(join(tmpdir(), 'qrelay-patch-'));
  const dir = join(root, 'module');
  mkdirSync(join(dir, 'a'), { recursive: true });
  writeFileSync(join(dir, 'a', 'x.go'), text);
  const patch = join(root, 'b.patch');
  writeFileSync(patch, patchOfB);
  return { dir, patch };
}

describe('applyPatchFile', () => {
  it('applies a unified diff with git apply, its description before the diff left out', () => {
    const { dir, patch } = treeWith(original);
    applyPatchFile(dir, patch, 'b.patch');
    expect(readFileSync(join(dir, 'a', 'x.go'), 'utf8')).toBe(original.replace('B = 2', 'B = 20'));
  });

  it('refuses a patch whose text is not there, naming it', () => {
    const { dir, patch } = treeWith(original.replace('B = 2', 'B = 3'));
    expect(() => applyPatchFile(dir, patch, 'tools/devdb/patches/b.patch')).toThrow(
      /^tools\/devdb\/patches\/b\.patch does not apply \(error: .*\): the FerretDB version in tools\/devdb\/go\.mod no longer matches the patch/,
    );
  });

  it('refuses a patch that would apply only at another place than the one it was made for', () => {
    const { dir, patch } = treeWith(`// moved\n${original}`);
    expect(() => applyPatchFile(dir, patch, 'b.patch')).toThrow(/^b\.patch applies only at another place \(.*offset 1 line.*\)/);
  });

  it('refuses a patch of a file the tree does not have', () => {
    const { dir, patch } = treeWith(original);
    writeFileSync(patch, patchOfB.replaceAll('a/x.go', 'a/nowhere.go'));
    expect(() => applyPatchFile(dir, patch, 'b.patch')).toThrow(/^b\.patch does not apply \(error: a\/nowhere\.go/);
  });
});

describe("the repository's patches", () => {
  it('are unified diffs of FerretDB files, each with its reason before the diff and a mark in the code', () => {
    const patches = listPatches(paths.devdbSource);
    expect(patches.length).toBeGreaterThan(0);
    for (const p of patches) {
      const text = readFileSync(join(paths.devdbSource, p), 'utf8');
      const [why, diff] = [text.slice(0, text.indexOf('\ndiff --git ')), text.slice(text.indexOf('\ndiff --git '))];
      expect(why.length, p).toBeGreaterThan(100);
      expect(diff, p).toMatch(/^\ndiff --git a\/internal\/\S+\.go b\/internal\/\S+\.go\n/);
      expect(diff, p).toContain('+');
      expect(diff, p).toContain('qrelay devdb');
    }
  });

  it('keep no Go source in a JSON file', () => {
    const json = readdirSync(paths.devdbSource, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.json') && !f.startsWith('bin/'),
    );
    for (const f of json) expect(readFileSync(join(paths.devdbSource, f), 'utf8'), f).not.toMatch(/\bfunc |\bpackage \w+/);
  });

  it('add the one-pass decoding and its test from tools/devdb/_ferretdb, at their paths in the module', () => {
    expect(listAdditions(paths.devdbSource)).toEqual([
      join('internal', 'handler', 'sjson', 'onepass.go'),
      join('internal', 'handler', 'sjson', 'onepass_test.go'),
    ]);
  });
});

describe('buildPatchedDevdb', () => {
  /** A copy of the launcher's sources with `patches` as its patch files and `additions` under _ferretdb. */
  function sourcesWith(patches: Record<string, string>, additions: Record<string, string>): { source: string; binary: string } {
    const source = mkdtempSync(join(tmpdir(), 'qrelay-devdb-src-'));
    for (const f of readdirSync(paths.devdbSource))
      if (/\.go$|^go\.(mod|sum)$/.test(f)) copyFileSync(join(paths.devdbSource, f), join(source, f));
    mkdirSync(join(source, PATCHES_DIR));
    for (const [name, text] of Object.entries(patches)) writeFileSync(join(source, PATCHES_DIR, name), text);
    for (const [file, text] of Object.entries(additions)) {
      mkdirSync(join(source, ADDITIONS_DIR, file, '..'), { recursive: true });
      writeFileSync(join(source, ADDITIONS_DIR, file), text);
    }
    return { source, binary: join(source, 'bin', 'devdb') };
  }

  it('refuses a patch naming a file the required FerretDB version does not have, before building anything', () => {
    const { source, binary } = sourcesWith({ '0001-x.patch': patchOfB.replaceAll('a/x.go', 'internal/nowhere.go') }, {});
    expect(() => buildPatchedDevdb(source, binary, 'go')).toThrow(
      /^tools\/devdb\/patches\/0001-x\.patch \(for github\.com\/FerretDB\/FerretDB v\d+\.\d+\.\d+\) does not apply \(error: internal\/nowhere\.go/,
    );
    expect(existsSync(binary)).toBe(false);
  });

  it('refuses an addition that the module has already, naming it', () => {
    const clash = sourcesWith({}, { 'internal/handler/sjson/sjson.go': 'package sjson\n' });
    expect(() => buildPatchedDevdb(clash.source, clash.binary, 'go')).toThrow(
      /tools\/devdb\/_ferretdb\/internal\/handler\/sjson\/sjson\.go is a file of github\.com\/FerretDB\/FerretDB v\d+\.\d+\.\d+ already/,
    );
    expect(existsSync(clash.binary)).toBe(false);
  });
});
