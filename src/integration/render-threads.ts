/**
 * People's pages rendered and written on every core: a prerenderer (Astro's public
 * `setPrerenderer`) that hands the listing's pages to worker threads, each rendering them with the
 * prerender bundle as Astro's own prerenderer does and writing each page's file itself
 * (astro-internals.ts, assumption 3): Astro writes no file for a page answered without a body. Each
 * page's SHA-256 is taken there too, for the manifest. Anything else (the schemas, the OpenAPI
 * document, the 404 page), and every page where the assumption does not hold, is Astro's own
 * prerenderer's; a page a thread could not write (a full disk) is handed back to Astro with its
 * body, so that Astro's own write fails and is reported as every page write is.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { AstroPrerenderer } from 'astro';
import { writeOrLinkPublished } from '../data/links.ts';
import { threadPool, type ThreadPool } from '../threads.ts';
import { renderThreadInput } from './astro-internals.ts';

/** The listing's page routes, by their component: rendered on the threads. */
const LISTING_PAGES = new Set([
  'src/pages/index.astro',
  'src/pages/page/[page].astro',
  'src/pages/zh-hk/index.astro',
  'src/pages/zh-hk/page/[page].astro',
]);

export interface RenderTask {
  url: string;
  /** The page's route (`/page/[page]`). */
  route: string;
  /** The published page's SHA-256 (its manifest's), where it may be linked rather than written. */
  publishedSha256?: string;
}

/** The published site's folder and its files' SHA-256 by site path (the baseline's), where pages may be its files. */
export interface PublishedPages {
  siteDir: string;
  hashes: Readonly<Record<string, string>>;
}

export interface RenderedPage {
  status: number;
  headers: [string, string][];
  sha256: string;
  /** The page's bytes, where the thread did not write them. */
  body?: ArrayBuffer;
}

/** How many threads render the listing's pages: one a core (this thread only hands them out and takes their answers). */
const RENDER_THREADS = availableParallelism();
/**
 * Each render thread's V8 heap for long-lived objects, in MiB: a thread holds the prerender bundle
 * and one page at a time, and V8 left to itself grows the heap far past that before it collects.
 * `--max-old-space-size` (`npm run build`) wins over it.
 */
const RENDER_THREAD_HEAP_MIB = 128;
/**
 * Pages a render thread is sent in one message, and answers in one: a message between threads costs
 * about what rendering a page does, whatever it carries.
 */
const PAGES_A_MESSAGE = 16;
/**
 * Pages Astro has under way at once (its `build.concurrency`, astro.config.mjs): two messages for
 * each render thread, so that a thread has the next to work on while its last answer is taken and
 * Astro asks for the pages that follow.
 */
export const PAGES_UNDER_WAY = 2 * PAGES_A_MESSAGE * RENDER_THREADS;
/**
 * Below this many HTML pages to render, this thread renders them: each render thread loads the
 * prerender bundle again (about 0.3 s), more than a few hundred pages cost.
 */
const THREADS_FROM_PAGES = 1000;

/** The site path of the page Astro writes for `pathname` (build.format 'directory'). */
const fileOf = (pathname: string) => (pathname.endsWith('/') ? `${pathname.slice(1)}index.html` : pathname.slice(1));

/**
 * A prerenderer for `setPrerenderer`: the listing's pages rendered and written into `renderDir` (where
 * Astro renders) on RENDER_THREADS threads of render-worker.ts; `hashes` is given each page's
 * SHA-256 by its site path. A page whose bytes are those of the `published` site's page is that
 * file, linked (src/data/links.ts, `writeOrLinkPublished`): give `published` only where `renderDir`
 * is on its file system.
 */
