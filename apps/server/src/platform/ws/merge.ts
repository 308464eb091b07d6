/** Deep merge of pending patches: later values win, objects merge key by key, arrays replace. */
export function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(patch)) {
    const current = target[key];
    if (isPlainObject(value) && isPlainObject(current)) mergeInto(current, value);
    else target[key] = isPlainObject(value) ? mergeInto({}, value) : value;
  }
  return target;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
