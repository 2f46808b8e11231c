// @ts-check
import { defineConfig } from 'astro/config';
import { loadConfig } from './src/lib/config.ts';

const { baseUrl } = loadConfig();

export default defineConfig({
  site: baseUrl,
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
});
