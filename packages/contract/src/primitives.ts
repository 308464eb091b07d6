import { z } from 'zod';

/** Ids are PostgreSQL `integer`s: JSON integers 1…2^31−1, never strings, booleans or arrays. */
export const ID_MAX = 2 ** 31 - 1;

/** A path as the envelope's `field` names it: `tq_account_config.broker_name`, `sort_fields[0].field`. */
export function fieldName(path: readonly PropertyKey[] | undefined): string {
  let out = '';
  for (const p of path ?? []) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out;
}

/**
 * Whether a number has at most `decimals` decimals, tolerant of binary floating point (0.29 × 100),
 * and is not a non-zero value that rounds to 0 at that precision (1e-9, 5e-324): a numeric column
 * would store 0 — a silent change, or a CHECK (amount <> 0) answered 500 (issue 40).
 */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const units = value * 10 ** decimals;
  const whole = Math.round(units);
  return Math.abs(units - whole) < 1e-6 && (whole !== 0 || value === 0);
}

/** Text PostgreSQL cannot store (NUL) or that is not Unicode (a lone surrogate). */
export function hasInvalidChars(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return true;
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) return true;
      i++;
    } else if (code >= 0xdc00 && code <= 0xdfff) return true;
  }
  return false;
}

const TYPE_NAMES: Record<string, string> = {
  string: '文本',
  number: '数字',
  int: '整数',
  boolean: '布尔值',
  object: '对象',
  record: '对象',
  array: '数组',
  tuple: '数组',
  date: '日期',
  null: 'null',
};

const named = (path: readonly PropertyKey[] | undefined) => fieldName(path) || '请求体';

/**
 * Chinese messages naming the field for every issue a schema does not word itself. Schemas of the
 * contract carry the SPEC's own messages where the UI shows them ('请选择合同'); this covers the rest
 * (wrong types, unknown enum values, lengths). Pass it to `safeParse(x, { error: zhErrorMap })`.
 */
export const zhErrorMap: z.core.$ZodErrorMap = (iss) => {
  const name = named(iss.path);
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return `缺少参数 ${name}`;
      // A type without a Chinese name is not spelled out: no English reaches a user.
      return iss.expected in TYPE_NAMES ? `参数 ${name} 应为${TYPE_NAMES[iss.expected]}` : `参数 ${name} 类型不正确`;
    case 'too_small':
      if (iss.origin === 'string') return `参数 ${name} 至少 ${String(iss.minimum)} 个字符`;
      if (iss.origin === 'array') return `参数 ${name} 至少 ${String(iss.minimum)} 项`;
      return `参数 ${name} 不能小于 ${String(iss.minimum)}`;
    case 'too_big':
      if (iss.origin === 'string') return `参数 ${name} 不能超过 ${String(iss.maximum)} 个字符`;
      if (iss.origin === 'array') return `参数 ${name} 最多 ${String(iss.maximum)} 项`;
      return `参数 ${name} 不能大于 ${String(iss.maximum)}`;
    case 'invalid_value':
      return `参数 ${name} 应为 ${iss.values.map(String).join('、')} 之一`;
    case 'invalid_format':
      return `参数 ${name} 格式不正确`;
    case 'unrecognized_keys':
      return `不支持的参数 ${iss.keys.join('、')}`;
    case 'not_multiple_of':
      return `参数 ${name} 必须是 ${String(iss.divisor)} 的整数倍`;
    default:
      return `参数 ${name} 无效`;
  }
};

/** Parses with the Chinese messages; throws nothing. */
export function safeParseZh<T extends z.ZodType>(schema: T, data: unknown) {
  return schema.safeParse(data, { error: zhErrorMap });
}

/** The first problem of a failed parse as the envelope words it. */
export function firstIssue(error: z.ZodError): { message: string; field: string | undefined } {
  const issue = error.issues[0];
  return { message: issue?.message ?? '请求参数无效', field: fieldName(issue?.path) || undefined };
}

/**
 * A strict id: a JSON integer in 1…2^31−1. `message` replaces the default (e.g. the SPEC's
 * '请选择合同'); the default names the field.
 */
export function id(message?: string) {
  const error =
    message ?? ((iss: { path?: PropertyKey[] }) => `参数 ${named(iss.path)} 必须是 1 到 ${ID_MAX} 之间的整数`);
  return z.int({ error }).min(1, { error }).max(ID_MAX, { error });
}

/**
 * Text a request may carry: a string without NUL or lone surrogates (PostgreSQL cannot store the
 * one, the other is not Unicode). Chain `.trim()`, `.min()`, `.max()` as usual.
 */
export function text(message?: string, invalidChars?: string) {
  return z
    .string(message ? { error: message } : undefined)
    .refine((s) => !hasInvalidChars(s), { error: invalidChars ?? ((iss) => `参数 ${named(iss.path)} 包含无效字符`) });
}

/**
 * A timestamp: a Date on the server, an ISO 8601 string on the wire. Responses are encoded with
 * it (the server hands Dates), apps read the string.
 */
export const timestamp = z.codec(z.iso.datetime({ offset: true }), z.date(), {
  decode: (s) => new Date(s),
  encode: (d) => d.toISOString(),
});

/** Unicode direction controls: a name holding one can show as something else than it is (issue 30). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
/** What shows as nothing: whitespace, zero-width characters, the soft hyphen, BOM. */
const INVISIBLE = /[\s\u200B-\u200D\u2060\uFEFF\u00AD]/gu;

/** A name people read (a contract's, a company's): no direction controls, and not only invisible characters. */
export function hasBidiControls(s: string): boolean {
  return BIDI_CONTROLS.test(s);
}
export function isInvisible(s: string): boolean {
  return s.length > 0 && s.replace(INVISIBLE, '') === '';
}

/** text() for a displayed name: trimmed, refusing direction controls and a name of only invisible characters. */
export function nameText(label: string, required?: string) {
  return text(required)
    .trim()
    .refine((s) => !hasBidiControls(s), { error: `${label}不能包含文字方向控制字符` })
    .refine((s) => !isInvisible(s), { error: `${label}不能只有空白或不可见字符` });
}
