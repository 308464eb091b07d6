import { BROKERS } from '@pfp/i18n';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { marginSettings } from './margin';
import { firstIssue, safeParseZh } from './primitives';
import { myOrdersRequest, pricerLoginInput, submitOrderInput } from './pricer';
import { appRoutes, marketRoutes, pricerRoutes, traderRoutes } from './routes';
import {
  createContractInput,
  createPricerInput,
  profileInput,
  resetPricerPasswordInput,
  updatePricerStatusInput,
} from './trader';
import { viewRequest } from './view';
import { curvePatch, wsRequest } from './ws';

const fails = (schema: z.ZodType, input: unknown) => {
  const r = safeParseZh(schema, input);
  if (r.success) throw new Error(`accepted ${JSON.stringify(input)}`);
  return firstIssue(r.error);
};

describe('trader requests', () => {
  it('profile: a simulated account needs no broker; a real one a listed broker and an account', () => {
    expect(safeParseZh(profileInput, { company_name: ' 甲 ', tq_account_config: { is_sim: true } }).data).toEqual({
      company_name: '甲',
      tq_account_config: { is_sim: true, broker_name: '', futures_account: '' },
    });
    const real = {
      company_name: '甲',
      tq_account_config: { is_sim: false, broker_name: BROKERS[0], futures_account: '1' },
    };
    expect(safeParseZh(profileInput, real).success).toBe(true);
    expect(fails(profileInput, { ...real, tq_account_config: { is_sim: false, futures_account: '1' } })).toEqual({
      message: '请输入期货公司',
      field: 'tq_account_config.broker_name',
    });
    expect(
      fails(profileInput, {
        ...real,
        tq_account_config: { is_sim: false, broker_name: '某期货', futures_account: '1' },
      }).message,
    ).toBe('期货公司不在支持列表中');
    expect(fails(profileInput, { company_name: '  ', tq_account_config: { is_sim: true } })).toEqual({
      message: '请输入公司名称',
      field: 'company_name',
    });
  });

  it('create-contract: the SPEC messages', () => {
    const good = {
      pricer_id: 1,
      product_name: '沪铜',
      instrument_id: 'SHFE.cu2601',
      direction: 'BUY',
      total_quantity: 5,
      basis: 0,
      fixing_deadline: '2026-03-31',
    };
    expect(safeParseZh(createContractInput, good).data).toMatchObject({ name: '', status: 'active' });
    expect(fails(createContractInput, { ...good, pricer_id: '1' }).message).toBe('请选择客户');
    expect(fails(createContractInput, { ...good, direction: 'LONG' }).message).toBe('请选择期货方向');
    expect(fails(createContractInput, { ...good, total_quantity: 0 }).message).toBe('总数量必须大于0');
    expect(fails(createContractInput, { ...good, instrument_id: '' }).message).toBe('请选择期货合约');
  });

  it('create-pricer-user and reset: lengths and the phone rule', () => {
    expect(safeParseZh(createPricerInput, { username: 'ab', password: 'cd', phone: '' }).success).toBe(true);
    expect(fails(createPricerInput, { username: 'a', password: 'cd' }).message).toBe('用户名至少 2 个字符');
    expect(fails(createPricerInput, { username: 'ab', password: '' }).message).toBe('密码不能为空');
    expect(fails(createPricerInput, { username: 'ab', password: 'cd', phone: '12345' }).message).toBe(
      '手机号格式不正确',
    );
    expect(fails(resetPricerPasswordInput, { user_id: [7], new_password: 'xy' }).field).toBe('user_id');
  });

  it('update-pricer-status: only active or inactive', () => {
    expect(safeParseZh(updatePricerStatusInput, { user_id: 3, new_status: 'inactive' }).success).toBe(true);
    expect(safeParseZh(updatePricerStatusInput, { user_id: 3, new_status: 'active' }).success).toBe(true);
    for (const new_status of ['pending', 'deleted', '', null])
      expect(fails(updatePricerStatusInput, { user_id: 3, new_status })).toEqual({
        message: '客户状态无效，只能是 active 或 inactive',
        field: 'new_status',
      });
    expect(fails(updatePricerStatusInput, { user_id: '3', new_status: 'active' }).field).toBe('user_id');
  });
});

