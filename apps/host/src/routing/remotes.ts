import { loadRemote, registerRemotes } from '@module-federation/runtime';
import type { ComponentType } from 'react';

export type RemoteName = 'trader' | 'pricer' | 'volatility';
type Manifest = Record<RemoteName, string>;

/**
 * The remotes' entries come from /remotes.json at run time (the server writes it from
 * REMOTES_MANIFEST), so a remote redeploys without rebuilding the host.
 */
let registered: Promise<void> | undefined;
function registerFromManifest(): Promise<void> {
  registered ??= fetch('/remotes.json', { cache: 'no-store' })
    .then((r) => {
      if (!r.ok) throw new Error(`remotes.json: HTTP ${r.status}`);
      return r.json() as Promise<Manifest>;
    })
    .then((manifest) => {
      registerRemotes(Object.entries(manifest).map(([name, entry]) => ({ name, entry, type: 'module' })));
    })
    .catch((e: unknown) => {
      registered = undefined;
      throw e;
    });
  return registered;
}

export async function loadRemoteApp(name: RemoteName): Promise<ComponentType> {
  await registerFromManifest();
  const mod = await loadRemote<{ default: ComponentType }>(`${name}/App`);
  if (!mod?.default) throw new Error(`远程模块 ${name} 加载失败`);
  return mod.default;
}
