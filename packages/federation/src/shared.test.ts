import { createInstance } from '@module-federation/runtime';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SINGLETONS, STRICT_SINGLETONS, sharedConfig, type SharedSingleton } from './index.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const APPS = ['host', 'trader', 'pricer', 'volatility'] as const;

/** The version pnpm linked into the app's node_modules, read from the file itself. */
const linkedVersion = (app: string, name: string): string =>
  (
    JSON.parse(readFileSync(join(repo, 'apps', app, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

describe('sharedConfig', () => {
  it.each(APPS)('%s: each singleton provides its installed version and requires a compatible one', (app) => {
    const config = sharedConfig(join(repo, 'apps', app));
    expect(Object.keys(config)).toEqual([...SINGLETONS]);
    for (const name of SINGLETONS) {
      const version = linkedVersion(app, name);
      expect(config[name]).toEqual({
        singleton: true,
        version,
        requiredVersion: `^${version}`,
        strictVersion: name !== 'react-hot-toast',
        allowNodeModulesSuffixMatch: true,
      });
    }
  });

  it('is strict for React, the router, Mantine and react-query', () => {
    expect([...STRICT_SINGLETONS].sort()).toEqual(
      ['@pfp/mantine', '@pfp/router', '@tanstack/react-query', 'react', 'react-dom'].sort(),
    );
  });

  it('leaves out what a remote omits, without resolving it', () => {
    expect(Object.keys(sharedConfig(join(repo, 'apps', 'trader'), ['react']))).toEqual(['react']);
  });
});

/**
 * The page as the federation runtime sees it: the host has loaded its copy of a singleton; a
 * remote asks for it with the shared config its build declares.
 */
async function loadInRemote(name: string, hostVersion: string, remoteShare: SharedSingleton) {
  const hostLib = { copy: `host ${hostVersion}` };
  const host = createInstance({
    name: `host-${name}-${hostVersion}`,
    remotes: [],
    shared: {
      [name]: {
        version: hostVersion,
        lib: () => hostLib,
        shareConfig: { singleton: true, requiredVersion: `^${hostVersion}` },
      },
    },
  });
  // The host has rendered with its copy: it is loaded before any remote asks.
  expect((await host.loadShare<typeof hostLib>(name)) !== false).toBe(true);
  const remote = createInstance({
    name: `remote-${name}-${hostVersion}`,
    remotes: [],
    shared: {
      [name]: {
        version: remoteShare.version,
        get: () => () => ({ copy: `remote ${remoteShare.version}` }),
        shareConfig: {
          singleton: remoteShare.singleton,
          requiredVersion: remoteShare.requiredVersion,
          strictVersion: remoteShare.strictVersion,
        },
      },
    },
  });
  remote.initShareScopeMap('default', host.shareScopeMap.default!);
  const factory = await remote.loadShare<{ copy: string }>(name);
  return factory === false ? undefined : factory()?.copy;
}

describe('a remote against the host’s singletons (federation runtime)', () => {
  const trader = sharedConfig(join(repo, 'apps', 'trader'));
  const major = (v: string) => Number(v.split('.')[0]);

  it('fails to load when the host’s React is an older major than the remote was built for', async () => {
    const react = trader.react!;
    const older = `${major(react.version) - 1}.0.0`;
    await expect(loadInRemote('react', older, react)).rejects.toThrow(
      `Version ${older} from host-react-${older} of shared singleton module react does not satisfy the requirement of remote-react-${older} which needs ^${react.version}`,
    );
  });

  it('fails to load when the host’s Mantine subset is older than the remote’s', async () => {
    const mantine = trader['@pfp/mantine']!;
    const [maj, min] = mantine.version.split('.').map(Number);
    const remoteShare = { ...mantine, version: `${maj}.${min! + 1}.0`, requiredVersion: `^${maj}.${min! + 1}.0` };
    await expect(loadInRemote('@pfp/mantine', mantine.version, remoteShare)).rejects.toThrow(
      /shared singleton module @pfp\/mantine does not satisfy/,
    );
  });

  it('uses the host’s copy when it is compatible (same major, same or newer)', async () => {
    const react = trader.react!;
    const newer = `${major(react.version)}.99.0`;
    expect(await loadInRemote('react', newer, react)).toBe(`host ${newer}`);
    expect(await loadInRemote('react', react.version, react)).toBe(`host ${react.version}`);
  });

  it('only warns for the toast store, and still uses the host’s copy', async () => {
    const toast = trader['react-hot-toast']!;
    expect(await loadInRemote('react-hot-toast', '1.0.0', toast)).toBe('host 1.0.0');
  });
});
