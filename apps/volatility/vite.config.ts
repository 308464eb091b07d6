import { remoteConfig } from '@pfp/federation';
import { defineConfig } from 'vite';

// The curve page uses no react-query: not declaring it keeps it out of the page's first load.
export default defineConfig(remoteConfig('volatility', { omitShared: ['@tanstack/react-query'] }));
