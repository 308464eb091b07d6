// @vitest-environment jsdom
import { installDomPolyfills } from '@pfp/ui/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@pfp/mantine';
import { QueryWrapper } from '../test/queryClient';
import { DataTable, type DataTableColumn, type PageResult, type ServerTableParams } from './index';

beforeAll(installDomPolyfills);

afterEach(() => cleanup());

interface Contract {
  id: number;
  name: string;
  active: boolean;
  created_at: string;
}

const ROWS: Contract[] = Array.from({ length: 45 }, (_, i) => {
  const id = i + 1;
  return {
    id,
    name: id % 5 === 0 ? `box${id}` : `row${id}`,
    active: id % 2 === 0,
    created_at: new Date(Date.UTC(2024, 0, id, 1, 30)).toISOString(),
  };
});

/** 解析本表格会产生的条件：`f contains '...'`、`f is true|false`。 */
function matches(row: Contract, filter: string): boolean {
  if (filter === '') return true;
  return filter.split(' and ').every((condition) => {
    const contains = /^(\w+) contains '((?:[^'\\]|\\.)*)'$/.exec(condition);
    if (contains) {
      const text = (contains[2] ?? '').replace(/\\(.)/g, '$1');
      return String(row[contains[1] as keyof Contract]).includes(text);
    }
    const is = /^(\w+) is (true|false)$/.exec(condition);
    if (is) return row[is[1] as keyof Contract] === (is[2] === 'true');
    throw new Error(`unsupported condition: ${condition}`);
  });
}

/** 内存中的“服务端”：真实地筛选、搜索、排序与切片 45 行数据，并记录每次请求。 */
function createServer(rows: readonly Contract[] = ROWS) {
  const calls: ServerTableParams[] = [];
  const fetchPage = async (params: ServerTableParams): Promise<{ data: PageResult<Contract> }> => {
    calls.push(params);
    await new Promise((resolve) => setTimeout(resolve, 5));
    let result = rows.filter((row) => matches(row, params.filter));
    if (params.search) result = result.filter((row) => row.name.includes(params.search ?? ''));
    result = [...result].sort((a, b) => {
      for (const { field, ascending } of params.sort_fields) {
        const x = a[field as keyof Contract];
        const y = b[field as keyof Contract];
        if (x < y) return ascending ? -1 : 1;
        if (x > y) return ascending ? 1 : -1;
      }
      return 0;
    });
    return { data: { items: result.slice(params.slice_start, params.slice_end), total_count: result.length } };
  };
  return { calls, fetchPage, last: () => calls[calls.length - 1] };
}

const columns: DataTableColumn<Contract>[] = [
  { field: 'id', header: '编号', kind: 'number' },
  { field: 'name', header: '名称', filter: { type: 'text' } },
  { field: 'active', header: '启用', kind: 'boolean', filter: { type: 'boolean' } },
  { field: 'created_at', header: '创建时间', kind: 'date', sortable: false },
];

function renderTable(
  fetchPage: ReturnType<typeof createServer>['fetchPage'],
  extraColumns: DataTableColumn<Contract>[] = [],
) {
  return render(
    <MantineProvider env="test">
      <DataTable<Contract>
        title="合约列表"
        description="全部点价合约"
        columns={[...columns, ...extraColumns]}
        fetchPage={fetchPage}
        enableRowSelection
        showStats
        debounceMs={20}
        renderRowActions={(row) => <button type="button">查看{row.id}</button>}
        renderBulkActions={({ selectedIds }) => <span>批量:{selectedIds.join(',')}</span>}
      />
    </MantineProvider>,
    { wrapper: QueryWrapper },
  );
}

function firstCellTexts(): string[] {
  const body = screen.getAllByRole('rowgroup')[1];
  if (!body) throw new Error('no tbody');
  return within(body)
    .getAllByRole('row')
    .map((row) => within(row).getAllByRole('cell')[1]?.textContent ?? '');
}

