// @ts-check
import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
import listing from './src/integration/index.ts';
import { loadConfig } from './src/config.ts';

const { baseUrl, outDir, deployDir } = loadConfig();

export default defineConfig({
  site: baseUrl,
  output: 'static',
  // Where the site is published; a build renders into a folder beside it and swaps it in when done.
  outDir,
  trailingSlash: 'ignore',
  build: {
    format: 'directory',
    // The Content-Security-Policy allows no inline style or script: everything goes in files.
    inlineStylesheets: 'never',
    // Pages are small and independent: rendering several at once overlaps their file writes.
    concurrency: 4,
  },
  vite: {
    build: { assetsInlineLimit: 0 },
    // `astro dev` watches the sources and the data file, not what builds, tests and benchmarks write.
    server: {
      watch: {
        ignored: [outDir, deployDir, 'bench/out', 'test-results', '.staging-*', '.retired-*', '.spare-*'].map((path) => `**/${path.replace(/^\.?\//, '')}/**`),
      },
    },
  },
  devToolbar: { enabled: false },
  // Pages whose data (their cacheKey) and code did not change are copied from the previous build.
  experimental: { incrementalBuild: true },
  integrations: [
    // Only the HTML pages belong in the sitemap, not the JSON API.
    sitemap({ filter: (page) => !/\.(json|csv)$/.test(page) }),
    // Last: it publishes the site once every other integration has written to it.
    listing(),
  ],
});
