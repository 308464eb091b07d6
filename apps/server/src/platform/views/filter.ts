import { MAX_FILTER_LENGTH } from '@pfp/contract';
import { ViewError } from './errors';

/**
 * The `filter` language of the database views (what packages/data-table's buildFilterExpression sends):
 *
 *   filter  := ε | cond ( 'and' cond )*
 *   cond    := FIELD 'is' ( 'true' | 'false' )
 *            | FIELD 'contains' STRING
 *            | FIELD 'in' '[' ( value ( ',' value )* )? ']'
 *            | FIELD '=' value
 *   value   := STRING | NUMBER
 *   FIELD   := [A-Za-z_][A-Za-z0-9_]* ( '.' [A-Za-z_][A-Za-z0-9_]* )*
 *   STRING  := "'" ( any char but ' and \ | "\'" | "\\" )* "'"
 *   NUMBER  := '-'? [0-9]+ ( '.' [0-9]+ )? ( [eE] [+-]? [0-9]+ )?
 *
 * Keywords are case-insensitive, field names are not. Whitespace (space, tab, CR, LF) may surround any token.
 * This module only checks the grammar; which fields exist and what their types allow is the engine's business.
 */

export { MAX_FILTER_LENGTH };
export const MAX_FILTER_CONDITIONS = 20;

export type FilterLiteral = string | number;

/** One parsed condition; `position` is the 1-based character position of its field name. */
export type FilterCondition =
  | { op: 'is'; field: string; value: boolean; position: number }
  | { op: 'contains'; field: string; value: string; position: number }
  | { op: 'in'; field: string; values: FilterLiteral[]; position: number }
  | { op: '='; field: string; value: FilterLiteral; position: number };

type Token =
  | { kind: 'ident'; text: string; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; pos: number }
  | { kind: '[' | ']' | ',' | '=' | 'eof'; pos: number };

/** Quotes a value the way the client does: `'` and `\` are escaped with a backslash. */
export function quoteFilterValue(text: string): string {
  let out = "'";
  for (const ch of text) out += ch === "'" || ch === '\\' ? `\\${ch}` : ch;
  return `${out}'`;
}

