/**
 * 重连等待时间：`min(base × 2^attempt, cap)` 毫秒，attempt 从 0 开始。
 * 默认 base = 1000，cap = 30000，即 1s, 2s, 4s, 8s, 16s, 30s, 30s …
 */
export function reconnectDelay(attempt: number, base = 1000, cap = 30000): number {
  const n = Number.isFinite(attempt) && attempt > 0 ? Math.floor(attempt) : 0;
  return Math.min(base * 2 ** n, cap);
}
