import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { ViewConnection } from './connection';
import {
  ConnectionGate,
  DEFAULT_WS_LIMITS,
  FuturesBudget,
  SignedInBudget,
  TRY_AGAIN_LATER,
  anonymousViewBudget,
  WS_LIMIT_MESSAGES,
  clientAddress,
  type WsLimits,
} from './limits';
import type { WsRegistry } from './registry';

export const WS_PATHS = ['/ws', '/ws/volatility'];

/**
 * The view protocol's WebSocket endpoints on the HTTP server. The token comes as ?token=;
 * `authenticate` decides whether it is valid and who it is (an anonymous caller reaches public views only).
 */
export function attachViewServer(
  app: FastifyInstance,
  registry: WsRegistry,
  /** Who the token is (any truthy value, handed to the sources), or false/undefined when it is not valid. */
  authenticate: (token: string) => Promise<unknown>,
  opts: {
    limits?: Partial<WsLimits>;
    trustProxy?: string[] | false;
    /**
     * The company a signed-in caller's volatility views count against (SignedInBudget); by default each
     * caller is its own.
     */
    accountOf?: (caller: unknown) => Promise<string> | string;
  } = {},
) {
  const limits: WsLimits = { ...DEFAULT_WS_LIMITS, ...opts.limits };
  const gate = new ConnectionGate(limits);
  const anonymousFutures = new FuturesBudget(limits.maxAnonymousFutures);
  const anonymousBudget = anonymousViewBudget(anonymousFutures);
  const signedIn = new SignedInBudget(limits);
  const accountOf = async (caller: unknown) =>
    opts.accountOf ? String(await opts.accountOf(caller)) : JSON.stringify(caller);
  // Past the soft limit (an error reply) the library closes the connection (1009).
  const wss = new WebSocketServer({ noServer: true, maxPayload: Math.max(256 * 1024, limits.maxMessageBytes * 4) });
  const connections = new Set<ViewConnection>();
  /** Open anonymous connections per address, oldest first: where an eviction takes its connection. */
  const anonymousByAddress = new Map<string, WebSocket[]>();
  /** Evicted connections whose slot the gate already gave to another: not released again on close. */
  const handedOver = new WeakSet<WebSocket>();
  const refuse = (ws: WebSocket, message: string) => {
    ws.send(JSON.stringify({ aid: 'error', result: 'error', error: { code: 'TOO_MANY_CONNECTIONS', message } }));
    ws.close(TRY_AGAIN_LATER, 'too many connections');
  };
  let closing = false;
  const refuseClosing = (socket: { end(s: string): void }) => {
    socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
  };
  app.server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!WS_PATHS.includes(url.pathname)) return socket.destroy();
    if (closing) return refuseClosing(socket);
    const token = url.searchParams.get('token') ?? '';
    const who = async () => {
      const caller = token ? await authenticate(token).catch(() => false) : false;
      return { caller, account: caller ? await accountOf(caller).catch(() => JSON.stringify(caller)) : '' };
    };
    void who().then(({ caller, account }) => {
      const ok = Boolean(caller);
      if (closing) return refuseClosing(socket);
      if (token && !ok) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        // Refused by a cap: told why in Chinese (a browser cannot read an HTTP refusal), then closed.
        const address = clientAddress(req, opts.trustProxy ?? false);
        const admitted = gate.admit(address, ok);
        if (admitted.refused !== null) return refuse(ws, admitted.refused);
        if (admitted.evict !== undefined) {
          // The budget is full and this address is below its fair share: the largest address's newest
          // anonymous connection gives up its slot (already counted as this one's).
          const victim = anonymousByAddress.get(admitted.evict)?.pop();
          if (victim) {
            handedOver.add(victim);
            refuse(victim, WS_LIMIT_MESSAGES.busy);
          }
        }
        const budget = ok ? signedIn.of(account) : anonymousBudget;
        const conn = new ViewConnection(ws, registry, ok ? caller : false, app.log, limits, budget);
        connections.add(conn);
        if (!ok) anonymousByAddress.set(address, [...(anonymousByAddress.get(address) ?? []), ws]);
        ws.on('close', () => {
          connections.delete(conn);
          if (!ok) {
            const list = anonymousByAddress.get(address)?.filter((w) => w !== ws) ?? [];
            if (list.length) anonymousByAddress.set(address, list);
            else anonymousByAddress.delete(address);
          }
          if (!handedOver.has(ws)) gate.release(address, ok);
        });
      });
    });
  });
  // Before the HTTP server closes: it would otherwise wait for the upgraded sockets. No new ones.
  app.addHook('preClose', async () => {
    closing = true;
    for (const c of connections) c.dispose();
    for (const ws of wss.clients) ws.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
  return {
    connections: () => connections.size,
    anonymousConnections: () => gate.anonymousSize,
    anonymousFutures: () => anonymousFutures.size,
    signedInFutures: () => signedIn.futures,
    company: (account: string) => signedIn.held(account),
  };
}
