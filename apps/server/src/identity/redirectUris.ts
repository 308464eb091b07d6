function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * Redirect URI rules in Keycloak's style: an entry is either an exact URI or a prefix ending in
 * `/*` (`https://host/trader/*` allows `https://host/trader/` and anything below it).
 */
export class UriRules {
  readonly exact: Set<string>;
  readonly prefixes: string[];

  constructor(entries: readonly string[]) {
    this.exact = new Set();
    this.prefixes = [];
    for (const entry of entries) {
      if (entry.endsWith('*')) {
        const prefix = entry.slice(0, -1);
        const url = parseUrl(prefix);
        if (!url || !prefix.endsWith('/') || url.href !== prefix || url.search || url.hash)
          throw new Error(`redirect URI pattern ${entry} must be an absolute URI path ending in /*`);
        this.prefixes.push(prefix);
      } else {
        const url = parseUrl(entry);
        if (!url || url.hash) throw new Error(`redirect URI ${entry} must be an absolute URI without fragment`);
        this.exact.add(entry);
      }
    }
  }

  /** What to register as the client's (exact) metadata: exact entries and the bases of the prefixes. */
  registered(): string[] {
    return [...new Set([...this.exact, ...this.prefixes])];
  }

  allows(value: unknown): boolean {
    if (typeof value !== 'string') return false;
    if (this.exact.has(value)) return true;
    if (!this.prefixes.length) return false;
    const url = parseUrl(value);
    // Only the canonical form: no dot segments, odd encodings, credentials or fragments.
    if (!url || url.href !== value || url.hash || url.username || url.password) return false;
    return this.prefixes.some((prefix) => value.startsWith(prefix));
  }
}
