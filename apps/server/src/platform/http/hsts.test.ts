import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { HSTS, installSecurityHeaders } from './securityHeaders';

/** HSTS only over HTTPS (issue 30): never on plain HTTP, whatever a client claims. */
async function server(trustProxy: boolean | string[]) {
  const app = Fastify({ trustProxy });
  await installSecurityHeaders(app, { publicUrl: 'https://pfp.example.com', remotes: {}, oidcAuthority: '' });
  app.get('/x', async () => 'ok');
  await app.ready();
  return app;
}

describe('Strict-Transport-Security', () => {
  it('is not sent over plain HTTP, nor for a forged X-Forwarded-Proto', async () => {
    const app = await server(false);
    expect((await app.inject({ url: '/x' })).headers['strict-transport-security']).toBeUndefined();
    const forged = await app.inject({ url: '/x', headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
    await app.close();
  });

  it('is sent behind a trusted proxy that says https', async () => {
    const app = await server(['127.0.0.1']);
    const res = await app.inject({ url: '/x', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe(HSTS);
    const plain = await app.inject({ url: '/x', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    await app.close();
  });
});
