import type { HttpClient } from './http';

export type ApiType = 'http' | 'websocket' | (string & {});

export interface ApiEndpointConfig {
  type: ApiType;
  url: string;
}

export type ApiConfig = Record<string, ApiEndpointConfig>;

export interface ApiFactories {
  http: (url: string) => HttpClient;
  websocket: (url: string) => unknown;
}

export interface ApiRegistry {
  /** 取出名为 name 的客户端；不存在时抛出 `API client '<name>' not found`。 */
  get<T = unknown>(name: string): T;
  has(name: string): boolean;
  names(): string[];
}

/** 根据配置创建各个 API 客户端；不支持的类型会 `console.warn` 并跳过。 */
export function createApiRegistry(config: ApiConfig, factories: ApiFactories): ApiRegistry {
  const clients = new Map<string, unknown>();
  for (const [name, entry] of Object.entries(config)) {
    const { type, url } = entry;
    if (type === 'http') {
      clients.set(name, factories.http(url));
    } else if (type === 'websocket') {
      clients.set(name, factories.websocket(url));
    } else {
      console.warn('Unsupported API type: ' + type);
    }
  }
  return {
    get<T = unknown>(name: string): T {
      if (!clients.has(name)) throw new Error("API client '" + name + "' not found");
      return clients.get(name) as T;
    },
    has: (name) => clients.has(name),
    names: () => [...clients.keys()],
  };
}
