import type { PricerDeskPatch, Snapshot } from '@pfp/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { snapshotKeys } from './desk';
import { applyDeskPatch } from './live';

/*
 * The live desk's pushed snapshot is the customer's, sent alike to every person signed in for it; who is signed in
 * (「点价人：赵敏」) is this session's, read over HTTP. A push must not drop it (the 授权点价人 e2e saw the line vanish
 * when the socket's first patch landed after the HTTP read).
 */
describe('a pushed snapshot', () => {
  const pushed = { contracts: [], market_data: {}, timestamp: '2026-11-30T01:00:00.000Z' };

  it('keeps the signed-in person read over HTTP, and replaces the rest', () => {
    const client = new QueryClient();
    const key = snapshotKeys(7).all;
    const person = { id: 3, name: '赵敏', active: true };
    client.setQueryData(key, {
      ...pushed,
      timestamp: '2026-11-30T00:00:00.000Z',
      orders: [],
      person,
    } as unknown as Snapshot);
    applyDeskPatch(client, 7, { snapshot: pushed } as unknown as PricerDeskPatch);
    expect(client.getQueryData<Snapshot>(key)).toMatchObject({ person, timestamp: pushed.timestamp });
  });

  it('before the HTTP read, leaves the person unread (the read in flight brings it)', () => {
    const client = new QueryClient();
    applyDeskPatch(client, 7, { snapshot: pushed } as unknown as PricerDeskPatch);
    expect(client.getQueryData<Snapshot>(snapshotKeys(7).all)).not.toHaveProperty('person');
  });
});
