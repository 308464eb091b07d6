/**
 * Build configuration shared by the host and the three remotes, so that every app agrees on
 * the federation names, the public paths and the singletons (one React, one router, one Mantine,
 * one react-query and one toast store across the page).
 */
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { compression } from 'vite-plugin-compression2';

export const REMOTES = ['trader', 'pricer', 'volatility'];

/** Where a remote's build is served on the one origin. */
export const remoteBase = (name) => `/remotes/${name}/`;
export const REMOTE_ENTRY = 'remoteEntry.js';
export const REMOTE_MODULE = './App';

export const SINGLETONS = /** @type {const} */ ([
  'react',
  'react-dom',
  '@pfp/router',
  '@pfp/mantine',
  '@tanstack/react-query',
  'react-hot-toast',
]);

/**
 * Singletons whose hooks and contexts break with a different copy or an older one than the
 * remote was built against: a mismatch stops the load (the runtime throws) instead of a warning.
 * The toast store is not among them: an older one still shows the toasts.
 */
export const STRICT_SINGLETONS = new Set([
  'react',
  'react-dom',
  '@pfp/router',
  '@pfp/mantine',
  '@tanstack/react-query',
]);

/**
 * The version of `name` that a build in `root` bundles: the package.json of the package that
 * `root` resolves (walking up from its entry, as not every package exports ./package.json).
 * @param {string} name
 * @param {string} root
 * @returns {string}
 */
export function installedVersion(name, root) {
  const require = createRequire(join(root, 'package.json'));
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === name && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json at this level
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${name}: no package.json found above ${require.resolve(name)}`);
    dir = parent;
  }
}

/**
 * The shared singletons of a build in `root`: each provides the version installed there and
 * requires a compatible one (`^installed`) from whichever copy the page loaded first (the host's).
 * @param {string} [root] the app's directory (vite runs in it)
 * @param {readonly string[]} [names]
 */
export function sharedConfig(root = process.cwd(), names = SINGLETONS) {
  return Object.fromEntries(
    names.map((name) => {
      const version = installedVersion(name, root);
      return [
        name,
        {
          singleton: true,
          version,
          requiredVersion: `^${version}`,
          strictVersion: STRICT_SINGLETONS.has(name),
          allowNodeModulesSuffixMatch: true,
        },
      ];
    }),
  );
}

/**
 * Every text file of a build gets a brotli (.br) and a gzip (.gz) copy at maximum compression,
 * written once at build time; the server sends whichever the browser accepts (a fast first
 * paint). A copy not smaller than its file is not written.
 */
const precompress = () => compression({ algorithms: ['brotliCompress', 'gzip'] });

const devPorts = {
  host: 5170,
  trader: 5171,
  pricer: 5172,
  volatility: 5173,
};

/**
 * @param {'trader'|'pricer'|'volatility'} name
 * @param {{ omitShared?: string[] }} [options] singletons the remote never imports (declaring
 *   them would make the page fetch them for this remote anyway)
 * @returns {import('vite').UserConfig}
 * vite config of a remote: its route tree is exposed as './App' from remoteEntry.js. A remote is
 * a leaf (the host registers remotes), so its copy of the federation runtime leaves out remote
 * loading and manifest snapshots.
 */
export function remoteConfig(name, options = {}) {
  const omit = new Set(options.omitShared ?? []);
  return {
    base: remoteBase(name),
    plugins: [
      react(),
      federation({
        name,
        filename: REMOTE_ENTRY,
        exposes: { [REMOTE_MODULE]: './src/App.tsx' },
        shared: sharedConfig(
          process.cwd(),
          SINGLETONS.filter((lib) => !omit.has(lib)),
        ),
        dts: false,
        manifest: true,
        disableRemote: true,
        disableSnapshot: true,
      }),
      precompress(),
    ],
    server: { port: devPorts[name], strictPort: true, proxy: apiProxy() },
    preview: { port: devPorts[name] },
    build: { target: 'es2022', sourcemap: true },
    // A jsdom component test that renders a Mantine dialog takes 1–2 s alone and several times that
    // while the server suites share the 2 cores: the limit catches a hang, not a slow machine.
    // One process per worker, not per file (TEST_ISOLATE=on: per file): React, Mantine and the app's modules load
    // once instead of in every file — the trader's 20 files 19.9 → 9.2 s, the pricer's 13.4 → 8.0 s, alone
    // (docs/testing.md). jsdom is still made fresh for each file; file order shuffled, all pass.
    test: { testTimeout: 30_000, isolate: process.env.TEST_ISOLATE === 'on' },
  };
}

/** @returns {import('vite').UserConfig} vite config of the host: no static remotes; they are registered at runtime from a manifest. */
export function hostConfig() {
  return {
    base: '/',
    plugins: [
      react(),
      federation({
        name: 'host',
        remotes: {},
        shared: sharedConfig(),
        dts: false,
      }),
      precompress(),
    ],
    server: { port: devPorts.host, strictPort: true, proxy: apiProxy() },
    build: { target: 'es2022', sourcemap: true },
  };
}

/** In dev, every app talks to the server started by `pnpm --filter @pfp/server dev`. */
function apiProxy() {
  const target = process.env.API_ORIGIN ?? 'http://localhost:8080';
  return {
    '/api': target,
    '/realms': target,
    '/remotes.json': target,
    '/ws': { target, ws: true },
  };
}
