/**
 * The one thing the integration assumes of Astro beyond its public API, held here so that an
 * upgrade that breaks it fails with a message naming it (test/http/build.test.ts builds the site,
 * which goes through it; package.json pins `astro` to the minor versions the tests ran on).
 *
 * The data is validated on a worker thread while Astro starts and Vite bundles, and awaited in a
 * Vite `buildApp` hook of order "post" of an ordinary plugin (see `awaitDataBeforePages`). Vite runs
 * such hooks in plugin order, and Astro's own, which renders the pages, is `enforce: "post"`: ours
 * therefore ends before any page's `getStaticPaths` runs. Astro offers no hook between bundling and
 * rendering.
 */
import type { Plugin } from 'vite';

const ASSUMPTION =
  "Astro renders pages only after an ordinary Vite plugin's buildApp hook of order \"post\" has settled (src/integration/astro-internals.ts)";

/** The plugin hook that holds Astro's page rendering until `ready` settles. */
export function awaitDataBeforePages(ready: () => Promise<unknown>): Pick<Plugin, 'buildApp'> {
  return {
    buildApp: {
      order: 'post',
      handler: async () => {
        await ready();
      },
    },
  };
}

/** Reads what the data side wrote for the pages; its absence means the assumption above broke. */
export function dataReadyBeforePages<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(`The pages were rendered before the build's data was ready: an Astro upgrade broke an assumption. ${ASSUMPTION}.`);
  }
}
