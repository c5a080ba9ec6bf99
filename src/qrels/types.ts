/** Relevance judgments: query id -> document id -> grade (integer; >= 1 is relevant). */
export type Qrels = Map<string, Map<string, number>>;

/** One retrieved document of a ranking. */
export interface RankedDoc {
  docid: string;
  score: number;
}

/**
 * A system's rankings: query id -> documents in trec_eval order (score descending, ties
 * broken by document id descending; see `rankingOrder` in run-parse.ts).
 */
export type Run = Map<string, RankedDoc[]>;

/** Grades at or above this count as relevant (trec_eval's default relevance level). */
export const RELEVANT = 1;

export const QRELS_FORMATS = ['trec', 'beir', 'bridge'] as const;
export type QrelsFormat = (typeof QRELS_FORMATS)[number];

/** Output formats: TREC `qid 0 docid rel`, BEIR tsv, JSONL with provenance per line. */
export const QRELS_OUTPUT_FORMATS = ['trec', 'beir', 'jsonl'] as const;
export type QrelsOutputFormat = (typeof QRELS_OUTPUT_FORMATS)[number];

/** Queries, judgments and judgments relevant at `relLevel` (default {@link RELEVANT}). */
export function countJudgments(qrels: Qrels, relLevel = RELEVANT): { queries: number; judgments: number; relevant: number } {
  let judgments = 0;
  let relevant = 0;
  for (const docs of qrels.values()) {
    judgments += docs.size;
    for (const rel of docs.values()) if (rel >= relLevel) relevant++;
  }
  return { queries: qrels.size, judgments, relevant };
}
