import { traderRoutes as api } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { serve } from '../../platform/http/route';
import { runView } from '../../platform/views/engine';
import type { Capability } from '../context';
import { auditLogView } from './views';

/** The trader's audit log viewer (docs/fixing.md): read as written, never from the views' cache. */
export const audit: Capability = {
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
        // The action as the trader reads it (issue 30); an action without a label keeps its key.
        const label = zh.fixing.audit.actions;
        return {
          ...page,
          items: page.items.map((i) =>
            typeof i.action === 'string' ? { ...i, action_label: label[i.action] ?? i.action } : i,
          ),
        };
      },
      { tags: ['fixing'] },
    );
  },
};
