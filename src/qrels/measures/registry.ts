import { ap } from './ap.js';
import { bpref } from './bpref.js';
import { hole } from './hole.js';
import { judged } from './judged.js';
import { ndcg, ndcgBridge } from './ndcg.js';
import { p } from './p.js';
import { rPrec } from './r-prec.js';
import { r } from './r.js';
import { rr } from './rr.js';
import type { MeasureDefinition } from './shared.js';
import { success } from './success.js';

/**
 * Every measure `qrelay evaluate` knows, in the order its help and errors list them. A new
 * measure: its own file here (name, parameters, computation), then one entry below.
 */
export const MEASURES = [ap, p, r, rr, rPrec, ndcg, success, judged, bpref, ndcgBridge, hole] as const;

export type MeasureName = (typeof MEASURES)[number]['name'];
export type { MeasureDefinition };

/** The forms a measure may be written in, e.g. `AP, AP@k` or `P@k`. */
export function measureForms(m: (typeof MEASURES)[number]): string[] {
  if (m.cutoff === 'required') return [`${m.name}@k`];
  if (m.cutoff === 'none') return [m.name];
  return [m.name, `${m.name}@k`];
}

const BY_NAME = new Map<string, MeasureDefinition>(MEASURES.map((m) => [m.name, m]));

/** The definition of a measure named in the registry. */
export function measureDefinition(name: MeasureName): MeasureDefinition {
  const definition = BY_NAME.get(name);
  if (!definition) throw new Error(`measure ${name} is not in measures/registry.ts`);
  return definition;
}