describe('customer requests', () => {
  it('login takes an integer tenant id', () => {
    expect(safeParseZh(pricerLoginInput, { tenant_id: 1, username: 'u', password: 'p' }).success).toBe(true);
    expect(fails(pricerLoginInput, { tenant_id: '1', username: 'u', password: 'p' })).toEqual({
      message: '公司代码无效',
      field: 'tenant_id',
    });
  });

  it('submit-order: price absent = market; the SPEC messages', () => {
    expect(safeParseZh(submitOrderInput, { contract_id: 3, quantity: 2 }).data).toEqual({
      contract_id: 3,
      quantity: 2,
      price: 0,
    });
    expect(fails(submitOrderInput, { quantity: 1 }).message).toBe('请选择合同');
    expect(fails(submitOrderInput, { contract_id: 3, quantity: 0 }).message).toBe('请输入有效的成交数量');
    expect(fails(submitOrderInput, { contract_id: 3, quantity: 1, price: -1 }).message).toBe('限价单必须有有效价格');
    expect(fails(submitOrderInput, { contract_id: 3, quantity: 1, price: 'x' }).field).toBe('price');
  });

  it("my-orders: '', null and 'all' mean no condition", () => {
    expect(safeParseZh(myOrdersRequest, { contract_id: 'all', status: '', start_date: null }).data).toEqual({});
    expect(fails(myOrdersRequest, { contract_id: '3' }).field).toBe('contract_id');
    expect(fails(myOrdersRequest, { status: 'DONE' }).message).toBe('订单状态无效');
    expect(fails(myOrdersRequest, { start_date: '2025/01/01' }).message).toBe('开始日期格式应为 YYYY-MM-DD');
  });
});

describe('view request', () => {
  it('takes the SPEC params and at most 3 sort fields', () => {
    const body = {
      filter: "status = 'ALIVE'",
      sort_fields: [{ field: 'id', ascending: false }],
      slice_start: 0,
      slice_end: 20,
      group_by_fields: ['status'],
      aggregate_fields: [{ field: 'id', op: 'count' }],
    };
    expect(safeParseZh(viewRequest, body).data).toEqual(body);
    const four = Array.from({ length: 4 }, (_, i) => ({ field: `f${i}`, ascending: true }));
    expect(fails(viewRequest, { sort_fields: four })).toEqual({ message: '排序字段最多 3 个', field: 'sort_fields' });
    expect(fails(viewRequest, { sort_fields: [{ field: 'id', ascending: 'yes' }] })).toEqual({
      message:
        '排序参数 sort_fields 格式错误，应为 [{ field: 字段名, ascending: true/false }]（位置：sort_fields[0].ascending）',
      field: 'sort_fields[0].ascending',
    });
    expect(fails(viewRequest, { search: 'a\u0000' })).toEqual({ message: '搜索内容包含无效字符', field: 'search' });
    expect(fails(viewRequest, [])).toEqual({ message: '请求参数必须是 JSON 对象', field: undefined });
  });
});

describe('WebSocket messages', () => {
  it('parses each action and refuses an unknown one', () => {
    const subscribe = {
      aid: 'subscribe_view',
      req_id: 'r1',
      view_id: 'volatility-curves-view',
      view_name: 'volatility-curves-view',
      data_source: 'volatility_curves',
      params: { items: [{ symbol: 'SHFE.cu2601', option_type: 'CALL', price_type: 'last' }] },
    };
    expect(wsRequest.parse(subscribe)).toEqual(subscribe);
    expect(wsRequest.parse({ aid: 'peek_message' })).toEqual({ aid: 'peek_message' });
    expect(wsRequest.safeParse({ aid: 'drop_tables', req_id: 'x' }).success).toBe(false);
    expect(wsRequest.safeParse({ aid: 'unsubscribe_view', req_id: '', view_id: 'v' }).success).toBe(false);
    const patch = { patch: { k: { _key: 'k', curve_data: [[1, 0.2]] } } };
    expect(curvePatch.parse(patch)).toEqual(patch);
    expect(
      curvePatch.parse({ patch: { k: { _key: 'k', curve_data: [[1, 0]], tick_time: 1_795_000_000_000 } } }),
    ).toEqual({
      patch: { k: { _key: 'k', curve_data: [[1, 0]], tick_time: 1_795_000_000_000 } },
    });
  });
});

