import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.js';

/**
 * The dev database launcher's build: FerretDB's module as tools/devdb/go.mod requires it,
 * copied next to the binary with the patches of tools/devdb/ferretdb-patches.json applied,
 * and the launcher built against that copy (`go build -modfile` with a `replace`, so the
 * repository's go.mod stays as it is). `go build -overlay` cannot do it: Go refuses to
 * overlay files of its module cache.
 */

export const PATCHES_FILE = 'ferretdb-patches.json';

const patchFileSchema = z.object({
  about: z.string(),
  module: z.string().min(1),
  patches: z.array(
    z.object({
      file: z.string().min(1),
      why: z.string().min(1),
      find: z.string().min(1),
      replace: z.string(),
    }),
  ),
  additions: z.array(z.object({ file: z.string().min(1), why: z.string().min(1) })).default([]),
});

export type SourcePatch = z.infer<typeof patchFileSchema>['patches'][number];
export type SourceAddition = z.infer<typeof patchFileSchema>['additions'][number];

/** Where the files `additions` names are kept, at the path each takes in the module (Go ignores a directory named with a leading underscore). */
export const ADDITIONS_DIR = '_ferretdb';

export function readPatches(path: string): { module: string; patches: SourcePatch[]; additions: SourceAddition[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UserError(`${path}: not readable JSON (${(err as Error).message})`);
  }
  const parsed = patchFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`${path}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * `text` with each patch's `find` replaced (pure). A patch whose `find` is missing or occurs
 * more than once is an error naming it: the module changed under the patch, which must be
 * written again for that version rather than applied somewhere it was not meant for.
 */
export function applyPatches(text: string, file: string, patches: readonly SourcePatch[]): string {
  let out = text;
  for (const [i, p] of patches.entries()) {
    const first = out.indexOf(p.find);
    const count = first < 0 ? 0 : out.split(p.find).length - 1;
    if (count !== 1)
      throw new UserError(
        `${PATCHES_FILE}: patch ${i + 1} of ${file} finds its text ${count === 0 ? 'nowhere' : `${count} times`} (it must occur once): the FerretDB version in tools/devdb/go.mod no longer matches the patch; write it again for that version`,
      );
    out = out.slice(0, first) + p.replace + out.slice(first + p.find.length);
  }
  return out;
}

/** Files and directories of a copy taken from Go's (read-only) module cache made writable, so it can be patched and removed. */
function makeWritable(path: string): void {
  const st = statSync(path);
  chmodSync(path, st.isDirectory() ? 0o755 : 0o644);
  if (st.isDirectory()) for (const entry of readdirSync(path)) makeWritable(join(path, entry));
}

function go(goCommand: string, args: string[], cwd: string): string {
  const result = spawnSync(goCommand, args, { cwd, encoding: 'utf8', env: { ...process.env, CGO_ENABLED: '0' } });
  if (result.status !== 0) {
    const last = (result.stderr || result.error?.message || 'unknown error').trim().split('\n').slice(-3).join(' | ');
    throw new UserError(
      `building tools/devdb failed (go ${args[0]}): ${last}; check that the Go module proxy is reachable or set MONGODB_URI`,
    );
  }
  return result.stdout;
}

/** Where the build of `binary` keeps the patched copy of FerretDB's module (kept after the build: its tests can be run there). */
export const patchedCopyOf = (binary: string): string => join(dirname(binary), 'build', 'ferretdb');

/** Builds `binary` from `sourceDir` against FerretDB patched as ferretdb-patches.json says. */
export function buildPatchedDevdb(sourceDir: string, binary: string, goCommand: string): void {
  const { module, patches, additions } = readPatches(join(sourceDir, PATCHES_FILE));
  const info = JSON.parse(go(goCommand, ['mod', 'download', '-json', module], sourceDir)) as { Dir?: string; Version?: string };
  if (!info.Dir) throw new UserError(`building tools/devdb failed: go mod download did not say where ${module} is`);
  const copy = patchedCopyOf(binary);
  const work = dirname(copy);
  rmSync(work, { recursive: true, force: true });
  cpSync(info.Dir, copy, { recursive: true });
  makeWritable(copy);
  const byFile = new Map<string, SourcePatch[]>();
  for (const p of patches) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  for (const [file, own] of byFile) {
    const path = join(copy, file);
    if (!existsSync(path))
      throw new UserError(
        `${PATCHES_FILE}: ${file} is not a file of ${module} ${info.Version ?? ''}: the version in tools/devdb/go.mod no longer matches the patch; write it again for that version`,
      );
    writeFileSync(path, applyPatches(readFileSync(path, 'utf8'), file, own));
  }
  for (const { file } of additions) {
    const from = join(sourceDir, ADDITIONS_DIR, file);
    if (!existsSync(from))
      throw new UserError(
        `${PATCHES_FILE}: the addition ${file} is missing from tools/devdb/${ADDITIONS_DIR}/${file}: restore it or remove its entry`,
      );
    if (existsSync(join(copy, file)))
      throw new UserError(
        `${PATCHES_FILE}: the addition ${file} is a file of ${module} ${info.Version ?? ''} already: the version in tools/devdb/go.mod no longer matches it; write it again for that version`,
      );
    cpSync(from, join(copy, file));
  }
  // an alternate go.mod (and its go.sum) that points the module at the patched copy (quoted: the path may hold spaces)
  const modfile = join(work, 'go.mod');
  writeFileSync(
    modfile,
    `${readFileSync(join(sourceDir, 'go.mod'), 'utf8')}\nreplace ${module} ${info.Version ?? ''} => ${JSON.stringify(copy)}\n`,
  );
  cpSync(join(sourceDir, 'go.sum'), join(work, 'go.sum'));
  go(goCommand, ['build', '-trimpath', `-modfile=${modfile}`, '-o', binary, '.'], sourceDir);
}
