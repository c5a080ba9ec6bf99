import type { ImportOutcome, ImportResult } from '../pipeline/import.js';

/** One import's counts: `12 escalations records (12 new, 0 already in the batch), 2 repeated lines ignored`. */
function partLine(r: ImportResult, split: boolean): string {
  const c = r.counts;
  return (
    `${c.records} ${r.kind} records (${c.inserted} new, ${c.existing} already in the batch)` +
    `${c.duplicates ? `, ${c.duplicates} repeated lines ignored` : ''}` +
    // a split file imports the other kind's rows too: they are not skipped
    `${c.skipped && !split ? `, ${c.skipped} BRIDGE rows of the other kind skipped` : ''}`
  );
}

/**
 * What `qrelay import` prints: the count of each kind it imported; for a BRIDGE file
 * split per row, both counts and how the rows were told apart.
 */
export function importLine(file: string, outcome: ImportOutcome): string {
  const split = outcome.imports.length > 1;
  const parts = outcome.imports.map((r) => partLine(r, split));
  const how = split ? ' (a BRIDGE file, split per row by its consensus field)' : '';
  return `imported ${file} into batch ${outcome.batch}: ${parts.join(' and ')}${how}`;
}
