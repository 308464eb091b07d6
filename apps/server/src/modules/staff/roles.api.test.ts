import { STAFF_ROLES, traderPaths } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness';
import { setupTenant, type Tenant } from '../../../test/tenants';
import { declareRoles } from '../../platform/http/guards';
import { traderRoles } from '../roles';

/*
 * Staff roles (issue 42, docs/roles.md): the route × role table, the guard's Chinese 403, staff managed by an
 * admin, and the single-trader company that keeps every role.
 */

let h: Harness;
let a: Tenant;
const signIn = (sub: string) => h.idp.sign({}, { sub });

beforeAll(async () => {
  h = await startHarness();
  a = await setupTenant(h, 'roles-owner-a', '甲贸易', ['alice']);
});
afterAll(() => h.close());

/** The table as docs/roles.md prints it: one row per trader call, ✓ under each role that may make it. */
function roleTable(): string {
  const head = `| 调用 | ${STAFF_ROLES.map((r) => `${zh.roles.labels[r]} ${r}`).join(' | ')} |`;
  const rule = `|${' --- |'.repeat(STAFF_ROLES.length + 1)}`;
  const rows = Object.values(traderPaths).map(
    (p) =>
      `| ${p.method} ${p.path} | ${STAFF_ROLES.map((r) => ((p.roles as readonly string[]).includes(r) ? '✓' : '')).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
}

describe('the route × role table', () => {
  it('every trader route the server serves declares its roles, and every declared route is served', () => {
    const table = roleTable();
    console.log(`route × role (${Object.keys(traderPaths).length} trader calls):\n${table}`);
    for (const p of Object.values(traderPaths)) {
      expect(p.roles.length, `${p.path} has no roles`).toBeGreaterThan(0);
      expect(h.app.hasRoute({ method: p.method, url: p.path }), `${p.method} ${p.path} not served`).toBe(true);
    }
  });

  it('a trader route missing from the table stops the server from starting', async () => {
    const app = Fastify();
    const start = async () => {
      await app.register(async (scope) => {
        scope.addHook('onRoute', declareRoles(traderRoles));
        scope.post('/api/trader/view/my-self', async () => ({}));
        scope.post('/api/trader/rpc/not-in-the-table', async () => ({}));
      });
      await app.ready();
    };
    await expect(start()).rejects.toThrow('trader route POST /api/trader/rpc/not-in-the-table declares no staff roles');
  });
});

describe('staff and roles', () => {
  it('a company from before roles keeps working: its trader holds every role', async () => {
    const me = await h.call('/api/trader/view/my-self', {}, a.token);
    expect(me.body.data.roles).toEqual([...STAFF_ROLES]);
  });

  it('an admin creates staff; each may only do what its roles allow (a Chinese 403 naming the role)', async () => {
    const created = await h.call(
      '/api/trader/rpc/create-staff',
      { username: 'viewer-a', password: 'viewer-pass-1', full_name: '王只读', roles: ['viewer'] },
      a.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data).toMatchObject({
      username: 'viewer-a',
      full_name: '王只读',
      roles: ['viewer'],
      status: 'active',
    });
    const viewer = await signIn(created.body.data.user_id);

    // Reads: the company's, not a new one.
    const me = await h.call('/api/trader/view/my-self', {}, viewer);
    expect(me.body.data).toMatchObject({ tenant_id: a.tenantId, roles: ['viewer'] });
    expect((await h.call('/api/trader/view/audit-log', {}, viewer)).status).toBe(200);

    const refused = await h.call(
      '/api/trader/rpc/record-funds',
      { pricer_id: a.pricers.alice!.id, kind: 'deposit', amount: 100 },
      viewer,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'role_refused',
      message: '此操作需要「财务」角色，您的角色是「只读」',
    });
    const settings = await h.call(
      '/api/trader/rpc/trader-profile',
      { company_name: '改名', tq_account_config: { is_sim: true } },
      viewer,
    );
    expect(settings.status).toBe(403);
    expect(settings.body.error.message).toContain('管理员');
    const staffList = await h.call('/api/trader/view/staff', {}, viewer);
    expect(staffList.status).toBe(403);

    // A change applies at once: given finance, the same token records funds.
    const upd = await h.call(
      '/api/trader/rpc/update-staff',
      { user_id: created.body.data.user_id, roles: ['viewer', 'finance'] },
      a.token,
    );
    expect(upd.status).toBe(200);
    const ok = await h.call(
      '/api/trader/rpc/record-funds',
      { pricer_id: a.pricers.alice!.id, kind: 'deposit', amount: 100, bank_ref: 'B-1' },
      viewer,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    // Disabled: refused everything at once.
    await h.call('/api/trader/rpc/update-staff', { user_id: created.body.data.user_id, status: 'disabled' }, a.token);
    const off = await h.call('/api/trader/view/my-self', {}, viewer);
    expect(off.status).toBe(403);
    expect(off.body.error).toMatchObject({ code: 'staff_disabled', message: zh.roles.disabled });
  });

  it('a taken username, the last admin and disabling oneself are refused in Chinese', async () => {
    const dup = await h.call(
      '/api/trader/rpc/create-staff',
      { username: 'Viewer-A', password: 'another-pass', full_name: '重名', roles: ['trader'] },
      a.token,
    );
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe('用户名已存在');
    const self = await h.call(
      '/api/trader/rpc/update-staff',
      { user_id: 'roles-owner-a', status: 'disabled' },
      a.token,
    );
    expect(self.status).toBe(403);
    const demote = await h.call(
      '/api/trader/rpc/update-staff',
      { user_id: 'roles-owner-a', roles: ['trader'] },
      a.token,
    );
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toBe('公司至少需要一位在职的管理员');
    const bad = await h.call(
      '/api/trader/rpc/create-staff',
      { username: 'x1', password: 'short', full_name: '某', roles: ['boss'] },
      a.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/密码|角色/);
  });

  it('a company whose owner has no staff row (the demo seed) lists the owner as admin and can disable staff', async () => {
    const t = await h.db
      .insertInto('tenants')
      .values({ owner_sub: 'seeded-owner', company_name: '演示', is_sim: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const owner = await signIn('seeded-owner');
    const made = await h.call(
      '/api/trader/rpc/create-staff',
      { username: 'seeded-risk', password: 'seeded-pass-1', full_name: '种子风控', roles: ['risk'] },
      owner,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const off = await h.call(
      '/api/trader/rpc/update-staff',
      { user_id: made.body.data.user_id, status: 'disabled' },
      owner,
    );
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const list = await h.call('/api/trader/view/staff', {}, owner);
    expect(list.body.data.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: 'seeded-owner', roles: [...STAFF_ROLES], status: 'active' }),
        expect.objectContaining({ username: 'seeded-risk', status: 'disabled' }),
      ]),
    );
    expect(list.body.data.items).toHaveLength(2);
    expect(t.id).toBeGreaterThan(0);
  });

  it('staff of one company never see or change another company', async () => {
    const b = await setupTenant(h, 'roles-owner-b', '乙贸易', []);
    const list = await h.call('/api/trader/view/staff', {}, b.token);
    expect(list.body.data.items.map((i: { user_id: string }) => i.user_id)).toEqual(['roles-owner-b']);
    const other = await h.call(
      '/api/trader/rpc/update-staff',
      { user_id: 'roles-owner-a', roles: ['viewer'] },
      b.token,
    );
    expect(other.status).toBe(404);
  });
});
