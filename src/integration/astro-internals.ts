/**
 * What the integration assumes of Astro beyond its public API, held here so that an upgrade that
 * breaks it fails a test that names it (test/http/build.test.ts builds the site through both;
 * package.json pins `astro` to the minor versions the tests ran on).
 *
 * 1. The data is validated on a worker thread while Astro starts and Vite bundles, and awaited in a
 * Vite `buildApp` hook of order "post" of an ordinary plugin (see `awaitDataBeforePages`). Vite runs
 * such hooks in plugin order, and Astro's own, which renders the pages, is `enforce: "post"`: ours
 * therefore ends before any page's `getStaticPaths` runs. Astro offers no hook between bundling and
 * rendering.
 *
 * 2. In `astro dev`, Astro evaluates the pages with Vite's runnable SSR environment in the dev
 *    server's own process and realm, so they see what the integration puts on `globalThis`
 *    (`shareWithDevPages`). The pages read the dev server's current data through it: an edit then
 *    needs no module evaluated again, where a reload of Vite's SSR modules re-evaluates every page
 *    module and Astro's runtime (a few hundred ms at each edit). Should pages be evaluated
 *    elsewhere, the virtual module says so instead of showing stale data (test/http/dev.test.ts
 *    edits the data under a running dev server).
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Plugin } from 'vite';

/** Assumption 1, as the error that says it broke names it. */
export const BROKEN_ASSUMPTION =
  'an Astro upgrade broke an assumption. Astro renders pages only after an ordinary Vite plugin\'s buildApp hook of order "post" has settled (src/integration/astro-internals.ts)';

/** The plugin hook that holds Astro's page rendering until `ready` settles. */
export function awaitDataBeforePages(ready: () => Promise<void>): Pick<Plugin, 'buildApp'> {
  return { buildApp: { order: 'post', handler: ready } };
}

/**
 * Reads what the data side wrote for the pages; its absence from a build folder that is there
 * means the assumption above broke (a build folder that vanished is the machine's fault, and its
 * error is left as it is: see faults.ts).
 */
export function dataReadyBeforePages<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    if (code !== 'ENOENT' || path === undefined || !existsSync(dirname(path))) throw error;
    throw new Error(`The pages were rendered before the build's data was ready: ${BROKEN_ASSUMPTION}.`);
  }
}

/** Where the dev server's current data is put for the pages, and how the virtual module's code reaches it. */
const DEV_STATE = 'listing:dev-dataset';

export function shareWithDevPages(state: () => unknown): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for(DEV_STATE)] = state;
}

/** The virtual module's code that gives the dev server's current data (see assumption 3). */
export const DEV_STATE_CODE = [
  `const devState = globalThis[Symbol.for(${JSON.stringify(DEV_STATE)})];`,
  `if (typeof devState !== 'function') throw new Error(${JSON.stringify(
    "astro dev evaluated the pages where the listing integration's data cannot reach them: an Astro upgrade broke an assumption (src/integration/astro-internals.ts, 2)",
  )});`,
  'export const datasetState = () => devState();',
].join('\n');
