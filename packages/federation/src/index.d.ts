import type { UserConfig } from 'vite';
export declare const REMOTES: readonly ['trader', 'pricer', 'volatility'];
export type RemoteName = (typeof REMOTES)[number];
export declare const remoteBase: (name: RemoteName) => string;
export declare const REMOTE_ENTRY: 'remoteEntry.js';
export declare const REMOTE_MODULE: './App';
export declare const shared: Record<
  string,
  { singleton: true; requiredVersion: false; allowNodeModulesSuffixMatch: true }
>;
export declare function remoteConfig(name: RemoteName, options?: { omitShared?: string[] }): UserConfig;
export declare function hostConfig(): UserConfig;
