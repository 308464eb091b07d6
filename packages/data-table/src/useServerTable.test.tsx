// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { QueryWrapper } from '../test/queryClient';
import { useServerTable, type PageResult, type ServerTableParams, type UseServerTableOptions } from './useServerTable';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

interface Row {
  id: number;
}

const rowsOf = (start: number, end: number): Row[] =>
  Array.from({ length: end - start }, (_, i) => ({ id: start + i }));

/** 可控的 fetchPage：每次请求返回一个由测试决定何时完成的 promise。 */
function deferredServer() {
  const pending: Array<{
    params: ServerTableParams;
    signal: AbortSignal;
    resolve: (page: PageResult<Row>) => void;
    reject: (reason: unknown) => void;
  }> = [];
  const fetchPage = (params: ServerTableParams, signal: AbortSignal) =>
    new Promise<PageResult<Row>>((resolve, reject) => pending.push({ params, signal, resolve, reject }));
  return { pending, fetchPage };
}

function setup(options: Partial<UseServerTableOptions<Row>> & Pick<UseServerTableOptions<Row>, 'fetchPage'>) {
  return renderHook(() => useServerTable<Row>(options), { wrapper: QueryWrapper });
}

describe('useServerTable', () => {
  it('builds request params and exposes rows / totalCount', async () => {
    const server = deferredServer();
    const { result } = setup({
      fetchPage: server.fetchPage,
      initialSorting: [{ field: 'id', ascending: false }],
      filterConfigs: { name: { type: 'text' } },
      initialFilters: { name: "a'b" },
    });
    expect(result.current.loading).toBe(true);
    expect(server.pending[0]?.params).toEqual({
      filter: "name contains 'a\\'b'",
      sort_fields: [{ field: 'id', ascending: false }],
      slice_start: 0,
      slice_end: 20,
    });
    act(() => server.pending[0]?.resolve({ items: rowsOf(0, 20), total_count: 45 }));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.rows).toHaveLength(20);
    expect(result.current.rowIds[0]).toBe('0');
    expect(result.current.pagination).toMatchObject({ currentPage: 1, totalPages: 3, totalCount: 45 });
    expect(result.current.visibleRange).toEqual({ from: 1, to: 20 });
  });

  it('keeps previous rows while loading and ignores out-of-order responses', async () => {
    const server = deferredServer();
    const { result } = setup({ fetchPage: server.fetchPage });
    act(() => server.pending[0]?.resolve({ items: rowsOf(0, 20), total_count: 100 }));
    await waitFor(() => expect(result.current.rows).toHaveLength(20));

    act(() => result.current.setPage(2));
    act(() => result.current.setPage(3));
    expect(server.pending).toHaveLength(3);
    expect(server.pending[1]?.signal.aborted).toBe(true);
    expect(result.current.loading).toBe(true);
    expect(result.current.rows[0]?.id).toBe(0);

    // 第 3 页先返回，随后过期的第 2 页才返回：第 2 页的应答被忽略。
    await act(async () => server.pending[2]?.resolve({ items: rowsOf(40, 60), total_count: 100 }));
    await act(async () => server.pending[1]?.resolve({ items: rowsOf(20, 40), total_count: 100 }));
    expect(result.current.rows[0]?.id).toBe(40);
    expect(result.current.loading).toBe(false);
    expect(result.current.visibleRange).toEqual({ from: 41, to: 60 });
  });

  it('resets the page to 1 on page size, filter and search changes', async () => {
    const server = deferredServer();
    const { result } = setup({ fetchPage: server.fetchPage, filterConfigs: { active: { type: 'boolean' } } });
    const last = () => server.pending[server.pending.length - 1]?.params;

    act(() => result.current.setPage(3));
    expect(last()).toMatchObject({ slice_start: 40, slice_end: 60 });
    act(() => result.current.setPageSize(50));
    expect(result.current.page).toBe(1);
    expect(last()).toMatchObject({ slice_start: 0, slice_end: 50 });

    act(() => result.current.setPage(2));
    act(() => result.current.setFilter('active', 'false'));
    expect(result.current.page).toBe(1);
    expect(last()).toMatchObject({ filter: 'active is false', slice_start: 0 });

    act(() => result.current.setPage(2));
    act(() => result.current.setSearch(' cu '));
    expect(result.current.page).toBe(1);
    expect(last()).toEqual({ filter: 'active is false', sort_fields: [], slice_start: 0, slice_end: 50, search: 'cu' });

    act(() => result.current.clearFilters());
    expect(last()?.filter).toBe('');
  });

  it('folds the search into the filter when searchField is set', () => {
    const server = deferredServer();
    const { result } = setup({ fetchPage: server.fetchPage, searchField: 'name' });
    act(() => result.current.setSearch('x'));
    expect(server.pending[server.pending.length - 1]?.params).toEqual({
      filter: "name contains 'x'",
      sort_fields: [],
      slice_start: 0,
      slice_end: 20,
    });
  });

  it('limits sorting to 3 columns and validates page numbers', () => {
    const server = deferredServer();
    const { result } = setup({ fetchPage: server.fetchPage });
    act(() => result.current.setSorting(['a', 'b', 'c', 'd'].map((field) => ({ field, ascending: true }))));
    expect(result.current.sorting.map((s) => s.field)).toEqual(['a', 'b', 'c']);
    expect(() => result.current.setPage(0)).toThrow(RangeError);
    expect(() => result.current.setPageSize(0)).toThrow('每页条数必须是大于等于 1 的整数');
  });

  it('keeps the selection by id and remembers selected rows across pages', async () => {
    const server = deferredServer();
    const { result } = setup({ fetchPage: server.fetchPage, getRowId: (row) => `r${row.id}` });
    await act(async () => server.pending[0]?.resolve({ items: rowsOf(0, 20), total_count: 40 }));
    act(() => result.current.toggleRowSelected('r1'));
    act(() => result.current.selectRows(['r2', 'r3']));
    act(() => result.current.toggleRowSelected('r3'));
    act(() => result.current.setPage(2));
    await act(async () => server.pending[1]?.resolve({ items: rowsOf(20, 40), total_count: 40 }));
    expect([...result.current.selectedIds]).toEqual(['r1', 'r2']);
    expect(result.current.selectedRows).toEqual([{ id: 1 }, { id: 2 }]);
    act(() => result.current.clearSelection());
    expect(result.current.selectedIds.size).toBe(0);
  });

  it('reports errors, keeps the rows, and recovers on refetch', async () => {
    const server = deferredServer();
    const { result } = setup({ fetchPage: server.fetchPage });
    await act(async () => server.pending[0]?.resolve({ items: rowsOf(0, 3), total_count: 3 }));
    act(() => result.current.refetch());
    await act(async () => server.pending[1]?.reject('网络错误'));
    expect(result.current.error?.message).toBe('网络错误');
    expect(result.current.rows).toHaveLength(3);
    act(() => result.current.refetch());
    await act(async () => server.pending[2]?.resolve({ items: rowsOf(0, 2), total_count: 2 }));
    expect(result.current.error).toBeNull();
    expect(result.current.rows).toHaveLength(2);
  });

  it('moves back to the last page when the data shrinks', async () => {
    const server = deferredServer();
    const { result } = setup({ fetchPage: server.fetchPage, initialPage: 3 });
    await act(async () => server.pending[0]?.resolve({ items: [], total_count: 25 }));
    expect(result.current.page).toBe(2);
    expect(server.pending[1]?.params).toMatchObject({ slice_start: 20, slice_end: 40 });
  });

  it('auto-refreshes only when enabled (default 30000 ms)', async () => {
    vi.useFakeTimers();
    const calls: ServerTableParams[] = [];
    const fetchPage = (params: ServerTableParams) => {
      calls.push(params);
      return Promise.resolve({ data: { items: rowsOf(0, 1), total_count: 1 } });
    };
    const off = setup({ fetchPage });
    await act(async () => vi.advanceTimersByTimeAsync(60_000));
    expect(calls).toHaveLength(1);
    off.unmount();

    calls.length = 0;
    setup({ fetchPage, autoRefresh: true });
    await act(async () => vi.advanceTimersByTimeAsync(29_999));
    expect(calls).toHaveLength(1);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(calls).toHaveLength(2);
    cleanup();

    calls.length = 0;
    setup({ fetchPage, refetchIntervalMs: 1000 });
    for (let i = 0; i < 3; i++) await act(async () => vi.advanceTimersByTimeAsync(1000));
    expect(calls).toHaveLength(4);
  });
});
