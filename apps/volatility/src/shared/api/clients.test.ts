import { describe, expect, it } from 'vitest';
import { volatilityApiConfig } from './clients';

describe('volatilityApiConfig', () => {
  it('puts the curve WebSocket at /ws/volatility on the page origin, ws or wss by scheme', () => {
    expect(volatilityApiConfig({ protocol: 'http:', host: '127.0.0.1:8091' })).toEqual({
      volatilityCurveApi: { type: 'websocket', url: 'ws://127.0.0.1:8091/ws/volatility' },
      baseHttpApi: { type: 'http', url: '' },
    });
    expect(volatilityApiConfig({ protocol: 'https:', host: 'pfp.example.com' }).volatilityCurveApi!.url).toBe(
      'wss://pfp.example.com/ws/volatility',
    );
  });
});
