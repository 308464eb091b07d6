import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors';

export const OVERLOAD_MESSAGE = '服务器繁忙，请稍后重试';
/** Seconds a shed client is asked to wait: the desk's polling interval. */
export const OVERLOAD_RETRY_AFTER_S = 5;
/** How often the event loop's delay and utilisation are sampled. */
const SAMPLE_MS = 1000;

export interface OverloadConfig {
  /** API requests taken on at once; one more is answered 503 at once. 0 = no limit. */
  maxInFlight: number;
  /** Mean event-loop delay over the last second above which API requests are answered 503. 0 = off. */
  maxEventLoopDelayMs: number;
  /** Event-loop utilisation (0–1) over the last second above which API requests are answered 503. 0 = off. */
  maxEventLoopUtilization: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** API requests taken on and not yet answered (the in-flight bound's count). */
    apiRequestsInFlight(): number;
  }
}

/** What is shed: the API (where the database work is), not the health check, the apps' files or sign-in pages. */
const sheddable = (req: FastifyRequest) => req.url.startsWith('/api/') && !req.url.startsWith('/api/health');

/** Shed requests are counted and logged once per LOG_EVERY_MS: a line per 503 would add to the overload. */
const LOG_EVERY_MS = 10_000;
let shedSinceLog = 0;
let lastLog = 0;

function shed(req: FastifyRequest, reply: FastifyReply, reason: string, value: number) {
  shedSinceLog++;
  const now = Date.now();
  if (now - lastLog >= LOG_EVERY_MS) {
    req.log.warn({ reason, value, shed: shedSinceLog }, 'overloaded: answered 503 before taking requests on');
    shedSinceLog = 0;
    lastLog = now;
  }
  void reply
    .code(503)
    .header('retry-after', String(OVERLOAD_RETRY_AFTER_S))
    .send(errorBody('overloaded', OVERLOAD_MESSAGE));
}

/**
 * Load shedding (docs/performance.md): past capacity a request queues behind the others (on the embedded
 * database, behind every query in the one event loop) until the 15 s deadline answers it. Instead, an API
 * request is refused with 503 + Retry-After in `onRequest`, before any handler runs, when too many are already
 * taken on, or when the event loop was too slow over the last second (@fastify/under-pressure). A refused
 * submit-order was never accepted: the order does not exist, and the desk may send it again.
 */
export async function installOverload(app: FastifyInstance, cfg: OverloadConfig) {
  // Registered (and awaited) first, so its hook runs before the count below: a request it sheds is never counted.
  await app.register(underPressure, {
    sampleInterval: SAMPLE_MS,
    maxEventLoopDelay: cfg.maxEventLoopDelayMs,
    maxEventLoopUtilization: cfg.maxEventLoopUtilization,
    // Per sample, not since the start.
    eventLoopUtilizationMode: 'interval',
    // Not sending lets the request through (the health check, the apps' files).
    pressureHandler: (req, reply, type, value) => {
      if (sheddable(req)) shed(req, reply, type, value ?? 0);
    },
  });
  let inFlight = 0;
  app.decorate('apiRequestsInFlight', () => inFlight);
  app.addHook('onRequest', (req, reply, done) => {
    if (!sheddable(req)) return done();
    // Answered here, `done` not called: no handler runs.
    if (cfg.maxInFlight > 0 && inFlight >= cfg.maxInFlight) return shed(req, reply, 'in_flight', inFlight);
    inFlight++;
    // 'close' comes once the answer is out or the client went away (it never leaks a count). A handler still
    // running for a client that left is no longer counted; the statement timeout ends its database work.
    reply.raw.once('close', () => inFlight--);
    done();
  });
}
