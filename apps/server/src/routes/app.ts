import { appRoutes as api } from '@pfp/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { serve } from '../http/route';

/** The shell's runtime configuration (where traders sign in) and the health check. */
export async function appRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, api.health, () => ({ status: 'ok' as const, uptime_s: Math.round(process.uptime()) }), { tags: ['app'] });
  serve(app, api.config, () => ({ oidc: { authority: ctx.oidc.authority, client_id: ctx.oidc.clientId } }), {
    tags: ['app'],
  });
}
