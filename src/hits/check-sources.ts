import { CHECK_DEBATE_SOURCES, queryText, type CheckDebateSource } from './check-debate-donor.js';

/**
 * Which queries a plan's checks use, and where their debates come from (issue 16, item 3).
 * A check whose query no real item on the page has, or none in the batch, stands out to
 * anyone who compares the items; so a check's gold item is drawn from the page's own
 * queries first, then from the batch's, and only then from any (pure).
 */

/** 0: a query of the page's real items; 1: of the batch's; 2: any other. Lower is preferred. */
export function queryAffinity(query: string, pageQueries: ReadonlySet<string>, batchQueries: ReadonlySet<string>): 0 | 1 | 2 {
  const q = queryText(query);
  return pageQueries.has(q) ? 0 : batchQueries.has(q) ? 1 : 2;
}

export const queriesOf = (items: Iterable<{ query: string }>): Set<string> => new Set([...items].map((i) => queryText(i.query)));

export type DebateSourceCounts = Record<CheckDebateSource, number>;

export const countSources = (sources: readonly CheckDebateSource[]): DebateSourceCounts =>
  Object.fromEntries(CHECK_DEBATE_SOURCES.map((s) => [s, sources.filter((x) => x === s).length])) as DebateSourceCounts;

/** One line for `publish`: how many checks' debates come from each source, and how many use other queries. */
export function describeCheckSources(checks: { total: number; debateSources?: DebateSourceCounts; otherQueries?: number }): string {
  const s = checks.debateSources;
  const debates =
    s === undefined
      ? 'debate sources not recorded'
      : `debates: ${s.gold} the gold item's own, ${s.derived} adapted from the batch's debates, ${s.template} from the template`;
  const other = checks.otherQueries === undefined ? '' : `; ${checks.otherQueries} of ${checks.total} use a query outside the batch`;
  return `check ${debates}${other}`;
}
