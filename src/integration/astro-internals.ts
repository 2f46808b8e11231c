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
 *
 * 3. Pages render on worker threads: see `renderThreadInput` below.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroPrerenderer } from 'astro';
import type { Plugin } from 'vite';
import { ifPresent } from '../data/missing.ts';

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
    "astro dev evaluated the pages where the listing integration's data cannot reach them: an Astro upgrade broke an assumption (src/integration/astro-internals.ts, 2)",
  )});`,
  'export const datasetState = () => devState();',
].join('\n');

/**
 * 3. Astro's default prerenderer (the one `setPrerenderer` wraps) imports the prerender bundle's
 *    entry, `prerender-entry*.mjs` in `.prerender/` of its output folder (the build's `outDir`
 *    where that path starts with the working folder's, else the working folder's `.astro/`),
 *    whose `app` renders a page once told the build's internals and options (`setInternals`,
 *    `setOptions`); after its `setup`, it keeps that `app`, whose `getOptions()` gives the build's
 *    options. Of those, rendering a page reads only each page's styles (`pagesByKeys`, which are
 *    `options.allPages`' page data) and the scripts the settings inject (`settings.scripts`, of
 *    which a page-stage one would also need `entrySpecifierToBundleMap`). So a worker thread can
 *    import the same entry and render pages itself, given those as plain data (render-threads.ts,
 *    render-worker.ts). Where any of it is not found, pages render on this thread, as Astro's own
 *    prerenderer renders them. There, the entry's `app.manifest.pageMap` maps each page's component
 *    to a function that imports its module, which a thread calls once (`appOnThread`).
 */
const PRERENDER_ENTRY = /^prerender-entry.*\.mjs$/;

interface BuildApp {
  getOptions(): {
    allPages: Record<string, { key: string; styles: unknown[] }>;
    settings: { scripts: readonly { stage: string; content: string }[] };
  };
}

/** What a render thread needs to render the pages as Astro's own prerenderer would. */
export interface RenderThreadInput {
  /** The prerender bundle's entry, as a file URL. */
  entry: string;
  /** Each page's key and styles, for `pagesByKeys`. */
  pages: [string, { styles: unknown[] }][];
  /** The scripts the settings inject (none of the page stage). */
  scripts: { stage: string; content: string }[];
}

/** The folder Astro writes its prerender bundle into, for a build whose `outDir` is `outDir`. */
function prerenderFolder(outDir: string, cwd = process.cwd()): string {
  // Astro's own test (getOutDirWithinCwd): a string prefix, not a folder's.
  return join(outDir.startsWith(cwd) ? outDir : join(cwd, '.astro'), '.prerender');
}

/**
 * Removes what earlier builds left in the prerender folder (Astro removes it after a build that
 * succeeds, not after one that failed): called under the build lock, before Astro bundles.
 */
export function clearPrerenderFolder(outDir: string): void {
  rmSync(prerenderFolder(outDir), { recursive: true, force: true });
}

/** What a render thread is given, found beside Astro's own prerenderer once it is set up; undefined where assumption 3 does not hold. */
export function renderThreadInput(astroDefault: AstroPrerenderer, outDir: string): RenderThreadInput | undefined {
  const app = (astroDefault as { app?: Partial<BuildApp> }).app;
  const options = typeof app?.getOptions === 'function' ? app.getOptions() : undefined;
  const folder = prerenderFolder(outDir);
  // The folder is emptied as the build starts (`clearPrerenderFolder`): one entry, this build's.
  const entries = (ifPresent(() => readdirSync(folder)) ?? []).filter((name) => PRERENDER_ENTRY.test(name));
  const entry = entries.length === 1 ? entries[0] : undefined;
  if (options?.allPages === undefined || !Array.isArray(options.settings?.scripts) || entry === undefined) return undefined;
  if (options.settings.scripts.some((script) => script.stage === 'page')) return undefined;
  return {
    entry: pathToFileURL(join(folder, entry)).href,
    pages: Object.values(options.allPages).map((page) => [page.key, { styles: page.styles }]),
    scripts: options.settings.scripts.map(({ stage, content }) => ({ stage, content })),
  };
}

/**
 * The app of the prerender bundle's entry, told what `renderThreadInput` found, on a render thread:
 * it renders a page given its route (`/page/[page]`), found in the app's own route table (a route's
 * data holds functions, which cannot cross to a thread).
 */
export async function appOnThread({
  entry,
  pages,
  scripts,
}: RenderThreadInput): Promise<(request: Request, route: string) => Promise<Response>> {
  // The entry is this build's bundle, found at run time: nothing for Vite to follow, where `astro dev` loads this module.
  const { app } = (await import(/* @vite-ignore */ entry)) as {
    app: {
      setInternals(internals: unknown): void;
      setOptions(options: unknown): void;
      manifestData: { routes: { route: string }[] };
      manifest: { pageMap?: unknown };
      render(request: Request, options: { routeData: unknown }): Promise<Response>;
    };
  };
  app.setInternals({ pagesByKeys: new Map(pages), entrySpecifierToBundleMap: new Map() });
  // Its log lines (none, where a page renders) go to this thread's standard error.
  const destination = { write: (chunk: { message: string }) => process.stderr.write(`${chunk.message}\n`) };
  app.setOptions({ settings: { scripts }, logger: { options: { destination } } });
  // Astro loads a page's module with `import()` at each page it renders, which asks Node's module loader again each time
  // (about 4 % of a render thread's time): each is loaded once here. Where the map is not there, pages load as Astro loads them, and it says so.
  const pageMap = app.manifest.pageMap instanceof Map ? (app.manifest.pageMap as Map<string, () => Promise<unknown>>) : undefined;
  if (pageMap !== undefined)
    for (const [component, load] of pageMap) {
      let loaded: Promise<unknown> | undefined;
      pageMap.set(component, () => (loaded ??= load()));
    }
  else
    process.stderr.write(
      "Astro: a render thread loads a page's module at each page it renders, more slowly: an Astro upgrade broke an assumption (src/integration/astro-internals.ts, 3)\n",
    );
  const routes = new Map(app.manifestData.routes.map((routeData) => [routeData.route, routeData]));
  return (request, route) => {
    const routeData = routes.get(route);
    if (routeData === undefined)
      throw new Error(
        `the prerender bundle has no route ${route}: an Astro upgrade broke an assumption (src/integration/astro-internals.ts, 3)`,
      );
    return app.render(request, { routeData });
  };
}
