import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { PricerTokens } from './auth/pricerTokens';
import { loadSecret, SecretBox } from './auth/secrets';
import { TraderVerifier } from './auth/traderTokens';
import { loadConfig } from './config';
import { migrate, openDatabase } from './db/database';
import { seedCatalogue } from './seed/catalogue';
import { DEMO_TRADER_SUB, seedDemo } from './seed/demo';

const config = loadConfig();
mkdirSync(config.dataDir, { recursive: true });
const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') });
await migrate(db);
await seedCatalogue(db);
const secret = loadSecret(config.secretKey, config.dataDir);

// Until the embedded provider is wired in, trader calls need OIDC_ISSUER (otherwise they are 401).
const issuer = config.oidcIssuer ?? `http://localhost:${config.port}/realms/pfp`;
const app = await buildApp({
  config,
  db,
  secrets: new SecretBox(secret),
  pricerTokens: new PricerTokens(secret),
  traderVerifier: new TraderVerifier({
    issuer,
    audience: config.oidcAudience,
    jwks: config.oidcIssuer ? new URL(`${issuer}/protocol/openid-connect/certs`) : { keys: [] },
  }),
});
if (config.seedDemo && (await seedDemo(db))) app.log.info({ owner: DEMO_TRADER_SUB }, 'demo data seeded');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    void app
      .close()
      .then(() => db.destroy())
      .then(() => process.exit(0));
  });
}

await app.listen({ host: config.host, port: config.port });
if (!config.appsDir) app.log.warn('no app builds found: run `pnpm build` to serve the apps');
