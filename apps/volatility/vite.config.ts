import { remoteConfig } from '@pfp/federation';
import { defineConfig } from 'vite';

export default defineConfig(remoteConfig('volatility'));
