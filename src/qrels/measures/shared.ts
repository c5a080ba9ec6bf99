import { compareIds } from '../ids.js';
import type { RankedDoc } from '../types.js';

/** One query's judgments, with what every measure needs precomputed. */
export interface QueryJudgments {
  grades: Map<string, number>;
  /** Positive grades, descending: the ideal ranking's gains. */
  idealGains: number[];
  /** Every grade, descending: counting relevant and non-relevant at any level. */
  sortedGrades: number[];
}

/** What a measure computes one query's value from. */
export interface MeasureInput {
  /** The query's ranking in trec_eval order (empty when the run lacks it). */
  readonly ranking: readonly RankedDoc[];
  readonly q: QueryJudgments;
  /** The relevance level: the measure's rel=N, else the evaluation's, else 1. */
  readonly level: number;
  /** The cutoff k, Infinity for the whole ranking. */
  readonly k: number;
  /** Whether the measure was written with @k. */
  readonly cut: boolean;
  readonly isRelevant: (docid: string) => boolean;
  /** The ranking in {@link lexicalOrder}, ir_measures' order for its own providers. */
  readonly lexical: () => readonly RankedDoc[];
  /** The base qrels' judgments of the query, for measures of two qrels (Hole@k). */
  readonly base: QueryJudgments | undefined;
}

/**
 * One measure, ir_measures-style: its name, the parameters it takes and how it computes a
 * query's value. Each lives in its own file here; registry.ts lists them.
 */
export interface MeasureDefinition<N extends string = string> {
  readonly name: N;
  /** Other spellings ir_measures and trec_eval users write. */
  readonly aliases?: readonly string[];
  /** required: `NAME@k` only; optional: with or without; none: never. */
  readonly cutoff: 'required' | 'optional' | 'none';
  /** Whether `rel=N` applies: the measure is binary (relevant or not). */
  readonly rel: boolean;
  /** Computed from the base and the new qrels together (one value per system). */
  readonly pair?: boolean;
  /** For `qrelay evaluate --help`, when the name alone does not say what it is. */
  readonly note?: string;
  compute(input: MeasureInput): number;
}

/** Keeps a definition's name a literal type, so the registry's names form a union. */
export const defineMeasure = <const N extends string>(definition: MeasureDefinition<N>): MeasureDefinition<N> => definition;

/** Documents with grade ≥ level. */
export function relevantCount(q: QueryJudgments, level: number): number {
  let n = 0;
  while (n < q.sortedGrades.length && q.sortedGrades[n]! >= level) n++;
  return n;
}

/** ir_measures' order for its own providers: score descending, ties by document id ascending. */
export function lexicalOrder(a: RankedDoc, b: RankedDoc): number {
  if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  return compareIds(a.docid, b.docid);
}

/** How many of the top min(k, ranked) pass `test`, and that many. */
export function countTop(ranking: readonly RankedDoc[], k: number, test: (docid: string) => boolean): { hits: number; shown: number } {
  const shown = Math.min(k, ranking.length);
  let hits = 0;
  for (let i = 0; i < shown; i++) if (test(ranking[i]!.docid)) hits++;
  return { hits, shown };
}

/** The share of the top min(k, ranked) that pass `test`; 0 on an empty ranking. */
export function shareOfTop(ranking: readonly RankedDoc[], k: number, test: (docid: string) => boolean): number {
  const { hits, shown } = countTop(ranking, k, test);
  return shown === 0 ? 0 : hits / shown;
}
