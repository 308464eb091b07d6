import { sql, type RawBuilder } from 'kysely';

/**
 * Beijing time (Asia/Shanghai), the platform's one clock for calendar days and wall-clock times:
 * the exchanges' sessions and closes, fixing deadlines, statements, date filters of the views.
 *
 * China has had no daylight saving time since 1991, so in JavaScript local time is UTC+8 throughout.
 * In SQL the zone is named, so PostgreSQL's tz database gets historical offsets right too.
 */

/** The zone's name, for PostgreSQL's `at time zone`. */
export const SHANGHAI_ZONE = 'Asia/Shanghai';
/** Beijing time is UTC+8. */
export const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

export interface ShanghaiTime {
  y: number;
  /** 1–12 */
  m: number;
  d: number;
  hh: number;
  mm: number;
  ss: number;
  ms: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
}

/** The Beijing wall-clock time of an instant as a zone-less Date: read it with the getUTC… methods. */
export function shanghaiWallClock(at: Date | number): Date {
  return new Date((typeof at === 'number' ? at : at.getTime()) + SHANGHAI_OFFSET_MS);
}

export function shanghaiTime(at: Date | number): ShanghaiTime {
  const t = shanghaiWallClock(at);
  return {
    y: t.getUTCFullYear(),
    m: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    hh: t.getUTCHours(),
    mm: t.getUTCMinutes(),
    ss: t.getUTCSeconds(),
    ms: t.getUTCMilliseconds(),
    weekday: t.getUTCDay(),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' in Beijing time (statements, exports, the audit log's text). */
export function beijingText(d: Date): string {
  const t = shanghaiTime(d);
  return `${t.y}-${pad(t.m)}-${pad(t.d)} ${pad(t.hh)}:${pad(t.mm)}:${pad(t.ss)}`;
}

/** Epoch ms of a Shanghai wall-clock time. */
export function shanghaiInstant(y: number, m: number, d: number, hh = 0, mm = 0, ss = 0): number {
  return Date.UTC(y, m - 1, d, hh, mm, ss) - SHANGHAI_OFFSET_MS;
}

/** `new Date` at a Shanghai wall-clock time (handy in tests: `shanghaiDate('2025-11-20 10:00')`). */
export function shanghaiDate(text: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!match) throw new Error(`bad Shanghai time: ${text}`);
  const [y, m, d, hh, mm, ss] = match.slice(1).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return new Date(shanghaiInstant(y, m, d, hh, mm, ss));
}

/** SQL: the instant the Beijing calendar day `day` ('YYYY-MM-DD', bound as a parameter) begins. */
export function shanghaiDayStart(day: string): RawBuilder<Date> {
  return sql<Date>`(cast(${day} as date)::timestamp at time zone ${SHANGHAI_ZONE})`;
}

/** SQL: the instant the Beijing calendar day `day` ends (the next day begins): ranges are half-open. */
export function shanghaiDayEnd(day: string): RawBuilder<Date> {
  return sql<Date>`((cast(${day} as date) + 1)::timestamp at time zone ${SHANGHAI_ZONE})`;
}
