import { describe, expect, it } from 'vitest';
import {
  keptFields,
  matchesSearch,
  pageHref,
  pageOf,
  pageWindow,
  plainQuery,
  readTableState,
  sortRows,
  tableControls,
  type TableParams,
} from './table-query.js';

const P: TableParams = { search: 'iq', sort: 'isort', desc: 'idesc', page: 'page', size: 'isize' };

describe('readTableState', () => {
  it('reads search, sort, direction, page and size, and falls back on anything else', () => {
    expect(readTableState({ iq: '  q01 ', isort: 'votes', idesc: '1', page: '3', isize: '10' }, P, ['item', 'votes'], 'item')).toEqual({
      search: 'q01',
      sort: 'votes',
      desc: true,
      page: 3,
      size: 10,
    });
    expect(readTableState({ isize: '7' }, P, ['item'], 'item').size).toBe(7);
    expect(readTableState({}, P, ['item'], 'item', 10).size).toBe(10);
    expect(readTableState({ isort: 'nope', idesc: 'yes', page: '-2', isize: '501' }, P, ['item', 'votes'], 'item')).toEqual({
      search: '',
      sort: 'item',
      desc: false,
      page: 1,
      size: 25,
    });
  });

  it('keeps only plain string parameters of the query', () => {
    expect(plainQuery({ a: 'x', b: ['y', 'z'], c: { d: 'e' } })).toEqual({ a: 'x' });
    expect(plainQuery(undefined)).toEqual({});
  });
});

describe('search, sort and pages', () => {
  it('matches every word in some field, ignoring case', () => {
    expect(matchesSearch('', ['a'])).toBe(true);
    expect(matchesSearch('Q01 river', ['q01', 'how long is the Danube river'])).toBe(true);
    expect(matchesSearch('q01 nile', ['q01', 'how long is the Danube river'])).toBe(false);
  });

  it('sorts by value either way, ties by id', () => {
    const rows = [
      { id: 'b', v: 2 },
      { id: 'a', v: 2 },
      { id: 'c', v: 1 },
    ];
    const ids = (desc: boolean) =>
      sortRows(
        rows,
        (r) => r.v,
        (r) => r.id,
        desc,
      ).map((r) => r.id);
    expect(ids(false)).toEqual(['c', 'a', 'b']);
    expect(ids(true)).toEqual(['a', 'b', 'c']);
  });

  it('cuts a page, the last one when asked beyond it', () => {
    const rows = Array.from({ length: 24 }, (_, i) => i);
    expect(pageOf(rows, 2, 10)).toEqual({ rows: [10, 11, 12, 13, 14, 15, 16, 17, 18, 19], total: 24, page: 2, pages: 3, from: 11, to: 20 });
    expect(pageOf(rows, 9, 10)).toMatchObject({ page: 3, from: 21, to: 24 });
    expect(pageOf([], 1, 10)).toEqual({ rows: [], total: 0, page: 1, pages: 1, from: 0, to: 0 });
  });

  it('numbers the pages around the current one, with gaps', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(6, 11)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 11]);
    expect(pageWindow(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('links and forms keep the other table’s state', () => {
  const q = { sort: 'checks', wq: 'A1', iq: 'q01', page: '2' };

  it('changes some parameters of the query, drops empty ones, escapes values', () => {
    expect(pageHref('/console/batches/b', q, { page: null, iq: 'a&b c' }, 'items')).toBe(
      '/console/batches/b?sort=checks&wq=A1&iq=a%26b+c#items',
    );
    expect(pageHref('/p', {}, {}, 'x')).toBe('/p#x');
  });

  it('gives a table’s form the other parameters as hidden fields', () => {
    expect(keptFields(q, ['iq', 'page'])).toEqual([
      { name: 'sort', value: 'checks' },
      { name: 'wq', value: 'A1' },
    ]);
  });

  it('builds headers that sort, turning the direction on a second click, and page links', () => {
    const state = readTableState(q, P, ['item', 'votes'], 'item');
    const args = () => ({
      path: '/b',
      q,
      params: P,
      own: ['items'],
      state,
      paged: pageOf(
        Array.from({ length: 30 }, (_, i) => i),
        state.page,
        state.size,
      ),
      columns: [
        { key: 'item', label: 'Item' },
        { key: null, label: 'Debate' },
      ],
      fragment: 'items',
    });
    const controls = tableControls(args());
    expect(controls.headers).toEqual([
      { label: 'Item', href: '/b?sort=checks&wq=A1&iq=q01&isort=item&idesc=1#items', ariaSort: 'ascending', arrow: '↑' },
      { label: 'Debate', href: '', ariaSort: '', arrow: '' },
    ]);
    expect(controls.keep).toEqual([
      { name: 'sort', value: 'checks' },
      { name: 'wq', value: 'A1' },
    ]);
    expect(controls).toMatchObject({ range: '26–30 of 30', paged: true, prev: '/b?sort=checks&wq=A1&iq=q01#items', next: '' });
    expect(controls.sizes.filter((o) => o.selected)).toEqual([{ value: 25, selected: true }]);
    const odd = tableControls({ ...args(), state: { ...state, size: 7 } });
    expect(odd.sizes.map((o) => o.value)).toEqual([5, 7, 10, 25, 50, 100]);
    expect(controls.pages.map((p) => [p.n, p.current])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});
