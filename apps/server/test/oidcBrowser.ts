import { createHash, randomBytes } from 'node:crypto';

/**
 * A browser's part of the OpenID code flow, for tests against the embedded provider over real
 * HTTP: cookies kept by name and path, redirects followed until one leaves for the app.
 */
/** Cookies as a browser keeps them: by name and path, sent where the path matches. */
export class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(url: URL, res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = url.pathname.replace(/\/[^/]*$/, '') || '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', val = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = val;
        if (key.toLowerCase() === 'expires' && new Date(val).getTime() < Date.now()) expired = true;
        if (key.toLowerCase() === 'max-age' && Number(val) <= 0) expired = true;
      }
      const id = `${name}\u0000${path}`;
      if (expired) this.cookies.delete(id);
      else this.cookies.set(id, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter(({ path }) => url.pathname === path || url.pathname.startsWith(path.endsWith('/') ? path : `${path}/`))
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
  }

  names(): string[] {
    return [...this.cookies.values()].map((c) => c.name);
  }
}

export interface Browser {
  jar: CookieJar;
  request(url: string | URL, init?: { method?: string; form?: Record<string, string> }): Promise<Response>;
  /** Follows redirects until one leaves for the app (returned as a URL) or a page is served. */
  navigate(url: string | URL, init?: { method?: string; form?: Record<string, string> }): Promise<Response | URL>;
}

export function browser(appOrigin: string): Browser {
  const jar = new CookieJar();
  const request = async (target: string | URL, init: { method?: string; form?: Record<string, string> } = {}) => {
    const url = new URL(target);
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookie = jar.header(url);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    jar.store(url, res);
    return res;
  };
  const navigate = async (target: string | URL, init?: { method?: string; form?: Record<string, string> }) => {
    let url = new URL(target);
    let res = await request(url, init);
    for (let hops = 0; [301, 302, 303, 307].includes(res.status); hops++) {
      if (hops > 10) throw new Error('redirect loop');
      url = new URL(res.headers.get('location')!, url);
      if (url.pathname.startsWith('/trader') || url.pathname === '/') return url;
      res = await request(url);
    }
    return res;
  };
  void appOrigin;
  return { jar, request, navigate };
}

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
