import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The HTTP gateway in front of the server replicas (as the compose profile's), on loopback for the chaos run
 * (test/chaos.ts): round robin over the replicas in rotation; a replica that refuses the connection (killed,
 * starting) is skipped for the next one — nothing was sent, so trying another is safe — while an answer cut
 * mid-way is a 502 for the client to retry. `remove` takes a replica out of the rotation (its requests in
 * flight finish), `putBack` returns it.
 */
export interface Gateway {
  base: string;
  remove(port: number): void;
  putBack(port: number): void;
  close(): Promise<void>;
}

export async function startGateway(ports: number[], listenPort = 0): Promise<Gateway> {
  const rotation = new Set(ports);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const forward = (port: number, req: http.IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer } | 'refused' | 'cut'>((resolve) => {
      const up = http.request(
        { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', () => resolve('cut'));
        },
      );
      up.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'cut'));
      up.end(body);
    });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const order = [...rotation];
      const first = next++;
      for (let i = 0; i < order.length; i++) {
        const answer = await forward(order[(first + i) % order.length]!, req, body);
        if (answer === 'refused') continue;
        if (answer === 'cut') break;
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        delete headers.connection;
        res.writeHead(answer.status, headers).end(answer.body);
        return;
      }
      res
        .writeHead(502, { 'content-type': 'application/json' })
        .end('{"error":{"code":"bad_gateway","message":"网关无法连接服务器"}}');
    });
  });
  await new Promise<void>((r) => server.listen(listenPort, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    remove: (port) => void rotation.delete(port),
    putBack: (port) => void rotation.add(port),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      agent.destroy();
    },
  };
}
