import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { guardedPool } from './resilience';

/*
 * A new connection that breaks in the moment the pool hands it out (issue 45). When PostgreSQL's postmaster dies,
 * each backend sends FATAL 57P01 「terminating connection due to unexpected postmaster exit」; a backend that has just
 * said ReadyForQuery can send it in the same TCP chunk. pg reads the whole chunk in one go: the pool hands the
 * client out (and takes its own 'error' listener off) on ReadyForQuery, and the FATAL is emitted as 'error' before
 * the caller's `await pool.connect()` resumes — with no listener that 'error' ends the process. The hour's chaos
 * run lost a replica so (docs/ha.md). A fake server sends exactly that chunk.
 */

const message = (type: string, body: Buffer) => {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
};
const cstr = (s: string) => Buffer.from(`${s}\0`, 'utf8');
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const READY_THEN_FATAL = Buffer.concat([
  message('R', int32(0)), // AuthenticationOk
  message('Z', Buffer.from('I')), // ReadyForQuery
  message(
    'E',
    Buffer.concat([
      Buffer.from('S'),
      cstr('FATAL'),
      Buffer.from('C'),
      cstr('57P01'),
      Buffer.from('M'),
      cstr('terminating connection due to unexpected postmaster exit'),
      Buffer.from([0]),
    ]),
  ),
]);

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

it('a connection that breaks as it is handed out is logged and replaced; the process goes on', async () => {
  server = createServer((socket) => {
    // The startup message (no SSL request: sslmode is off), answered in one chunk; then the backend is gone.
    socket.once('data', () => socket.end(READY_THEN_FATAL));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const warned: string[] = [];
  const logger = { warn: (_: unknown, msg: string) => void warned.push(msg) } as never;
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => void uncaught.push(err);
  process.prependListener('uncaughtException', onUncaught);
  const pool = guardedPool(`postgres://u:p@127.0.0.1:${port}/db`, {
    max: 2,
    connectTimeoutMs: 2000,
    statementTimeoutMs: 2000,
    logger,
  });
  const client = await pool.connect();
  let released = false;
  try {
    await new Promise((r) => setTimeout(r, 100));
    expect(uncaught).toEqual([]);
    expect(warned).toContain('database: a connection broke; it is replaced');
    // The broken connection fails its query and is not handed out again.
    await expect(client.query('select 1')).rejects.toThrow();
    client.release();
    released = true;
    expect(pool.pool.totalCount).toBe(0);
  } finally {
    process.removeListener('uncaughtException', onUncaught);
    if (!released) client.release(true);
    await pool.end();
  }
});
