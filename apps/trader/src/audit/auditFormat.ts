import { zh } from '@pfp/i18n';

const t = zh.fixing.audit;

export const auditActionLabel = (action: string) => t.actions[action] ?? action;
export const auditKindLabel = (kind: string) => t.kinds[kind] ?? kind;

const HIDDEN = new Set(['password', 'new_password', 'futures_password']);

/** The payload as short 'key: value' pairs (secrets are redacted by the server already; passwords left out). */
export function auditDetails(payload: string): string {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return String(payload);
  return Object.entries(value as Record<string, unknown>)
    .filter(([k]) => !HIDDEN.has(k))
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('，');
}