describe('route catalogue', () => {
  const all = [traderRoutes, pricerRoutes, marketRoutes, appRoutes].flatMap((g) => Object.values(g));
  it('has one entry per method and path, all under /api', () => {
    const keys = all.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of all) expect(r.path).toMatch(/^\/api\//);
  });
  it('names every call of SPEC §7', () => {
    const paths = new Set(all.map((r) => r.path));
    for (const p of [
      '/api/trader/view/my-self',
      '/api/trader/view/tqsdk-status',
      '/api/trader/rpc/trader-profile',
      '/api/trader/view/orders',
      '/api/trader/view/contracts',
      '/api/trader/view/users',
      '/api/trader/view/products',
      '/api/trader/view/instruments',
      '/api/trader/rpc/cancel-order',
      '/api/trader/rpc/update-contract-status',
      '/api/trader/rpc/create-contract',
      '/api/trader/rpc/create-pricer-user',
      '/api/trader/rpc/reset-pricer-password',
      '/api/trader/rpc/update-pricer-status',
      '/api/pricer/rpc/pricer-login',
      '/api/pricer/rpc/get-tenant-info',
      '/api/pricer/view/my-data-snapshot',
      '/api/pricer/view/my-orders',
      '/api/pricer/rpc/submit-order',
      '/api/pricer/rpc/cancel-order',
      '/api/rpc/exchange_list',
      '/api/rpc/product_list',
      '/api/rpc/future_list',
      // docs/fixing.md
      '/api/trader/view/confirmation',
      '/api/trader/view/exposure',
      '/api/trader/view/audit-log',
      '/api/trader/export/fixings',
      '/api/pricer/view/confirmation',
      '/api/pricer/export/fixings',
    ]) {
      expect(paths.has(p), p).toBe(true);
    }
  });
});

describe('names people read (issue 30)', () => {
  it('refuse direction controls and names of only invisible characters, in Chinese, naming the field', async () => {
    const { createContractInput } = await import('./trader');
    const base = {
      pricer_id: 1,
      product_name: '铜',
      instrument_id: 'SHFE.cu2701',
      direction: 'BUY',
      total_quantity: 10,
      basis: 0,
      fixing_deadline: '2099-01-05',
    };
    expect(fails(createContractInput, { ...base, name: '合同\u202Egnp.exe' })).toEqual({
      field: 'name',
      message: '合同名称不能包含文字方向控制字符',
    });
    expect(fails(createContractInput, { ...base, name: '\u200B\u200B' })).toEqual({
      field: 'name',
      message: '合同名称不能只有空白或不可见字符',
    });
    // Blank: the server names it (instrument and customer), as before.
    expect(safeParseZh(createContractInput, { ...base, name: '   ' }).success).toBe(true);
    expect(fails(profileInput, { company_name: '\u2067甲\u2069', tq_account_config: { is_sim: true } })).toEqual({
      field: 'company_name',
      message: '公司名称不能包含文字方向控制字符',
    });
    expect(fails(profileInput, { company_name: '\uFEFF', tq_account_config: { is_sim: true } }).field).toBe(
      'company_name',
    );
  });
});

describe('margin rates (issue 40)', () => {
  it('refuses a rate that is not 0 but would be stored as 0, like any rate with more than four decimals', () => {
    for (const rate of [1e-300, 5e-324, 0.00001, 0.12345])
      expect(marginSettings.safeParse({ default_margin_rate: rate }).error?.issues[0]?.message, String(rate)).toBe(
        '保证金比例最多四位小数',
      );
    for (const rate of [0, 0.0001, 0.05, 0.1234, 1])
      expect(marginSettings.parse({ default_margin_rate: rate }).default_margin_rate).toBe(rate);
  });
});
