/**
 * The data model of Shinny's DIFF protocol (Differential Information Flow for Finance, the protocol of
 * TqSdk and open-trade-gateway): the server keeps a business "section" (a JSON tree) and sends its changes
 * as `{aid: 'rtn_data', data: [patch, patch, …]}`, each patch a JSON Merge Patch (RFC 7386) onto the
 * client's mirror of the tree. The whole `data` array is one transaction: read the tree after all of it.
 *
 * Rules applied here (RFC 7386 plus the DIFF spec, shinnytech/diff general.rst):
 * - an object in the patch merges recursively into the object at that key (created when missing or not an object);
 * - `null` deletes the key;
 * - any other value (numbers, strings, booleans, arrays) replaces the value at that key;
 * - an object left empty by deletions of this patch is deleted too ("如果在处理完一个 JSON Merge Patch 后，
 *   某个 object 下的所有字段都被删除则也应将该 object 删除").
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys never written into the tree (assigning `__proto__` would change the object's prototype). */
const FORBIDDEN_KEYS = new Set(['__proto__']);

function cloneValue(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(cloneValue);
  if (isJsonObject(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) if (!FORBIDDEN_KEYS.has(k)) out[k] = cloneValue(v);
    return out;
  }
  return value;
}

/**
 * Applies one merge patch onto `target` in place and returns `target`. The tree never shares objects
 * with the patch, so later patches cannot alter a patch a caller kept.
 */
export function mergePatch(target: JsonObject, patch: JsonObject): JsonObject {
  for (const [key, value] of Object.entries(patch)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    if (value === null) {
      delete target[key];
    } else if (isJsonObject(value)) {
      let child = target[key];
      if (!isJsonObject(child)) {
        child = {};
        target[key] = child;
      }
      mergePatch(child, value);
      if (Object.keys(child).length === 0 && Object.values(value).some((v) => v === null)) delete target[key];
    } else {
      target[key] = cloneValue(value);
    }
  }
  return target;
}

/** Applies the patches of one `rtn_data` in order. */
export function applyPatches(target: JsonObject, patches: readonly JsonObject[]): JsonObject {
  for (const patch of patches) mergePatch(target, patch);
  return target;
}

/** The value at `path` in a tree, or undefined when a step is missing or not an object. */
export function getPath(tree: JsonValue | undefined, ...path: string[]): JsonValue | undefined {
  let node: JsonValue | undefined = tree;
  for (const key of path) {
    if (!isJsonObject(node)) return undefined;
    node = Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return node;
}

/** The object at `path`, or undefined. */
export function getObject(tree: JsonValue | undefined, ...path: string[]): JsonObject | undefined {
  const node = getPath(tree, ...path);
  return isJsonObject(node) ? node : undefined;
}

/** A string field, '' when absent or not a string. */
export function str(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** A numeric field, NaN when absent or not a finite number (DIFF sends '-' for none). */
export function num(value: JsonValue | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : NaN;
}
