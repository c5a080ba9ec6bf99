import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../errors.js';

/**
 * Where a run writes, checked before it spends anything (LLM tokens, time): a path that
 * cannot be used is one line naming it and what to do, never `unexpected error: EEXIST`
 * at the end of the run.
 */

const code = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

function why(err: unknown): string {
  switch (code(err)) {
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a part of the path is a file, not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    default:
      return (err as Error).message;
  }
}

/** The kind of what is at `path`: a directory, something else, or nothing (or a reason it cannot be known). */
function kindOf(path: string): 'dir' | 'file' | 'missing' | { error: unknown } {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch (err) {
    return code(err) === 'ENOENT' ? 'missing' : { error: err };
  }
}

/** The run's output directory, created (with its parents) if missing. */
export function ensureOutDir(dir: string, option = '--out'): void {
  const kind = kindOf(dir);
  if (kind === 'dir') return;
  if (kind === 'file') throw new UserError(`${option}: ${dir} is a file, not a directory: give a directory (it is created if missing)`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new UserError(`${option}: cannot create the directory ${dir} (${why(err)}): give a directory that can be created`);
  }
}

/** A file written at the end of the run: its directory must exist, and it must not be a directory itself. */
export function checkOutFile(file: string, option = '--out'): void {
  const parent = dirname(file);
  const p = kindOf(parent);
  if (p === 'missing')
    throw new UserError(`${option}: the directory ${parent} does not exist: create it first, or give a path in an existing directory`);
  if (p === 'file') throw new UserError(`${option}: ${parent} is a file, not a directory: give a path inside a directory`);
  if (typeof p === 'object') throw new UserError(`${option}: cannot use ${file} (${why(p.error)}): give another path`);
  const f = kindOf(file);
  if (f === 'dir') throw new UserError(`${option}: ${file} is a directory: give the path of a file to write`);
  if (typeof f === 'object') throw new UserError(`${option}: cannot use ${file} (${why(f.error)}): give another path`);
}