describe('DataTable', () => {
  it('renders the card, the first page and the pagination bar', async () => {
    const server = createServer();
    renderTable(server.fetchPage);

    expect(screen.getByText('正在加载...')).toBeTruthy();
    expect(await screen.findByText('显示第 1 - 20 条，共 45 条记录')).toBeTruthy();
    expect(screen.getByText('第 1 / 3 页')).toBeTruthy();
    expect(screen.getByText('合约列表')).toBeTruthy();
    expect(screen.getByText('全部点价合约')).toBeTruthy();
    expect(screen.getByRole('button', { name: '刷新' })).toBeTruthy();
    expect(screen.getByPlaceholderText('搜索...')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '操作' })).toBeTruthy();
    expect(screen.getByText('查看1')).toBeTruthy();
    expect(screen.getByText('总数：45')).toBeTruthy();
    // 日期列：北京时间 'YYYY-MM-DD HH:mm'
    expect(screen.getByText('2024-01-01 09:30')).toBeTruthy();
    // 布尔列
    expect(screen.getAllByText('否').length).toBeGreaterThan(0);

    expect(server.last()).toEqual({ filter: '', sort_fields: [], slice_start: 0, slice_end: 20 });
    expect(firstCellTexts()).toHaveLength(20);

    const prev = screen.getByRole('button', { name: '上一页' }) as HTMLButtonElement;
    const first = screen.getByRole('button', { name: '首页' }) as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    expect(first.disabled).toBe(true);
    const jump = screen.getByRole('textbox', { name: '跳转到' }) as HTMLInputElement;
    expect(jump.disabled).toBe(true);
    const pageSize = screen.getByRole('combobox', { name: '每页条数' }) as HTMLSelectElement;
    expect(pageSize.value).toBe('20');
    expect([...pageSize.options].map((o) => o.value)).toEqual(['10', '20', '50', '100']);
  });

  it('pages forward and backward; page size change resets to page 1', async () => {
    const server = createServer();
    renderTable(server.fetchPage);
    await screen.findByText('显示第 1 - 20 条，共 45 条记录');

    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    expect(await screen.findByText('显示第 21 - 40 条，共 45 条记录')).toBeTruthy();
    expect(screen.getByText('第 2 / 3 页')).toBeTruthy();
    expect(server.last()).toMatchObject({ slice_start: 20, slice_end: 40 });

    fireEvent.click(screen.getByRole('button', { name: '末页' }));
    expect(await screen.findByText('显示第 41 - 45 条，共 45 条记录')).toBeTruthy();
    expect((screen.getByRole('button', { name: '下一页' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: '上一页' }));
    await screen.findByText('第 2 / 3 页');

    fireEvent.change(screen.getByRole('combobox', { name: '每页条数' }), { target: { value: '10' } });
    expect(await screen.findByText('显示第 1 - 10 条，共 45 条记录')).toBeTruthy();
    expect(screen.getByText('第 1 / 5 页')).toBeTruthy();
    expect(server.last()).toMatchObject({ slice_start: 0, slice_end: 10 });
  });

  it('sends a text filter to fetchPage, resets the page and can clear it', async () => {
    const server = createServer();
    renderTable(server.fetchPage);
    await screen.findByText('显示第 1 - 20 条，共 45 条记录');
    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    await screen.findByText('第 2 / 3 页');

    fireEvent.change(screen.getByRole('textbox', { name: '按名称筛选' }), { target: { value: 'x' } });
    expect(await screen.findByText('显示第 1 - 9 条，共 9 条记录')).toBeTruthy();
    expect(server.last()).toEqual({ filter: "name contains 'x'", sort_fields: [], slice_start: 0, slice_end: 20 });
    expect(screen.getByText('第 1 / 1 页')).toBeTruthy();
    // 清除筛选行显示表达式
    expect(screen.getByText("name contains 'x'")).toBeTruthy();

    fireEvent.change(screen.getByRole('combobox', { name: '按启用筛选' }), { target: { value: 'true' } });
    expect(await screen.findByText('显示第 1 - 4 条，共 4 条记录')).toBeTruthy();
    expect(server.last()?.filter).toBe("name contains 'x' and active is true");

    fireEvent.click(screen.getByRole('button', { name: '清除筛选' }));
    expect(await screen.findByText('显示第 1 - 20 条，共 45 条记录')).toBeTruthy();
    expect(server.last()?.filter).toBe('');
    expect((screen.getByRole('textbox', { name: '按名称筛选' }) as HTMLInputElement).value).toBe('');
  });

  it('global search goes to the server and resets the page', async () => {
    const server = createServer();
    renderTable(server.fetchPage);
    await screen.findByText('显示第 1 - 20 条，共 45 条记录');
    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    await screen.findByText('第 2 / 3 页');

    fireEvent.change(screen.getByRole('searchbox', { name: '全局搜索' }), { target: { value: 'box4' } });
    expect(await screen.findByText('显示第 1 - 2 条，共 2 条记录')).toBeTruthy();
    expect(server.last()).toMatchObject({ search: 'box4', slice_start: 0 });
  });

  it('keeps the selection by row id across pages', async () => {
    const server = createServer();
    renderTable(server.fetchPage);
    await screen.findByText('显示第 1 - 20 条，共 45 条记录');
    expect(screen.getByText('已选择 0 项')).toBeTruthy();

    const boxes = screen.getAllByRole('checkbox', { name: '选择此行' });
    fireEvent.click(boxes[0] as HTMLElement);
    fireEvent.click(boxes[2] as HTMLElement);
    expect(screen.getByText('已选择 2 项')).toBeTruthy();
    expect(screen.getByText('批量:1,3')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    await screen.findByText('显示第 21 - 40 条，共 45 条记录');
    expect(screen.getByText('已选择 2 项')).toBeTruthy();
    const pageTwo = screen.getAllByRole('checkbox', { name: '选择此行' }) as HTMLInputElement[];
    expect(pageTwo.some((box) => box.checked)).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: '全选' }));
    expect(screen.getByText('已选择 22 项')).toBeTruthy();
    expect(screen.getByText('已选：22')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '首页' }));
    await screen.findByText('显示第 1 - 20 条，共 45 条记录');
    const pageOne = screen.getAllByRole('checkbox', { name: '选择此行' }) as HTMLInputElement[];
    expect(pageOne.filter((box) => box.checked)).toHaveLength(2);
    expect(pageOne[0]?.checked).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: '取消全选' }));
    expect(screen.getByText('已选择 0 项')).toBeTruthy();
  });

  it('sorts on the server with aria-sort: a click replaces the sort, shift-click adds columns', async () => {
    const server = createServer();
    renderTable(server.fetchPage, [{ field: 'code', header: '代码', accessor: (row) => `C${row.id}` }]);
    await screen.findByText('显示第 1 - 20 条，共 45 条记录');

    const idHeader = screen.getByRole('columnheader', { name: /编号/ });
    expect(idHeader.getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: '创建时间' }).hasAttribute('aria-sort')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: '按编号排序' }));
    await waitFor(() => expect(idHeader.getAttribute('aria-sort')).toBe('ascending'));
    fireEvent.click(screen.getByRole('button', { name: '按编号排序' }));
    await waitFor(() => expect(server.last()?.sort_fields).toEqual([{ field: 'id', ascending: false }]));
    expect(idHeader.getAttribute('aria-sort')).toBe('descending');
    await waitFor(() => expect(firstCellTexts()[0]).toBe('45'));

    // A plain click replaces the sort.
    fireEvent.click(screen.getByRole('button', { name: '按名称排序' }));
    await waitFor(() => expect(server.last()?.sort_fields).toEqual([{ field: 'name', ascending: true }]));
    expect(idHeader.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(screen.getByRole('button', { name: '按编号排序' }));
    fireEvent.click(screen.getByRole('button', { name: '按编号排序' }));
    await waitFor(() => expect(server.last()?.sort_fields).toEqual([{ field: 'id', ascending: false }]));

    fireEvent.click(screen.getByRole('button', { name: '按启用排序' }), { shiftKey: true });
    await waitFor(() =>
      expect(server.last()?.sort_fields).toEqual([
        { field: 'id', ascending: false },
        { field: 'active', ascending: true },
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: '按名称排序' }), { shiftKey: true });
    await waitFor(() => expect(server.last()?.sort_fields).toHaveLength(3));
    // 第 4 列：最多 3 列，最早的排序列被移除
    fireEvent.click(screen.getByRole('button', { name: '按代码排序' }), { shiftKey: true });
    await waitFor(() =>
      expect(server.last()?.sort_fields).toEqual([
        { field: 'active', ascending: true },
        { field: 'name', ascending: true },
        { field: 'code', ascending: true },
      ]),
    );
    expect(idHeader.getAttribute('aria-sort')).toBe('none');
  });

  it('shows the empty state', async () => {
    renderTable(createServer([]).fetchPage);
    expect(await screen.findByText('暂无数据')).toBeTruthy();
    expect(screen.getByText('显示第 0 - 0 条，共 0 条记录')).toBeTruthy();
    expect(screen.getByText('第 1 / 1 页')).toBeTruthy();
  });

  it('a failed load shows 数据加载失败 with the Chinese detail, never the transport text', async () => {
    renderTable(() => Promise.reject(new Error('服务器维护中')));
    let alert = await screen.findByRole('alert');
    expect(within(alert).getByText('数据加载失败')).toBeTruthy();
    expect(alert.textContent).toBe('数据加载失败服务器维护中');
    cleanup();

    // The api client's HttpError: the server's error.message, not 'HTTP error! status: …, body: {…}'.
    const body = JSON.stringify({ result: 'error', error: { code: 'INVALID_INPUT', message: '筛选字段 x 不存在' } });
    const httpError = Object.assign(new Error(`HTTP error! status: 400, body: ${body}`), {
      status: 400,
      serverMessage: '筛选字段 x 不存在',
    });
    renderTable(() => Promise.reject(httpError));
    alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('数据加载失败筛选字段 x 不存在');
    cleanup();

    renderTable(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await screen.findByRole('alert')).textContent).toBe('数据加载失败');
    cleanup();

    renderTable(() => Promise.resolve({ nonsense: true } as never));
    expect((await screen.findByRole('alert')).textContent).toBe('数据加载失败');
  });

  it('a filterable column without config shows 筛选配置错误', async () => {
    const server = createServer();
    renderTable(server.fetchPage, [{ field: 'remark', header: '备注', filterable: true }]);
    await screen.findByText('显示第 1 - 20 条，共 45 条记录');
    expect(screen.getByText('筛选配置错误')).toBeTruthy();
    // 配置错误的筛选不会发送给服务端
    expect(server.last()?.filter).toBe('');
  });
});

