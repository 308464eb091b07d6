import { mkdirSync } from 'node:fs';
import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
mkdirSync(config.dataDir, { recursive: true });
const app = await buildApp(config);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    void app.close().then(() => process.exit(0));
  });
}

await app.listen({ host: config.host, port: config.port });
if (!config.appsDir) app.log.warn('no app builds found: run `pnpm build` to serve the apps');
