import { UserError } from '../errors.js';
import { quote } from './ids.js';
import { measureDefinition, measureForms, MEASURES, type MeasureName } from './measures/registry.js';

/**
 * Measure names as ir_measures writes them: `NAME`, `NAME@k`, `NAME(rel=N)`,
 * `NAME(rel=N)@k` (e.g. `AP`, `nDCG@10`, `P(rel=2)@10`). Each measure's name, parameters
 * and computation are in its file under measures/ (measures/registry.ts lists them);
 * docs/evaluation.md lists the conventions.
 */

export type { MeasureName } from './measures/registry.js';
export const MEASURE_NAMES: readonly MeasureName[] = MEASURES.map((m) => m.name);

/** Other spellings ir_measures and trec_eval users write. */
const ALIASES: Record<string, MeasureName> = Object.fromEntries(MEASURES.flatMap((m) => (m.aliases ?? []).map((a) => [a, m.name])));

export interface Measure {
  name: MeasureName;
  /** Cutoff k, or null for the whole ranking. */
  cutoff: number | null;
  /** Relevance level of this measure (`rel=N`), or null for the run's (`--rel-level`, default 1). */
  rel: number | null;
  /** Canonical text, e.g. `nDCG@10`, `AP(rel=2)`; R-Prec keeps the spelling given (`Rprec` or `R-Prec`). */
  id: string;
}

export const DEFAULT_MEASURES = ['nDCG@10', 'R@100', 'Success@10', 'Judged@10', 'Hole@10'] as const;

/** Measures computed from the base and the new qrels together (one value per system). */
export const isPairMeasure = (m: Measure): boolean => measureDefinition(m.name).pair === true;

/** Every form a measure may be written in, for errors and help: `AP, AP@k, P@k, …`. */
export const KNOWN_MEASURES = MEASURES.flatMap(measureForms).join(', ');
const SYNTAX = /^([A-Za-z_-]+)(?:\(([^()]*)\))?(?:@([^@]*))?$/;

function lookup(name: string): MeasureName | undefined {
  return MEASURE_NAMES.find((n) => n === name) ?? ALIASES[name];
}

export function parseMeasure(text: string): Measure {
  const fail = (reason: string): never => {
    throw new UserError(`measure ${quote(text)}: ${reason}`);
  };
  const match = SYNTAX.exec(text);
  const written = match?.[1];
  const name = written === undefined ? undefined : lookup(written);
  if (!match || !name || written === undefined) {
    const loose =
      written === undefined
        ? undefined
        : [...MEASURE_NAMES, ...Object.keys(ALIASES)].find((n) => n.toLowerCase() === written.toLowerCase());
    const hint = loose ? `; did you mean ${loose}${text.slice(written!.length)}?` : '';
    throw new UserError(
      `unknown measure ${quote(text)}: known measures are ${KNOWN_MEASURES} (k a positive integer, optionally with (rel=N) before @k)${hint}`,
    );
  }
  const spec = measureDefinition(name);
  let cutoff: number | null = null;
  if (match[3] !== undefined) {
    if (spec.cutoff === 'none') fail(`${name} takes no cutoff; write ${written}`);
    cutoff = /^\d+$/.test(match[3]) ? Number(match[3]) : NaN;
    if (!Number.isSafeInteger(cutoff) || cutoff < 1) fail('the cutoff k must be a positive integer');
  } else if (spec.cutoff === 'required') {
    fail(`give a cutoff, e.g. ${written}@10`);
  }
  let rel: number | null = null;
  if (match[2] !== undefined) {
    for (const param of match[2].split(',').map((p) => p.trim())) {
      const relMatch = /^rel=(\d+)$/.exec(param);
      if (!relMatch) fail(`unknown parameter ${quote(param)}; the one parameter is rel=N (N a positive integer)`);
      if (!spec.rel) fail(`${name} grades by relevance value and takes no rel=N (the relevance level applies to binary measures only)`);
      rel = Number(relMatch![1]);
      if (!Number.isSafeInteger(rel) || rel < 1) fail('rel=N needs N a positive integer');
    }
  }
  const shownName = name === 'R-Prec' && written !== 'R-Prec' ? 'Rprec' : name;
  const id = `${shownName}${rel === null ? '' : `(rel=${rel})`}${cutoff === null ? '' : `@${cutoff}`}`;
  return { name, cutoff, rel, id };
}

/** Parses measure lists given as separate values, or comma/space-separated in one value. */
export function parseMeasures(texts: readonly string[]): Measure[] {
  const seen = new Map<string, Measure>();
  // Commas inside parentheses belong to the measure (`AP(rel=2)`); split on the others.
  for (const text of texts.flatMap((t) => t.split(/[\s]+|,(?![^(]*\))/)).filter(Boolean)) {
    const m = parseMeasure(text);
    if (!seen.has(m.id)) seen.set(m.id, m);
  }
  if (seen.size === 0) throw new UserError('no measures given; e.g. --measures "AP nDCG@10 P@10"');
  return [...seen.values()];
}

/** The measures for `qrelay evaluate --help`: each form, other spellings and notes in parentheses. */
export function measuresHelp(): string {
  return MEASURES.flatMap((m) => {
    const forms = measureForms(m);
    const aliases = m.aliases ?? [];
    const extra = [...(aliases.length > 0 ? [`or ${aliases.join(', ')}`] : []), ...(m.note === undefined ? [] : [m.note])];
    if (extra.length > 0) forms[0] = `${forms[0]} (${extra.join('; ')})`;
    return forms;
  }).join(', ');
}
