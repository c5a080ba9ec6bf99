import { setFlagsFromString } from 'node:v8';

/**
 * The heap of a command that holds a whole batch in memory and allocates fast (`qrelay
 * simulate`: the batch's cases, the private marketplace, the simulated crowd's pages, the
 * collection rounds). V8 lets a heap grow to several times what it holds before it
 * collects again, the more so when collecting is slow (a loaded machine): a 40,560-case
 * simulation holding some 500 MB peaked at 1.7 to 2.7 GB of RSS, nearly all of it garbage
 * not yet collected (issue 38, item 13). Such a command lets its heap grow by half of what
 * it holds at most between two full collections: more frequent collections, each of the
 * same live data, for a peak about one and a half times that data.
 */

/** Commands whose heap grows by HEAP_GROWING_PERCENT at most. */
export const BOUNDED_HEAP_COMMANDS: ReadonlySet<string> = new Set(['simulate']);

/** How much a bounded heap may grow between two full collections, in percent of what it holds. */
export const HEAP_GROWING_PERCENT = 50;

/** Bounds the heap's growth when `command` is one of BOUNDED_HEAP_COMMANDS (V8 reads the flag at each collection). */
export function boundHeapGrowth(command: string | undefined): boolean {
  if (command === undefined || !BOUNDED_HEAP_COMMANDS.has(command)) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
