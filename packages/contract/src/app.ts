import { z } from 'zod';

/** The calls outside SPEC §7 that the shell needs: runtime configuration and health. */

/** GET /api/config: where traders sign in, and whether the demo data is on (the customer login's prefill). */
export const appConfig = z.object({
  oidc: z.object({ authority: z.string(), client_id: z.string() }),
  demo: z.boolean(),
});
export type AppConfig = z.infer<typeof appConfig>;

/** GET /api/health: 200 only when the database answered within 2 s (else 503 db_unavailable with the reason). */
export const health = z.object({
  status: z.literal('ok'),
  database: z.literal('ok'),
  database_ms: z.number(),
  uptime_s: z.number(),
});
