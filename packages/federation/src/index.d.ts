import type { UserConfig } from 'vite';
export declare const REMOTES: readonly ['trader', 'pricer', 'volatility'];
export type RemoteName = (typeof REMOTES)[number];
export declare const remoteBase: (name: RemoteName) => string;
export declare const REMOTE_ENTRY: 'remoteEntry.js';
export declare const REMOTE_MODULE: './App';
export declare const SINGLETONS: readonly [
  'react',
  'react-dom',
  '@pfp/router',
  '@pfp/mantine',
  '@tanstack/react-query',
  'react-hot-toast',
];
export declare const STRICT_SINGLETONS: ReadonlySet<string>;
export interface SharedSingleton {
  singleton: true;
  version: string;
  requiredVersion: string;
  strictVersion: boolean;
  allowNodeModulesSuffixMatch: true;
}
export declare function installedVersion(name: string, root: string): string;
export declare function sharedConfig(root?: string, names?: readonly string[]): Record<string, SharedSingleton>;
export declare function remoteConfig(name: RemoteName, options?: { omitShared?: string[] }): UserConfig;
export declare function hostConfig(): UserConfig;
