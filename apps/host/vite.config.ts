import { hostConfig } from '@pfp/federation';
import { defineConfig } from 'vite';

export default defineConfig(hostConfig());
