/**
 * The one line a long-running command prints when Ctrl-C (SIGINT, SIGTERM) has stopped it:
 * what stopped, and what the next start of the same command continues (pure).
 */

const list = new Intl.ListFormat('en', { type: 'conjunction' });

/** `stopped`: what the process had running, in the order it opened them; `next`: what the next start does. */
export function stopLine(stopped: readonly string[], next: string): string {
  return `stopped ${stopped.length > 0 ? list.format(stopped) : 'before anything was running'}; ${next}`;
}
