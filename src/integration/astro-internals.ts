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
 * 2. An integration's logger shares its options object, destination included, with Astro's own
 *    logger (`AstroIntegrationLogger.options` is public, the sharing is not documented): so the
 *    build can say `directory: dist/` where Astro would name the build's own folder in the store,
 *    which means nothing to a maintainer (see `namePublishedFolder`).
 *
 * 3. In `astro dev`, Astro evaluates the pages with Vite's runnable SSR environment in the dev
 *    server's own process and realm, so they see what the integration puts on `globalThis`
 *    (`shareWithDevPages`). The pages read the dev server's current data through it: an edit then
 *    needs no module evaluated again, where a reload of Vite's SSR modules re-evaluates every page
 *    module and Astro's runtime (a few hundred ms at each edit). Should pages be evaluated
 *    elsewhere, the virtual module says so instead of showing stale data (test/http/dev.test.ts
 *    edits the data under a running dev server).
 *
 * 4. A prerenderer (Astro's public `setPrerenderer`) that answers a path with a response without a
 *    body makes Astro write no file for it; Astro then logs "(file not created, response body was
 *    empty)" after the page's line, which `namePublishedFolder`'s destination drops. Astro writes
 *    each page with `fs.promises` (a mkdir, open, write and close, each a round trip through
 *    libuv's thread pool): about a quarter of a page's cost on the main thread here, where the
 *    same writes made synchronously cost a tenth of that (see `writingPages`; test/http/build.test.ts
 *    checks both halves).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AstroIntegrationLogger, AstroPrerenderer } from 'astro';
import type { Plugin } from 'vite';

const ASSUMPTION =
  'Astro renders pages only after an ordinary Vite plugin\'s buildApp hook of order "post" has settled (src/integration/astro-internals.ts)';

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
    throw new Error(`The pages were rendered before the build's data was ready: an Astro upgrade broke an assumption. ${ASSUMPTION}.`);
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
    "astro dev evaluated the pages where the listing integration's data cannot reach them: an Astro upgrade broke an assumption (src/integration/astro-internals.ts, 3)",
  )});`,
  'export const datasetState = () => devState();',
].join('\n');

/**
 * Astro's prerenderer, but the pages `fileOf` names a file for (a path's file in the folder Astro
 * renders into) are written there by this process at once (assumption 4). A page that cannot be
 * written is handed back to Astro with its body, so that its own write fails and is reported as
 * every failed page write is (a full disk, say).
 */
export function writingPages(fileOf: (pathname: string) => string | undefined): (astroDefault: AstroPrerenderer) => AstroPrerenderer {
  return (astroDefault) => ({
    ...astroDefault,
    name: 'listing',
    render: async (request, options) => {
      const rendered = await astroDefault.render(request, options);
      const response = rendered instanceof Response ? rendered : rendered.response;
      const file = fileOf(new URL(request.url).pathname);
      if (file === undefined || response.status !== 200 || response.body === null) return rendered;
      const body = new Uint8Array(await response.arrayBuffer());
      let answer: Response;
      try {
        mkdirSync(dirname(file), { recursive: true });
        // A new file: a page to render was removed from the folder first (src/publish/reuse.ts).
        writeFileSync(file, body, { flag: 'wx' });
        answer = new Response(null, { status: response.status, headers: response.headers });
      } catch {
        // Handed back to Astro, whose own write then fails and is reported as every page write is (a full disk, say).
        answer = new Response(body, { status: response.status, headers: response.headers });
      }
      return rendered instanceof Response ? answer : { ...rendered, response: answer };
    },
  });
}

type LogMessage = Parameters<AstroIntegrationLogger['options']['destination']['write']>[0];

/** What Astro appends to the line of a page whose file it did not write (assumption 4), colours and all. */
const NOT_WRITTEN_BY_ASTRO = /\s*(?:\x1b\[[0-9;]*m)*\(file not created, response body was empty\)(?:\x1b\[[0-9;]*m)*/g;
/** The end of a page's line: its render time, which Astro logs apart from the page's name. */
const PAGE_TIME = /^\s*(?:\x1b\[[0-9;]*m)*\(\+/;

/**
 * From now on, Astro's messages that name `buildSiteDir` name the published folder `outDir`
 * instead, and a page this integration wrote (see `writingPages`) is not said to be missing.
 * Astro logs a page's name, then its render time once it is written; with several pages rendered
 * at once (`build.concurrency`) another page's name came in between, so each name is held until
 * a time comes to end its line, first in first out. Pages may finish in another order than they
 * started: a time then shows beside a neighbour's name, as Astro's own lines did.
 *
 * The notice is dropped from every page's line: a listing page Astro rendered without a body
 * (never, for pages that always render HTML) would lose it too.
 */
export function namePublishedFolder(logger: AstroIntegrationLogger, buildSiteDir: string, outDir: string): void {
  const destination = logger.options.destination;
  const shown = `${outDir.replace(/\/+$/, '')}/ (published when the build is complete)`;
  const told = (message: string) => {
    const named = message.includes(buildSiteDir) ? message.replaceAll(`${buildSiteDir}/`, shown).replaceAll(buildSiteDir, shown) : message;
    return named.includes('file not created') ? named.replace(NOT_WRITTEN_BY_ASTRO, '') : named;
  };
  const unended: LogMessage[] = [];
  const endAll = () => {
    for (const chunk of unended.splice(0)) destination.write({ ...chunk, newLine: true });
  };
  logger.options.destination = {
    ...(destination.flush && { flush: () => (endAll(), destination.flush?.()) }),
    ...(destination.close && { close: () => (endAll(), destination.close?.()) }),
    write: (chunk: LogMessage) => {
      const message = told(chunk.message);
      if (!chunk.newLine) {
        unended.push({ ...chunk, message });
        return true;
      }
      const name = PAGE_TIME.test(message) ? unended.shift() : undefined;
      if (name !== undefined) return destination.write({ ...name, message: `${name.message}${message}`, newLine: true });
      // Anything else (a warning while pages render, say) goes out now, on a line of its own; the
      // names held still wait for their times.
      return destination.write(message === chunk.message ? chunk : { ...chunk, message });
    },
  };
}