function syntaxError(pos: number, detail: string): ViewError {
  return new ViewError(`筛选条件第 ${pos + 1} 个字符处语法错误：${detail}`, { field: 'filter', position: pos + 1 });
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isIdentStart = (c: string | undefined) =>
  c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isIdentPart = (c: string | undefined) => isIdentStart(c) || isDigit(c);
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

function describe(t: Token): string {
  switch (t.kind) {
    case 'ident':
      return `“${t.text.length > 40 ? `${t.text.slice(0, 40)}…` : t.text}”`;
    case 'string':
      return '字符串';
    case 'number':
      return '数字';
    case 'eof':
      return '结尾';
    default:
      return `“${t.kind}”`;
  }
}

class Lexer {
  private i = 0;
  constructor(private readonly src: string) {}

  /** The next token; at the end, 'eof' (again and again). Tokens are read on demand, so errors come in order. */
  next(): Token {
    const s = this.src;
    while (isSpace(s[this.i])) this.i++;
    const pos = this.i;
    const c = s[pos];
    if (c === undefined) return { kind: 'eof', pos };
    if (c === '[' || c === ']' || c === ',' || c === '=') {
      this.i++;
      return { kind: c, pos };
    }
    if (c === "'") return this.string();
    if (isDigit(c) || (c === '-' && isDigit(s[pos + 1]))) return this.number();
    if (isIdentStart(c)) return this.ident();
    throw syntaxError(pos, `无法识别的字符${describeChar(s, pos)}`);
  }

  private ident(): Token {
    const s = this.src;
    const pos = this.i;
    for (;;) {
      while (isIdentPart(s[this.i])) this.i++;
      if (s[this.i] !== '.') break;
      if (!isIdentStart(s[this.i + 1])) throw syntaxError(this.i, '字段名中的“.”后缺少名称');
      this.i++;
    }
    return { kind: 'ident', text: s.slice(pos, this.i), pos };
  }

  private number(): Token {
    const s = this.src;
    const pos = this.i;
    if (s[this.i] === '-') this.i++;
    while (isDigit(s[this.i])) this.i++;
    if (s[this.i] === '.') {
      if (!isDigit(s[this.i + 1])) throw syntaxError(this.i, '小数点后缺少数字');
      this.i++;
      while (isDigit(s[this.i])) this.i++;
    }
    if (s[this.i] === 'e' || s[this.i] === 'E') {
      let j = this.i + 1;
      if (s[j] === '+' || s[j] === '-') j++;
      if (!isDigit(s[j])) throw syntaxError(this.i, '数字的指数部分不完整');
      this.i = j;
      while (isDigit(s[this.i])) this.i++;
    }
    // `12abc` or `1.2.3` is one malformed token, not a number followed by something else.
    if (isIdentPart(s[this.i]) || s[this.i] === '.') throw syntaxError(this.i, '数字格式错误');
    const value = Number(s.slice(pos, this.i));
    if (!Number.isFinite(value)) {
      throw new ViewError(`筛选条件第 ${pos + 1} 个字符处的数字超出范围`, { field: 'filter', position: pos + 1 });
    }
    return { kind: 'number', value: value + 0, pos }; // `+ 0` turns -0 into 0
  }

  private string(): Token {
    const s = this.src;
    const pos = this.i;
    this.i++; // opening quote
    let value = '';
    for (;;) {
      const c = s[this.i];
      if (c === undefined) {
        throw new ViewError(`筛选条件第 ${pos + 1} 个字符处的字符串缺少结束引号`, {
          field: 'filter',
          position: pos + 1,
        });
      }
      if (c === "'") {
        this.i++;
        return { kind: 'string', value, pos };
      }
      if (c === '\\') {
        const e = s[this.i + 1];
        if (e === "'" || e === '\\') {
          value += e;
          this.i += 2;
          continue;
        }
        if (e === undefined) {
          throw new ViewError(`筛选条件第 ${pos + 1} 个字符处的字符串缺少结束引号`, {
            field: 'filter',
            position: pos + 1,
          });
        }
        throw syntaxError(this.i, "字符串中只能使用 \\' 与 \\\\ 转义");
      }
      const code = c.charCodeAt(0);
      // PostgreSQL text cannot hold NUL, and a lone surrogate is not a character: refuse both here so that
      // no such value ever reaches the database.
      if (code === 0) throw syntaxError(this.i, '字符串中不能包含空字符（\\u0000）');
      if (code >= 0xd800 && code <= 0xdbff) {
        const low = s.charCodeAt(this.i + 1);
        if (!(low >= 0xdc00 && low <= 0xdfff)) throw syntaxError(this.i, '字符串中包含无效的 Unicode 字符');
        value += s.slice(this.i, this.i + 2);
        this.i += 2;
        continue;
      }
      if (code >= 0xdc00 && code <= 0xdfff) throw syntaxError(this.i, '字符串中包含无效的 Unicode 字符');
      value += c;
      this.i++;
    }
  }
}

function describeChar(s: string, pos: number): string {
  const code = s.codePointAt(pos) ?? 0;
  // Printable characters are shown, everything else by code point (never a raw control character).
  if (code > 0x20 && code !== 0x7f && !(code >= 0xd800 && code <= 0xdfff)) {
    return `“${String.fromCodePoint(code)}”`;
  }
  return ` U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

class Parser {
  private lookahead: Token | null = null;
  constructor(private readonly lexer: Lexer) {}

  private peek(): Token {
    this.lookahead ??= this.lexer.next();
    return this.lookahead;
  }

  private take(): Token {
    const t = this.peek();
    this.lookahead = null;
    return t;
  }

  private isKeyword(t: Token, word: string): boolean {
    return t.kind === 'ident' && t.text.toLowerCase() === word;
  }

  parse(): FilterCondition[] {
    const out: FilterCondition[] = [];
    if (this.peek().kind === 'eof') return out;
    for (;;) {
      if (out.length === MAX_FILTER_CONDITIONS) {
        throw new ViewError(`筛选条件过多（最多 ${MAX_FILTER_CONDITIONS} 个）`, { field: 'filter' });
      }
      out.push(this.condition());
      const t = this.take();
      if (t.kind === 'eof') return out;
      if (!this.isKeyword(t, 'and')) throw syntaxError(t.pos, `条件之后应为 and，实际为${describe(t)}`);
    }
  }

  private condition(): FilterCondition {
    const f = this.take();
    if (f.kind !== 'ident') throw syntaxError(f.pos, `应为字段名，实际为${describe(f)}`);
    const field = f.text;
    const position = f.pos + 1;
    const op = this.take();
    if (op.kind === '=') return { op: '=', field, value: this.value(), position };
    if (this.isKeyword(op, 'is')) {
      const v = this.take();
      if (this.isKeyword(v, 'true')) return { op: 'is', field, value: true, position };
      if (this.isKeyword(v, 'false')) return { op: 'is', field, value: false, position };
      throw syntaxError(v.pos, `is 之后应为 true 或 false，实际为${describe(v)}`);
    }
    if (this.isKeyword(op, 'contains')) {
      const v = this.take();
      if (v.kind !== 'string') throw syntaxError(v.pos, `contains 之后应为带引号的字符串，实际为${describe(v)}`);
      return { op: 'contains', field, value: v.value, position };
    }
    if (this.isKeyword(op, 'in')) {
      const open = this.take();
      if (open.kind !== '[') throw syntaxError(open.pos, `in 之后应为“[”，实际为${describe(open)}`);
      const values: FilterLiteral[] = [];
      if (this.peek().kind === ']') {
        this.take();
        return { op: 'in', field, values, position };
      }
      for (;;) {
        values.push(this.value());
        const sep = this.take();
        if (sep.kind === ']') return { op: 'in', field, values, position };
        if (sep.kind !== ',') throw syntaxError(sep.pos, `列表中应为“,”或“]”，实际为${describe(sep)}`);
      }
    }
    throw syntaxError(op.pos, `字段 ${field} 之后应为 is、contains、in 或 =，实际为${describe(op)}`);
  }

  private value(): FilterLiteral {
    const v = this.take();
    if (v.kind === 'string' || v.kind === 'number') return v.value;
    throw syntaxError(v.pos, `应为带引号的字符串或数字，实际为${describe(v)}`);
  }
}

/**
 * Parses a `filter` string into conditions (ANDed). An empty or blank string is no condition. Throws ViewError
 * (400) on bad syntax, trailing garbage, input longer than {@link MAX_FILTER_LENGTH} characters or more than
 * {@link MAX_FILTER_CONDITIONS} conditions.
 */
export function parseFilter(input: string): FilterCondition[] {
  if (typeof input !== 'string') throw new ViewError('筛选条件必须是字符串', { field: 'filter' });
  if (input.length > MAX_FILTER_LENGTH) {
    throw new ViewError(`筛选条件过长（最多 ${MAX_FILTER_LENGTH} 个字符）`, { field: 'filter' });
  }
  return new Parser(new Lexer(input)).parse();
}
