/**
 * What use.mjs and ha.mjs share: a call of the stack's API through its gateway, and waiting for a
 * condition. Any failure throws (the scripts exit non-zero).
 */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function check(ok, message) {
  if (!ok) throw new Error(message);
}

/**
 * A caller of the API at `base`: answers `data` or throws with the status and body (`error.status`).
 * `timeoutMs` bounds each call (none by default: a fix during a replica's stop may take its time).
 */
export function apiCaller(base, { timeoutMs } = {}) {
  return async function call(path, body, token) {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body ?? {}),
      ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok || json?.result !== 'ok') {
      const error = new Error(`${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
      error.status = res.status;
      throw error;
    }
    return json.data;
  };
}

/** `fn` every 0.5 s until it answers something truthy (answered); its last error in the timeout's message. */
export async function waitFor(what, fn, timeoutMs) {
  const t0 = Date.now();
  let last;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (${last.message})` : ''}`);
    await sleep(500);
  }
}
