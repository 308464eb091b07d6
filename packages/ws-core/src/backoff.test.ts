import { describe, expect, it } from 'vitest';
import { buildWsUrl, reconnectDelay } from './index';

describe('reconnectDelay', () => {
  it('is base × 2^attempt capped at 30000 by default', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 9].map((a) => reconnectDelay(a))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('accepts a custom base and cap', () => {
    expect(reconnectDelay(0, 10)).toBe(10);
    expect(reconnectDelay(3, 10)).toBe(80);
    expect(reconnectDelay(10, 10, 500)).toBe(500);
  });

  it('treats invalid attempts as 0', () => {
    expect(reconnectDelay(-1)).toBe(1000);
    expect(reconnectDelay(Number.NaN)).toBe(1000);
  });
});

describe('buildWsUrl', () => {
  it('appends ?token= or &token= as needed', () => {
    expect(buildWsUrl('ws://h/ws', 'abc')).toBe('ws://h/ws?token=abc');
    expect(buildWsUrl('ws://h/ws?app=vol', 'abc')).toBe('ws://h/ws?app=vol&token=abc');
    expect(buildWsUrl('ws://h/ws?', 'abc')).toBe('ws://h/ws?token=abc');
    expect(buildWsUrl('ws://h/ws?a=1&', 'abc')).toBe('ws://h/ws?a=1&token=abc');
  });

  it('encodes the token and skips empty tokens', () => {
    expect(buildWsUrl('ws://h/ws', 'a b&c=d')).toBe('ws://h/ws?token=a%20b%26c%3Dd');
    expect(buildWsUrl('ws://h/ws', '')).toBe('ws://h/ws');
    expect(buildWsUrl('ws://h/ws', null)).toBe('ws://h/ws');
    expect(buildWsUrl('ws://h/ws')).toBe('ws://h/ws');
  });
});
