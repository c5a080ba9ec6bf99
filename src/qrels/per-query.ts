import type { EvaluationReport } from './evaluate.js';
import { compareIds } from './ids.js';

/**
 * Per-query output of `qrelay evaluate --per-query`:
 * - `trec`: trec_eval -q's three columns `measure<TAB>qid<TAB>value`, one block per run
 *   and qrels, opened as trec_eval opens its output (`runid all <run>`) plus a
 *   `qrels all base|new` line; per query every measure, then the means as qid `all`.
 *   Values at full precision (trec_eval rounds to 4 decimals).
 * - `jsonl`: one object per value, `{"system", "qrels", "measure", "query", "value"}`.
 * Hole@k has values under the new qrels only.
 */

export const PER_QUERY_FORMATS = ['trec', 'jsonl'] as const;
export type PerQueryFormat = (typeof PER_QUERY_FORMATS)[number];

/** Whitespace in a name would shift the columns: shown as `_`. */
const column = (text: string) => text.replace(/\s/g, '_');

export function* perQueryLines(report: EvaluationReport, format: PerQueryFormat): Generator<string> {
  for (const system of report.perQuery) {
    for (const qrels of ['base', 'new'] as const) {
      const measures = Object.entries(system.measures).flatMap(([measure, v]) => (v[qrels] ? [{ measure, values: v[qrels] }] : []));
      if (measures.length === 0) continue;
      if (format === 'jsonl') {
        for (const { measure, values } of measures) {
          for (const [query, value] of Object.entries(values))
            yield JSON.stringify({ system: system.system, qrels, measure, query, value });
        }
        continue;
      }
      yield `runid\tall\t${column(system.system)}`;
      yield `qrels\tall\t${qrels}`;
      const queries = [...new Set(measures.flatMap((m) => Object.keys(m.values)))].sort(compareIds);
      for (const query of queries) {
        for (const { measure, values } of measures) {
          const value = values[query];
          if (value !== undefined) yield `${measure}\t${column(query)}\t${value}`;
        }
      }
      for (const { measure } of measures) {
        const score = report.measures.find((m) => m.measure === measure)?.systems.find((s) => s.system === system.system);
        const mean = qrels === 'base' ? score?.base : score?.new;
        if (mean !== null && mean !== undefined) yield `${measure}\tall\t${mean}`;
      }
    }
  }
}
