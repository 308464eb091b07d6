import { cpus, loadavg } from 'node:os';
import { readFileSync } from 'node:fs';

/** Nearest-rank percentile of an ascending array (p in 0..100). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface Summary {
  n: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(values: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    n: sorted.length,
    min: sorted.length ? sorted[0]! : NaN,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
    mean: sorted.length ? sum / sorted.length : NaN,
  };
}

export const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

/** "p50 3.1 ms  p99 12.0 ms  max 20.3 ms" */
export const latencyLine = (s: Summary, unit = 'ms') =>
  `p50 ${fmt(s.p50)} ${unit}  p90 ${fmt(s.p90)} ${unit}  p99 ${fmt(s.p99)} ${unit}  max ${fmt(s.max)} ${unit}`;

/** One line about the machine, printed at the top of every benchmark. */
export function hardwareNote(): string {
  const list = cpus();
  const model = list[0]?.model.trim() ?? 'unknown CPU';
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `hardware: ${list.length} logical CPU(s), ${model}; node ${process.version}; load average now ${load} (other work on the machine skews the figures)`;
}

export function header(title: string) {
  console.log(`\n=== ${title} ===`);
  console.log(hardwareNote());
}

/** Wall-clock guard: rejects after `ms` so a benchmark always stops by itself. */
export function deadline(ms: number, what: string): { promise: Promise<never>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: gave up after ${Math.round(ms / 1000)} s`)), ms);
    timer.unref();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Printed at the end: the machine's load while the benchmark ran. */
export function footer() {
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1, 5, 15 min)`,
  );
}

/** The machine's CPU time so far (all cores, from /proc/stat): busy and total, seconds. Linux only. */
export function machineCpu(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number) as number[];
  const hz = 100; // USER_HZ
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return { busy: busy / hz, total: (busy + idle! + iowait!) / hz };
}

/** "busy 1.62 of 2 cores (81 %)" between two machineCpu() readings. */
export function cpuLine(from: { busy: number; total: number }, to: { busy: number; total: number }, seconds: number) {
  const busy = to.busy - from.busy;
  const share = busy / Math.max(to.total - from.total, 1e-9);
  return `machine CPU busy ${(busy / seconds).toFixed(2)} of ${cpus().length} cores (${(share * 100).toFixed(0)} %)`;
}

/** utime + stime of processes, seconds (/proc/<pid>/stat, clock ticks of 1/100 s); an ended one counts 0. */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* a backend that ended */
    }
  }
  return ticks / 100;
}
