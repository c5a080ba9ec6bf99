import type { Rng } from './random.js';
import { CHECK_DEBATE_SOURCES, queryText, type CheckDebateSource } from './check-debate-donor.js';

/**
 * Which queries a plan's checks use, and where their debates come from (issue 16, item 3).
 * A check must stand to its page as a real item does: in a batch ordered by query most
 * real items share their query with another item of their page, in a shuffled batch few
 * do, and a check that differs from the real items in this gives itself away (measured:
 * "another item of the page has my query" separated checks best until it was matched).
 * So each check draws whether to share a query with the page at the page's own rate
 * (`pageQueryShare`), then takes a gold item accordingly; a query outside the batch is
 * the last resort (pure).
 */

/** The share of the page's real items whose query another real item of the page has. */
export function pageQueryShare(queries: readonly string[]): number {
  const counts = new Map<string, number>();
  const texts = queries.map(queryText);
  for (const q of texts) counts.set(q, (counts.get(q) ?? 0) + 1);
  return queries.length === 0 ? 0 : texts.filter((q) => (counts.get(q) ?? 0) > 1).length / queries.length;
}

/**
 * How well a gold item's query suits a check that should (`onPage`) or should not share its
 * query with the page's real items: 0 as wanted, 1 the other way but within the batch, 2 a
 * query outside the batch. Lower is preferred.
 */
export function queryAffinity(
  query: string,
  onPage: boolean,
  pageQueries: ReadonlySet<string>,
  batchQueries: ReadonlySet<string>,
): 0 | 1 | 2 {
  const q = queryText(query);
  if (!batchQueries.has(q)) return 2;
  return pageQueries.has(q) === onPage ? 0 : 1;
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

/**
 * The page's items with each check moved into the run of the real items that share its
 * query (at a random slot of that run, its ends included), real items keeping their order.
 * Real items come in the batch's order, which groups a query's items; a check dropped at a
 * uniformly random position would break such a run, and stand out by it (measured:
 * "same query as a neighbour" was the feature that told checks apart best). A check whose
 * query has no run of two or more side-by-side real items on the page keeps its drawn position.
 */
export function besideTheirQuery<T extends { query: string; check: boolean }>(items: readonly T[], rng: Rng): T[] {
  const out = items.filter((i) => !i.check);
  items.forEach((item, at) => {
    if (!item.check) return;
    const q = queryText(item.query);
    const run = out.flatMap((o, i) => (!o.check && queryText(o.query) === q ? [i] : []));
    const first = run[0];
    const last = run[run.length - 1];
    // only a true run (the query's items side by side) draws the check in; scattered items do not
    const isRun = first !== undefined && last !== undefined && last - first + 1 === run.length && run.length > 1;
    const slot = isRun ? first + rng.int(last - first + 2) : Math.min(at, out.length);
    out.splice(slot, 0, item);
  });
  return out;
}
