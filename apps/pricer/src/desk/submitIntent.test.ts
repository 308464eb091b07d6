import { HttpError } from '@pfp/api-client';
import { describe, expect, it } from 'vitest';
import { newClientOrderId, SubmitIntent } from './submitIntent';

const order = { contract_id: 1, quantity: 2, price: 3000 };

describe('client_order_id of the desk', () => {
  it('is fresh for every submit that went through or was refused', () => {
    const intent = new SubmitIntent();
    const first = intent.idFor(order);
    intent.settled();
    const second = intent.idFor(order);
    expect(second).not.toBe(first);
    intent.settled(new HttpError(400, '{"result":"error","error":{"message":"价格超出涨跌停板"}}'));
    expect(intent.idFor(order)).not.toBe(second);
  });

  it('is the same on a retry after no answer or a server error, until the order changes', () => {
    const intent = new SubmitIntent();
    const first = intent.idFor(order);
    intent.settled(new TypeError('Failed to fetch'));
    expect(intent.idFor(order)).toBe(first);
    intent.settled(new HttpError(503, ''));
    expect(intent.idFor(order)).toBe(first);
    expect(intent.idFor({ ...order, quantity: 3 })).not.toBe(first);
  });

  it('fits the server rule: at most 64 characters of [A-Za-z0-9._:-]', () => {
    const ids = new Set(Array.from({ length: 100 }, newClientOrderId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
  });
});
