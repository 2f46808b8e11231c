// @ts-check
import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
import { loadConfig } from './src/lib/config.ts';

const { baseUrl } = loadConfig();

export default defineConfig({
  site: baseUrl,
  output: 'static',
  trailingSlash: 'ignore',
  build: {
    format: 'directory',
    // The Content-Security-Policy allows no inline style or script: everything goes in files.
    inlineStylesheets: 'never',
    // Pages are small and independent: rendering several at once overlaps their file writes.
    concurrency: 4,
  },
  vite: { build: { assetsInlineLimit: 0 } },
  devToolbar: { enabled: false },
  // Only the HTML pages belong in the sitemap, not the JSON API.
  integrations: [sitemap({ filter: (page) => !/\.(json|csv)$/.test(page) })],
});
