import { traderRoutes as api } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { policyView, setPolicy } from './policy';
import { createStaff, listStaff, updateStaff } from './staff';

const tags = ['trader'];

/**
 * Staff and roles, and the company's approval policy (issue 42, docs/roles.md). The role guard itself is
 * the trader scope's (modules/index.ts), from the route table's roles (packages/contract paths.ts).
 */
export const staff: Capability = {
  trader(app, ctx, trader) {
    const { db } = ctx;
    serve(app, api.staff, async ({ req }) => listStaff(db, await trader.tenantOf(req)), { tags });
    serve(
      app,
      api.createStaff,
      async ({ req, body }) => createStaff(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
    serve(
      app,
      api.updateStaff,
      async ({ req, body }) => updateStaff(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
    serve(app, api.approvalPolicy, async ({ req }) => policyView(db, await trader.tenantOf(req), trader.sub(req)), {
      tags,
    });
    serve(
      app,
      api.setApprovalPolicy,
      async ({ req, body }) => setPolicy(db, await trader.tenantOf(req), trader.sub(req), body),
      { tags },
    );
  },
};
