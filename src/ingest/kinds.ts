/** What a file can hold, and the shapes it can hold it in (one place for both). */
export const INGEST_KINDS = ['escalations', 'consensus', 'gold'] as const;
export type IngestKind = (typeof INGEST_KINDS)[number];

/** `canonical`: the shapes of docs/input-formats.md; `bridge`: rows with `round_1`, `round_2`, ... */
export type InputFormat = 'canonical' | 'bridge';
