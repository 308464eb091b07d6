import { auditExportQuery, traderRoutes as api } from '@pfp/contract';
import type { z } from 'zod';
import { auditWorkbook } from './export';
import { zh } from '@pfp/i18n';
import { serve } from '../../platform/http/route';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema';
import { runView } from '../../platform/views/engine';
import type { Capability } from '../context';
import { auditLogView } from './views';
import { AUDIT_SQL } from './sql';

/** The trader's audit log viewer (docs/fixing.md): read as written, never from the views' cache. */
export const audit: Capability = {
  sql: AUDIT_SQL,
  trader(app, ctx, trader) {
    serve(
      app,
      api.auditLog,
      async ({ req, body }) => {
        const scope: Record<string, string | number> = { tenant_id: await trader.tenantOf(req) };
        if (body.action) scope.action = body.action;
        if (body.actor) scope.actor = body.actor;
        const page = await runView(ctx.db, auditLogView, body, scope, {
          ...(body.start_date ? { createdFrom: body.start_date } : {}),
          ...(body.end_date ? { createdTo: body.end_date } : {}),
        });
        // The action as the trader reads it, and the names beside the ids of its payload (issue 30).
        return { ...page, items: await withNames(ctx.db, Number(scope.tenant_id), page.items) };
      },
      { tags: ['fixing'] },
    );

    // The filtered log as an xlsx file (issue 30): the same filters as the view.
    app.route({
      method: 'GET',
      url: api.exportAuditLog.path,
      schema: { querystring: auditExportQuery, tags: ['fixing'] },
      handler: async (req, reply) => {
        const tenantId = await trader.tenantOf(req);
        const p = req.query as z.output<typeof auditExportQuery>;
        const file = await auditWorkbook(ctx.db, tenantId, p, (items) => withNames(ctx.db, tenantId, items));
        const day = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
        reply.header(
          'content-disposition',
          `attachment; filename="audit_${day}.xlsx"; filename*=UTF-8''${encodeURIComponent(`审计日志_${day}.xlsx`)}`,
        );
        reply.header('cache-control', 'no-store');
        reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        return reply.send(file);
      },
    });
  },
};

/** The entries with the action's label and the names beside their ids. */
async function withNames(db: Kysely<DB>, tenantId: number, items: Record<string, unknown>[]) {
  const label = zh.fixing.audit.actions;
  const names = await namesOf(db, tenantId, items);
  return items.map((i) => {
    const refs = idsOf(i.payload);
    return {
      ...i,
      ...(typeof i.action === 'string' ? { action_label: label[i.action] ?? i.action } : {}),
      contract_name: refs.contract !== undefined ? (names.contracts.get(refs.contract) ?? null) : null,
      customer_name: refs.customer !== undefined ? (names.customers.get(refs.customer) ?? null) : null,
    };
  });
}

/** The contract and customer ids an audited payload names. */
function idsOf(payload: unknown): { contract?: number; customer?: number } {
  let p: Record<string, unknown>;
  try {
    p = typeof payload === 'string' ? (JSON.parse(payload) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
  const num = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined);
  const contract = num(p.contract_id);
  const customer = num(p.user_id) ?? num(p.pricer_id);
  return { ...(contract !== undefined ? { contract } : {}), ...(customer !== undefined ? { customer } : {}) };
}

/** The names of the tenant's contracts and customers a page of the log names: two indexed reads. */
async function namesOf(db: Kysely<DB>, tenantId: number, items: Record<string, unknown>[]) {
  const refs = items.map((i) => idsOf(i.payload));
  const contractIds = [...new Set(refs.flatMap((r) => (r.contract !== undefined ? [r.contract] : [])))];
  const customerIds = [...new Set(refs.flatMap((r) => (r.customer !== undefined ? [r.customer] : [])))];
  const [contracts, customers] = await Promise.all([
    contractIds.length
      ? db
          .selectFrom('contracts')
          .select(['id', 'name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', contractIds)
          .execute()
      : [],
    customerIds.length
      ? db
          .selectFrom('pricer_users')
          // The 客户全称 (issue 41), the login while it is empty.
          .select(['id', sql<string>`coalesce(nullif(btrim(full_name), ''), username)`.as('username')])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', customerIds)
          .execute()
      : [],
  ]);
  return {
    contracts: new Map(contracts.map((c) => [c.id, c.name])),
    customers: new Map(customers.map((c) => [c.id, c.username])),
  };
}
