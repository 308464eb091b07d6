import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const realmFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../docker/keycloak/realm-pfp.json',
);

/** Production's Keycloak realm must match what the embedded provider and the API expect. */
describe('docker/keycloak realm export', () => {
  const realm = JSON.parse(readFileSync(realmFile, 'utf8'));
  const client = realm.clients.find((c: { clientId: string }) => c.clientId === 'shinny_web');

  it('has the public client shinny_web with code flow and PKCE S256 only', () => {
    expect(realm.realm).toBe('pfp');
    expect(client).toMatchObject({
      publicClient: true,
      standardFlowEnabled: true,
      implicitFlowEnabled: false,
      directAccessGrantsEnabled: false,
    });
    expect(client.attributes['pkce.code.challenge.method']).toBe('S256');
    expect(client.redirectUris).toContain('http://localhost:8080/trader/*');
  });

  it('puts the API audience into access tokens and ships the demo trader', () => {
    const mapper = client.protocolMappers.find(
      (m: { protocolMapper: string }) => m.protocolMapper === 'oidc-audience-mapper',
    );
    expect(mapper.config['included.client.audience']).toBe('shinny_web');
    expect(mapper.config['access.token.claim']).toBe('true');
    expect(realm.users.map((u: { username: string }) => u.username)).toContain('trader');
  });
});
