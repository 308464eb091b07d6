import { appRoutes as api } from '@pfp/contract';
import { sql } from 'kysely';
import type { Capability } from '../context';
import { within } from '../../platform/db/resilience';
import { serve } from '../../platform/http/route';

export const HEALTH_DB_TIMEOUT_MS = 2000;

/** The shell's runtime configuration (where traders sign in) and the health check. */
export const system: Capability = {
  open(app, ctx) {
    // 200 only when a query on the app's tables answered within 2 s; else a 503 with the reason.
    serve(
      app,
      api.health,
      async ({ req }) => {
        const t0 = performance.now();
        await within(sql`select 1 from tenants limit 1`.execute(ctx.db), HEALTH_DB_TIMEOUT_MS).catch((err: unknown) => {
          req.log.warn({ err }, 'health: the database did not answer');
          throw err;
        });
        return {
          status: 'ok' as const,
          database: 'ok' as const,
          database_ms: Math.round(performance.now() - t0),
          uptime_s: Math.round(process.uptime()),
        };
      },
      { tags: ['app'] },
    );
    serve(
      app,
      api.config,
      () => ({ oidc: { authority: ctx.oidc.authority, client_id: ctx.oidc.clientId }, demo: ctx.config.seedDemo }),
      { tags: ['app'] },
    );
  },
};
