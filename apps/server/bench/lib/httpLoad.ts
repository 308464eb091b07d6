import { Pool } from 'undici';
import { Worker } from 'node:worker_threads';

/** One HTTP request of a load run; `body` is already JSON text (serialised once, up front). */
export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  token?: string;
  body?: string;
}

export interface LoadSpec {
  baseUrl: string;
  /** Requests in flight at any time (each "lane" sends its next request when the previous one is answered). */
  concurrency: number;
  /** Sent in this order; their number is the count of the run. */
  requests: LoadRequest[];
  /** Stop dispatching after this long (a bound, not a target): the run always ends by itself. */
  maxMs: number;
  /** Per-request timeout. */
  requestTimeoutMs?: number;
}

export interface LoadResult {
  /** Latency of each completed request, ms (send → last byte of the body). */
  latencies: Float64Array;
  completed: number;
  ok: number;
  failed: number;
  elapsedMs: number;
  statuses: Record<string, number>;
  firstError?: string;
  /** Body of the first successful response (to show what was answered). */
  sample?: string;
  /** Whether maxMs cut the run short. */
  truncated: boolean;
  /** CPU of the load generator's own thread over the run, ms (Node ≥ 23.9; else undefined). */
  cpuMs?: number;
}

/**
 * Closed-loop load over real HTTP with undici's Pool (one kept-alive connection per lane, no pipelining). Not
 * fetch: its WHATWG streams and per-request abort signal cost the client several times the CPU of a plain
 * request, and on this 2-core machine the client's CPU is the server's (docs/performance.md). A response counts
 * as ok when it is 200 and the API's `{"result":"ok"` envelope.
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const n = spec.requests.length;
  const latencies = new Float64Array(n);
  const statuses: Record<string, number> = {};
  let next = 0;
  let completed = 0;
  let ok = 0;
  let failed = 0;
  let firstError: string | undefined;
  let sample: string | undefined;
  let truncated = false;
  const url = new URL(spec.baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const timeout = spec.requestTimeoutMs ?? 30_000;
  const pool = new Pool(url.origin, {
    connections: Math.max(1, spec.concurrency),
    pipelining: 1,
    headersTimeout: timeout,
    bodyTimeout: timeout,
  });
  const t0 = performance.now();
  // (threadCpuUsage: Node ≥ 23.9; the load's own CPU, apart from a server in the same process)
  const threadCpu = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.bind(process);
  const cpu0 = threadCpu?.();

  const lane = async () => {
    for (;;) {
      if (performance.now() - t0 > spec.maxMs) {
        if (next < n) truncated = true;
        return;
      }
      const i = next++;
      if (i >= n) return;
      const r = spec.requests[i]!;
      const headers: Record<string, string> = {};
      if (r.token) headers.authorization = `Bearer ${r.token}`;
      if (r.body !== undefined) headers['content-type'] = 'application/json';
      const start = performance.now();
      try {
        const res = await pool.request({
          path: prefix + r.path,
          method: r.method ?? (r.body === undefined ? 'GET' : 'POST'),
          headers,
          ...(r.body !== undefined ? { body: r.body } : {}),
        });
        const text = await res.body.text();
        latencies[completed++] = performance.now() - start;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        if (res.statusCode === 200 && text.startsWith('{"result":"ok"')) {
          ok++;
          sample ??= text;
        } else {
          failed++;
          firstError ??= `HTTP ${res.statusCode}: ${text.slice(0, 300)}`;
        }
      } catch (e) {
        latencies[completed++] = performance.now() - start;
        statuses.error = (statuses.error ?? 0) + 1;
        failed++;
        firstError ??= e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, spec.concurrency) }, lane));
  const cpu1 = threadCpu?.();
  await pool.close();
  return {
    ...(cpu0 && cpu1 ? { cpuMs: (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1000 } : {}),
    latencies: latencies.slice(0, completed),
    completed,
    ok,
    failed,
    elapsedMs: performance.now() - t0,
    statuses,
    ...(firstError !== undefined ? { firstError } : {}),
    ...(sample !== undefined ? { sample } : {}),
    truncated,
  };
}

/**
 * The same load from a worker thread: the client's event loop (fetch, parsing) is then not the server's when
 * the server runs in this process, so a response is timed when it arrives, not when the server's loop lets the
 * client run. (They still share the machine's cores.)
 */
export function runLoadInWorker(spec: LoadSpec): Promise<LoadResult> {
  // tsx's loader does not reach worker threads on Node 20: the worker imports the TypeScript entry through tsx's API.
  const api = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./loadWorker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: spec });
    let settled = false;
    worker.once('message', (result: LoadResult) => {
      settled = true;
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', (e) => {
      settled = true;
      reject(e);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`load worker exited with code ${code}`));
    });
  });
}
