import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UserError } from '../errors.js';

/**
 * The dev database launcher's build: FerretDB's module as tools/devdb/go.mod requires it,
 * copied next to the binary, the unified diffs of tools/devdb/patches applied to it with
 * `git apply` and the files of tools/devdb/_ferretdb added, and the launcher built against
 * that copy (`go build -modfile` with a `replace`, so the repository's go.mod stays as it
 * is). `go build -overlay` cannot do it: Go refuses to overlay files of its module cache.
 */

export const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';

/** The directory of tools/devdb holding the patches, applied in the order of their names. */
export const PATCHES_DIR = 'patches';

/** Where the files added to the module are kept, at the path each takes in it (Go ignores a directory named with a leading underscore). */
export const ADDITIONS_DIR = '_ferretdb';

/** The patch files of `sourceDir`, as paths relative to it, in the order they apply. */
export function listPatches(sourceDir: string): string[] {
  const dir = join(sourceDir, PATCHES_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.patch'))
    .sort()
    .map((f) => join(PATCHES_DIR, f));
}

/** The files of `sourceDir`'s additions, as paths inside the module. */
export function listAdditions(sourceDir: string): string[] {
  const dir = join(sourceDir, ADDITIONS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .sort();
}

/**
 * Applies the unified diff `patchFile` to the tree at `dir` with `git apply`. A patch that
 * does not apply, or applies only at another place than the one it was made for (git's
 * "offset"), is an error naming it: the module changed under the patch, which must be made
 * again for that version rather than applied somewhere it was not meant for.
 */
export function applyPatchFile(dir: string, patchFile: string, label: string, gitCommand = 'git'): void {
  // the ceiling keeps git from taking an enclosing repository's root for the patch's paths
  const result = spawnSync(gitCommand, ['apply', '--verbose', '--whitespace=nowarn', patchFile], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(dir) },
  });
  const said = `${result.stderr ?? ''}${result.error ? result.error.message : ''}`.trim();
  const again = 'the FerretDB version in tools/devdb/go.mod no longer matches the patch; make it again for that version';
  if (result.status !== 0) {
    const reason =
      said
        .split('\n')
        .filter((l) => /^error:/.test(l))
        .join('; ') ||
      said.split('\n').pop() ||
      'git apply failed';
    throw new UserError(`${label} does not apply (${reason}): ${again}`);
  }
  const moved = said.split('\n').find((l) => /\(offset -?\d+ lines?\)/.test(l));
  if (moved) throw new UserError(`${label} applies only at another place (${moved.trim()}): ${again}`);
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

/**
 * Builds `binary` from `sourceDir` against FerretDB with the patches and additions of
 * `sourceDir`. Two processes may build at once (test files starting together after a source
 * changed), so each works in a directory of its own and moves its result into place.
 */
export function buildPatchedDevdb(sourceDir: string, binary: string, goCommand: string): void {
  const info = JSON.parse(go(goCommand, ['mod', 'download', '-json', FERRETDB_MODULE], sourceDir)) as {
    Dir?: string;
    Version?: string;
  };
  if (!info.Dir) throw new UserError(`building tools/devdb failed: go mod download did not say where ${FERRETDB_MODULE} is`);
  const work = `${dirname(patchedCopyOf(binary))}.${process.pid}`;
  const copy = join(work, 'ferretdb');
  rmSync(work, { recursive: true, force: true });
  try {
    cpSync(info.Dir, copy, { recursive: true });
    makeWritable(copy);
    for (const patch of listPatches(sourceDir))
      applyPatchFile(copy, join(sourceDir, patch), `tools/devdb/${patch} (for ${FERRETDB_MODULE} ${info.Version ?? ''})`);
    for (const file of listAdditions(sourceDir)) {
      if (existsSync(join(copy, file)))
        throw new UserError(
          `tools/devdb/${ADDITIONS_DIR}/${file} is a file of ${FERRETDB_MODULE} ${info.Version ?? ''} already: the version in tools/devdb/go.mod no longer matches it; make it again for that version`,
        );
      cpSync(join(sourceDir, ADDITIONS_DIR, file), join(copy, file));
    }
    // an alternate go.mod (and its go.sum) that points the module at the patched copy (quoted: the path may hold spaces)
    const modfile = join(work, 'go.mod');
    writeFileSync(
      modfile,
      `${readFileSync(join(sourceDir, 'go.mod'), 'utf8')}\nreplace ${FERRETDB_MODULE} ${info.Version ?? ''} => ${JSON.stringify(copy)}\n`,
    );
    cpSync(join(sourceDir, 'go.sum'), join(work, 'go.sum'));
    const built = `${binary}.${process.pid}`;
    go(goCommand, ['build', '-trimpath', `-modfile=${modfile}`, '-o', built, '.'], sourceDir);
    // the copy stays for its tests (test/devdb), at the place patchedCopyOf names
    const kept = dirname(patchedCopyOf(binary));
    rmSync(kept, { recursive: true, force: true });
    try {
      renameSync(work, kept);
    } catch {
      // another build moved its copy, made from the same sources, into place first
    }
    renameSync(built, binary);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
