import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/tempDir';

/**
 * The built server on the Node the repo's scripts run on (the `node` devDependency, Node 24 LTS):
 * it starts, answers, stops on SIGTERM, and says nothing about an unsupported runtime
 * (oidc-provider warns on any Node but an LTS release from 22 on).
 */
const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/main.js');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

describe('the built server', () => {
  const dataDir = tempDir('pfp-main-');
  it('starts without a runtime warning, answers and stops', { timeout: 120_000 }, async () => {
    expect(existsSync(main), `${main} is missing: run pnpm build first`).toBe(true);
    const port = await freePort();
    const child = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        APPS_DIR: '',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      for (let i = 0; !output.includes('快期点价宝 on'); i++) {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
        if (i > 900) throw new Error(`server did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(await health.json()).toMatchObject({ result: 'ok' });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exit).toBe(0);
    expect(output).not.toMatch(/Unsupported runtime|WARNING/i);
    expect(output).toContain('shutting down');
  });
});
