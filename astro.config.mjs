// @ts-check
import { defineConfig } from 'astro/config';
import listing from './src/integration/index.ts';
import { loadConfigOrExit } from './src/config.ts';
import { FINGERPRINTED_FOLDER } from './src/listing/routes.ts';
import { DEFAULT_LANGUAGE, LANGUAGES } from './src/listing/languages.ts';

// A bad environment exits here, with its message alone and code 2, before Astro can report it as a crash.
const { baseUrl, outDir, deployDir } = loadConfigOrExit();

export default defineConfig({
  site: baseUrl,
  output: 'static',
  // Where the site is published; a build renders into a folder of its own beside it and publishes it in one rename.
  outDir,
  trailingSlash: 'ignore',
  // The pages for people in each language (src/listing/languages.ts): the default at the root, the others under their own
  // path. Manual routing (src/middleware.ts): the pages need none of Astro's redirects or fallbacks.
  i18n: {
    locales: [...LANGUAGES],
    defaultLocale: DEFAULT_LANGUAGE,
    routing: 'manual',
  },
  build: {
    format: 'directory',
    // Bundled CSS and scripts, named by their content: the hosts serve this folder as immutable.
    assets: FINGERPRINTED_FOLDER,
    // The Content-Security-Policy allows no inline style or script: everything goes in files.
    inlineStylesheets: 'never',
  },
  vite: {
    build: { assetsInlineLimit: 0 },
    // `astro dev` watches the sources and the data file, not what builds, tests and benchmarks write.
    server: {
      watch: {
        ignored: [outDir, deployDir, 'bench/out', 'test-results', '.*.builds'].map((path) => `**/${path.replace(/^\.?\//, '')}/**`),
      },
    },
  },
  devToolbar: { enabled: false },
  // It renders only the pages that changed, writes the sitemaps of every page, and publishes the build.
  integrations: [listing()],
});
