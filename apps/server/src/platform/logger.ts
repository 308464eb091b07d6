import { pino } from 'pino';
import { REDACT, requestSerializer } from './http/logging';

/**
 * The server's one logger interface: the part of pino the code uses. main.ts creates the one pino
 * logger (createLogger) before anything else and hands it, or a child of it, to Fastify and to every
 * resource (database, trading, market data, curve workers, deadlines, identity); a part built without
 * one (a test, a benchmark) takes silentLogger or consoleLogger.
 */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Says nothing. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Warnings and errors on the console: the default where a failure must not pass unseen. */
export const consoleLogger: Logger = {
  debug() {},
  info() {},
  warn: (obj, msg) => console.warn(msg ?? '', obj),
  error: (obj, msg) => console.error(msg ?? '', obj),
};

/**
 * The process's pino logger (what Fastify gets as `loggerInstance`): JSON lines on stdout, or on
 * `stream`; no secret ever reaches a line (http/logging.ts: REDACT and the request serializer).
 */
export function createLogger(opts: { level: string; stream?: { write(line: string): void } }) {
  return pino(
    {
      level: opts.level,
      redact: REDACT,
      serializers: { req: requestSerializer },
    },
    opts.stream,
  );
}

export type RootLogger = ReturnType<typeof createLogger>;
