import { z } from 'zod';

/** The calls outside SPEC §7 that the shell needs: runtime configuration and health. */

/** GET /api/config: where traders sign in. */
export const appConfig = z.object({
  oidc: z.object({ authority: z.string(), client_id: z.string() }),
});
export type AppConfig = z.infer<typeof appConfig>;

/** GET /api/health. */
export const health = z.object({ status: z.literal('ok'), uptime_s: z.number() });
