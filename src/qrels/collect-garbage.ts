import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection now, where the runtime allows one. `qrelay evaluate` reads
 * runs one at a time and keeps only their per-query values; without this, V8 lets the
 * dead runs pile up in the old generation (its limit grows with the heap) and the process
 * peaks at several runs' worth of memory. Collecting after each run keeps the peak near
 * one run. `--expose-gc` set at run time makes `gc` available to new contexts only, hence
 * the fresh context. Without it (another runtime), this does nothing.
 */

let collect: (() => void) | null | undefined;

export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      collect = typeof gc === 'function' ? (gc as () => void) : null;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
