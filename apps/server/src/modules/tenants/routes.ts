import { pricerRoutes as pricerApi, STAFF_ROLES, traderRoutes as api } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { findTenantId, getProfile, saveProfile, tenantInfo } from './tenants';

const tags = ['trader'];

/** The trading company: the trader's own settings and gateway status, and the name a customer sees at login. */
export const tenants: Capability = {
  open(app, ctx) {
    serve(app, pricerApi.tenantInfo, ({ body }) => tenantInfo(ctx.db, body.tenant_id), { tags: ['pricer'] });
  },

  trader(app, ctx, trader) {
    const { db } = ctx;
    serve(app, api.mySelf, ({ req }) => getProfile(db, trader.sub(req), req.staffRoles), { tags });

    serve(
      app,
      api.tqsdkStatus,
      async ({ req }) => {
        const tenantId = await findTenantId(db, trader.sub(req));
        if (tenantId === undefined) return { status: 'error' as const, connected: false, message: '尚未配置交易账户' };
        const status = ctx.gatewayStatus?.(tenantId) ?? { status: 'error' as const, message: '交易网关未启动' };
        return { ...status, connected: status.status === 'ok' };
      },
      { tags },
    );

    serve(
      app,
      api.saveProfile,
      async ({ req, body }) => {
        const tenantId = await saveProfile(db, ctx.secrets, trader.sub(req), body);
        ctx.onProfileSaved?.(tenantId);
        return getProfile(db, trader.sub(req), req.staffRoles ?? STAFF_ROLES);
      },
      { tags },
    );
  },
};
