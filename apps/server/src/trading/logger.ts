/** Minimal pino-compatible logger (Fastify's app.log fits). */
export interface TradingLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: TradingLogger = { info() {}, warn() {}, error() {} };