describe('DataTable on a narrow screen', () => {
  /** A ResizeObserver that reports the observed box as `width` px wide. */
  function observeAs(width: number) {
    Object.defineProperty(globalThis, 'ResizeObserver', {
      writable: true,
      configurable: true,
      value: class {
        constructor(private readonly callback: ResizeObserverCallback) {}
        observe(target: Element) {
          const entry = {
            target,
            contentRect: { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: width, width, height: 300 },
          };
          this.callback([entry as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
        }
        unobserve() {}
        disconnect() {}
      },
    });
  }
  afterEach(installDomPolyfills);

  const prioritised: DataTableColumn<Contract>[] = [
    { field: 'id', header: '编号', width: 80 },
    { field: 'name', header: '名称', width: 200, priority: 2 },
    { field: 'active', header: '启用', kind: 'boolean', width: 100, priority: 3 },
    { field: 'created_at', header: '创建时间', kind: 'date', width: 100, twoLine: true },
  ];

  function renderPrioritised() {
    render(
      <MantineProvider env="test">
        <DataTable<Contract>
          title="合约列表"
          columns={prioritised}
          fetchPage={createServer().fetchPage}
          actionsColumnWidth={90}
          renderRowActions={(row) => <button type="button">查看{row.id}</button>}
        />
      </MantineProvider>,
      { wrapper: QueryWrapper },
    );
  }

  it('hides the lowest-priority columns that do not fit; the actions column stays, sticky', async () => {
    // 80 + 200 + 100 + 100 + 90 = 570 px of columns in a 400 px box: 启用 (3) and then 名称 (2) go.
    observeAs(400);
    renderPrioritised();
    await screen.findByText('显示第 1 - 20 条，共 45 条记录');
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /启用/ })).toBeNull());
    expect(screen.queryByRole('columnheader', { name: /名称/ })).toBeNull();
    expect(screen.getByRole('columnheader', { name: /编号/ })).toBeTruthy();
    const actions = screen.getByRole('columnheader', { name: '操作' });
    expect(actions.style.position).toBe('sticky');
    expect(screen.getByText('查看1')).toBeTruthy();
    // The two-line date cell: day over time.
    expect(screen.getAllByText('2024-01-01')[0]).toBeTruthy();
    expect(screen.getAllByText('09:30')[0]).toBeTruthy();
  });

  it('shows every column when they fit', async () => {
    observeAs(1200);
    renderPrioritised();
    await screen.findByText('显示第 1 - 20 条，共 45 条记录');
    expect(screen.getByRole('columnheader', { name: /启用/ })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /名称/ })).toBeTruthy();
  });
});