export function renderingOnThreads(
  renderDir: string,
  hashes: Map<string, string>,
  htmlPages: Promise<number>,
  published?: PublishedPages,
): (astroDefault: AstroPrerenderer) => AstroPrerenderer {
  return (astroDefault) => {
    let pool: ThreadPool<RenderTask, RenderedPage> | undefined;
    /** A pool given up on (a thread ran out of heap): its other thread's pages under way finish; it stops with the build. */
    let retired: ThreadPool<RenderTask, RenderedPage> | undefined;
    const writeHere = pageWriter(renderDir, published?.siteDir);
    return {
      ...astroDefault,
      name: 'listing:threads',
      setup: async () => {
        await astroDefault.setup?.();
        const input = renderThreadInput(astroDefault, renderDir);
        if (input && (await htmlPages) >= THREADS_FROM_PAGES)
          pool = threadPool(
            'render',
            new URL('./render-worker.ts', import.meta.url),
            { ...input, renderDir, ...(published && { publishedSiteDir: published.siteDir }) },
            {
              size: RENDER_THREADS,
              batch: PAGES_A_MESSAGE,
              resourceLimits: { maxOldGenerationSizeMb: RENDER_THREAD_HEAP_MIB },
            },
          );
        console.error(`Astro: rendering the pages on ${pool === undefined ? 'one thread' : `${RENDER_THREADS} threads`}`);
      },
      render: async (request, options) => {
        const { component, route } = options.routeData;
        if (options.collectMetadata || !LISTING_PAGES.has(component)) return astroDefault.render(request, options);
        const path = fileOf(new URL(request.url).pathname);
        const publishedSha256 = published?.hashes[path];
        // Without threads (the bundle is not as assumed), this thread renders the page, and writes it as they do.
        const here = async () => {
          const result = await astroDefault.render(request, options);
          return (await writeHere(request.url, result instanceof Response ? result : result.response, publishedSha256)).result;
        };
        let page: RenderedPage;
        try {
          page =
            pool === undefined ? await here() : await pool.run({ url: request.url, route, ...(publishedSha256 && { publishedSha256 }) });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') throw error;
          // Safe to go on: this thread renders the page and the rest. The thread may have written it before it failed
          // (it answers a message's pages together): that file, this build's own, is removed first.
          rmSync(join(renderDir, path), { force: true });
          if (pool !== undefined) {
            console.error(
              `Astro: a render thread ran out of its ${RENDER_THREAD_HEAP_MIB} MiB heap; rendering the other pages on this thread`,
            );
            [retired, pool] = [pool, undefined];
          }
          page = await here();
        }
        if (page.status === 200) hashes.set(path, page.sha256);
        return new Response(page.body ?? null, { status: page.status, headers: page.headers });
      },
      teardown: async () => {
        await pool?.stop();
        await retired?.stop();
        await astroDefault.teardown?.();
      },
    };
  };
}

/**
 * A render thread's work (render-worker.ts, and this thread's where it renders a page itself): the
 * page's file written into `renderDir` (each a new file), or linked from `publishedSiteDir` where
 * the published page has its bytes; its hash taken.
 */
export function pageWriter(
  renderDir: string,
  publishedSiteDir?: string,
): (url: string, response: Response, publishedSha256?: string) => Promise<{ result: RenderedPage; transfer: ArrayBuffer[] }> {
  return async (url, response, publishedSha256) => {
    const body = new Uint8Array(await response.arrayBuffer());
    const result = { status: response.status, headers: [...response.headers], sha256: createHash('sha256').update(body).digest('hex') };
    if (response.status !== 200) return { result: { ...result, body: body.buffer }, transfer: [body.buffer] };
    const path = fileOf(new URL(url).pathname);
    const file = join(renderDir, path);
    try {
      // Each page has a folder of its own (build.format 'directory'): no folder is made twice.
      mkdirSync(dirname(file), { recursive: true });
      // A new file: a page to render was removed from the folder first (src/publish/reuse.ts).
      const published =
        publishedSiteDir !== undefined && publishedSha256 !== undefined
          ? { file: join(publishedSiteDir, path), sha256: publishedSha256 }
          : undefined;
      writeOrLinkPublished(file, body, result.sha256, published);
      return { result, transfer: [] };
    } catch (error) {
      // A file already there may be a published file's other name: Astro would write through it.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
      // Handed back to Astro, whose own write then fails and is reported as every page write is.
      return { result: { ...result, body: body.buffer }, transfer: [body.buffer] };
    }
  };
}
