/**
 * Paging, sorting and search of the console's long tables, on the server (pure): the state
 * lives in the page's query string, so links and plain GET forms work without script, and a
 * page shows one page of rows however large the batch. Two tables share the batch page, each
 * with its own parameter names; a link or form of one keeps the other's state.
 */

/** The sizes the form offers; a link may ask for any size from 1 to MAX_PAGE_SIZE. */
export const PAGE_SIZES = [5, 10, 25, 50, 100] as const;
export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 25;

/** The query parameters of one table. */
export interface TableParams {
  readonly search: string;
  readonly sort: string;
  readonly desc: string;
  readonly page: string;
  readonly size: string;
}

export interface TableState<K extends string> {
  readonly search: string;
  readonly sort: K;
  readonly desc: boolean;
  readonly page: number;
  readonly size: number;
}

/** The page's query as plain strings: repeated or nested parameters (not ours) are dropped. */
export type PageQuery = Readonly<Record<string, string>>;

export function plainQuery(raw: unknown): PageQuery {
  if (typeof raw !== 'object' || raw === null) return {};
  return Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** A table's state from the query; anything unknown or out of range falls back to the default. */
export function readTableState<K extends string>(
  q: PageQuery,
  names: TableParams,
  keys: readonly K[],
  fallback: K,
  defaultSize: number = DEFAULT_PAGE_SIZE,
): TableState<K> {
  const sort = (keys as readonly string[]).includes(q[names.sort] ?? '') ? (q[names.sort] as K) : fallback;
  const size = Number(q[names.size]);
  const page = Number.parseInt(q[names.page] ?? '', 10);
  return {
    search: (q[names.search] ?? '').trim().slice(0, 200),
    sort,
    desc: q[names.desc] === '1',
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    size: Number.isSafeInteger(size) && size >= 1 && size <= MAX_PAGE_SIZE ? size : defaultSize,
  };
}

/** Whether every word of `search` occurs in one of the fields (case-insensitive); an empty search keeps all. */
export function matchesSearch(search: string, fields: readonly string[]): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const text = fields.map((f) => f.toLowerCase());
  return words.every((w) => text.some((f) => f.includes(w)));
}

/** Sorted by `value` (numbers before text compare as numbers), ties by `id`, so pages never overlap. */
export function sortRows<T>(rows: readonly T[], value: (r: T) => number | string, id: (r: T) => string, desc: boolean): T[] {
  const sign = desc ? -1 : 1;
  const cmp = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows].sort((a, b) => sign * cmp(value(a), value(b)) || cmp(id(a), id(b)));
}

export interface Paged<T> {
  readonly rows: T[];
  readonly total: number;
  /** The page shown: the one asked for, or the last when it asked beyond it. */
  readonly page: number;
  readonly pages: number;
  /** 1-based positions of the first and last row shown (0 and 0 without rows). */
  readonly from: number;
  readonly to: number;
}

export function pageOf<T>(rows: readonly T[], page: number, size: number): Paged<T> {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const shown = Math.min(pages, Math.max(1, page));
  const start = (shown - 1) * size;
  const slice = rows.slice(start, start + size);
  return { rows: slice, total: rows.length, page: shown, pages, from: slice.length ? start + 1 : 0, to: start + slice.length };
}

/** `path` with the query changed (null removes a parameter, as does an empty value) and a fragment. */
export function pageHref(path: string, q: PageQuery, changes: Readonly<Record<string, string | null>>, fragment: string): string {
  const params = new URLSearchParams();
  const merged: Record<string, string | null> = { ...q, ...changes };
  for (const [k, v] of Object.entries(merged)) if (v !== null && v !== '') params.set(k, v);
  const search = params.toString();
  return `${path}${search ? `?${search}` : ''}#${fragment}`;
}

/** The query's other parameters, as hidden fields of a GET form that sets `own` (so the other table keeps its state). */
export function keptFields(q: PageQuery, own: readonly string[]): { name: string; value: string }[] {
  return Object.entries(q)
    .filter(([k, v]) => !own.includes(k) && v !== '')
    .map(([name, value]) => ({ name, value }));
}

/** Numbered page links around the current page (first, last, and two either side), with gaps marked. */
export function pageWindow(page: number, pages: number): (number | 'gap')[] {
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])]
    .filter((n) => n >= 1 && n <= pages)
    .sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  for (const n of shown) {
    const last = out.at(-1);
    if (typeof last === 'number' && n > last + 1) out.push('gap');
    out.push(n);
  }
  return out;
}

/** A column of a table: its header, and the sort key it sorts by (null: not sortable). */
export interface TableColumn {
  readonly key: string | null;
  readonly label: string;
}

/**
 * What a table's template shows around its rows: a GET form with a search box, the sort
 * and its direction (the headers are hidden on a phone) and the page size, whose hidden fields
 * keep the rest of the query; headers that sort (again: the other direction); page links. `own`: further parameters the form sets (a filter of this table).
 */
export function tableControls<K extends string>(o: {
  path: string;
  q: PageQuery;
  params: TableParams;
  own: readonly string[];
  state: TableState<K>;
  paged: Paged<unknown>;
  columns: readonly TableColumn[];
  fragment: string;
}) {
  const { path, q, params, state, paged, fragment } = o;
  const to = (changes: Record<string, string | null>) => pageHref(path, q, changes, fragment);
  const toPage = (n: number) => to({ [params.page]: n === 1 ? null : String(n) });
  return {
    searchName: params.search,
    sizeName: params.size,
    sortName: params.sort,
    descName: params.desc,
    search: state.search,
    desc: state.desc,
    keep: keptFields(q, [...Object.values(params), ...o.own]),
    sortOptions: o.columns.flatMap((c) => (c.key === null ? [] : [{ value: c.key, label: c.label, selected: c.key === state.sort }])),
    sizes: [...new Set<number>([...PAGE_SIZES, state.size])].sort((a, b) => a - b).map((n) => ({ value: n, selected: n === state.size })),
    headers: o.columns.map((c) => {
      const current = c.key !== null && c.key === state.sort;
      return {
        label: c.label,
        href: c.key === null ? '' : to({ [params.sort]: c.key, [params.desc]: current && !state.desc ? '1' : null, [params.page]: null }),
        ariaSort: current ? (state.desc ? 'descending' : 'ascending') : '',
        arrow: current ? (state.desc ? '↓' : '↑') : '',
      };
    }),
    range: paged.total === 0 ? 'none' : `${paged.from}–${paged.to} of ${paged.total}`,
    paged: paged.pages > 1,
    prev: paged.page > 1 ? toPage(paged.page - 1) : '',
    next: paged.page < paged.pages ? toPage(paged.page + 1) : '',
    pages: pageWindow(paged.page, paged.pages).map((n) =>
      n === 'gap' ? { gap: true, n: 0, href: '', current: false } : { gap: false, n, href: toPage(n), current: n === paged.page },
    ),
  };
}
