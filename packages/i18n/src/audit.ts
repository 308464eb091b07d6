import { formatDateTime, formatNumber, formatPercent } from './format';
import { zh } from './strings';
import { describeUserAgent } from './userAgent';

/**
 * The audit log as people read it (issue 30): the console's /trader/audit and the server's xlsx export
 * format it the same way.
 */
const t = zh.fixing.audit;

export const auditActionLabel = (action: string) => t.actions[action] ?? action;
export const auditKindLabel = (kind: string) => t.kinds[kind] ?? kind;

const HIDDEN = new Set(['password', 'new_password', 'futures_password']);

const PRICES = new Set(['price', 'order_price']);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const MONEY = new Set(t.moneyFields);
const RATES = new Set(t.rateFields);

/**
 * One value as the trader reads it: 市价 for a price of 0, amounts in 元, rates in %, Chinese for the
 * known codes (each of a list too), an empty value as 无.
 */
function valueText(key: string, v: unknown, names: AuditNames): string {
  if (PRICES.has(key) && (v === 0 || v === '0')) return t.marketPrice;
  if (v === null || v === undefined || v === '') return t.none;
  // A numeric field (some are stored as numeric text): in 元 or %; `action:field` for one action's meaning.
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
  const of = (set: Set<string>) => set.has(key) || (!!names.action && set.has(`${names.action}:${key}`));
  if (n !== undefined && of(MONEY)) return `${formatNumber(n)} 元`;
  if (n !== undefined && of(RATES)) return formatPercent(n, 2).replace(/\.?0+%$/, '%');
  if (Array.isArray(v)) return v.length ? v.map((x) => valueText(key, x, names)).join('、') : t.none;
  if (typeof v === 'object') return `（${detailsOf(v as Record<string, unknown>, { action: names.action ?? null })}）`;
  const s = String(v);
  // A browser (accept-agreement's device) described as the log's 浏览器 column is.
  if (key === 'user_agent') return describeUserAgent(s);
  // The approval policy and requests name calls by their action (record-funds …): said as the log's label.
  if (key === 'action' || key === 'actions') return auditActionLabel(s);
  // A time (expires_at …) in Beijing wall-clock time, like every time of the console.
  if (ISO_TIME.test(s)) return formatDateTime(s, true);
  return t.values[s] ?? s;
}

/** The names the server found for the payload's ids (issue 30: names beside ids), and the row's action. */
export interface AuditNames {
  contract_name?: string | null;
  customer_name?: string | null;
  /** The row's action: a field may mean another thing in it (t.actionFields). */
  action?: string | null;
}

function detailsOf(value: Record<string, unknown>, names: AuditNames = {}): string {
  const beside = (k: string): string | null | undefined =>
    k === 'contract_id' ? names.contract_name : k === 'user_id' || k === 'pricer_id' ? names.customer_name : null;
  const own = (names.action && t.actionFields[names.action]) || {};
  return (
    Object.entries(value)
      // An action's own label '' hides a field the row names otherwise (a staff member's opaque sign-in id).
      .filter(([k]) => !HIDDEN.has(k) && own[k] !== '')
      .map(([k, v]) => {
        const name = beside(k);
        return `${own[k] ?? t.fields[k] ?? k}: ${valueText(k, v, names)}${name ? `（${name}）` : ''}`;
      })
      .join('，')
  );
}

/**
 * The payload as short '字段: 值' pairs in Chinese (secrets are redacted by the server already; passwords
 * left out; a price of 0 reads 市价).
 */
export function auditDetails(payload: string, names?: AuditNames): string {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return String(payload);
  return detailsOf(value as Record<string, unknown>, names);
}
