import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiRegistry, createHttpClient, type HttpClient } from './index';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createApiRegistry', () => {
  it('creates clients per type via factories', () => {
    const http = vi.fn((url: string) => createHttpClient({ baseUrl: url }));
    const websocket = vi.fn((url: string) => ({ kind: 'ws', url }));
    const registry = createApiRegistry(
      {
        pricing: { type: 'http', url: 'http://127.0.0.1:1/api' },
        live: { type: 'websocket', url: 'ws://127.0.0.1:1/ws' },
      },
      { http, websocket },
    );
    expect(http).toHaveBeenCalledWith('http://127.0.0.1:1/api');
    expect(websocket).toHaveBeenCalledWith('ws://127.0.0.1:1/ws');
    expect(typeof registry.get<HttpClient>('pricing').rpc).toBe('function');
    expect(registry.get<{ kind: string; url: string }>('live')).toEqual({ kind: 'ws', url: 'ws://127.0.0.1:1/ws' });
    expect(registry.has('live')).toBe(true);
    expect(registry.names().sort()).toEqual(['live', 'pricing']);
  });

  it('warns about and skips unsupported types', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const registry = createApiRegistry(
      { legacy: { type: 'grpc', url: 'x' } },
      { http: (url) => createHttpClient({ baseUrl: url }), websocket: () => ({}) },
    );
    expect(warn).toHaveBeenCalledWith('Unsupported API type: grpc');
    expect(registry.has('legacy')).toBe(false);
    expect(() => registry.get('legacy')).toThrow("API client 'legacy' not found");
  });

  it('throws for missing names', () => {
    const registry = createApiRegistry(
      {},
      { http: (url) => createHttpClient({ baseUrl: url }), websocket: () => ({}) },
    );
    expect(() => registry.get('nope')).toThrowError(new Error("API client 'nope' not found"));
  });
});
