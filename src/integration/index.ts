/**
 * The listing as an Astro integration: the one build path of `npm run build`, `astro build` and
 * `astro dev`. Its hooks only orchestrate; each step lives in its own module:
 *
 * - build: start (lock, published build, data side on a worker thread) → await the data before any
 *   page is rendered → finish and publish in one rename → close (build.ts), or stop with a message
 *   (refusals.ts);
 * - dev: the data prepared again after every edit, answered by the same request handler as the
 *   preview server (dev.ts);
 * - the pages read the listing through a virtual module (virtual-module.ts, dataset.ts).
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { ViteDevServer } from 'vite';
import { loadConfig, type Config } from '../config.ts';
import { awaitDataBeforePages, namePublishedFolder, writingPages } from './astro-internals.ts';
import { abandonBuild, awaitData, closeBuild, finishBuild, listingPageFiles, PREPARED_DIR, startBuild, type Rendering, type StartedBuild } from './build.ts';
import { devData, serveDev, type DevData } from './dev.ts';
import { buildFolders, faultMessage } from './faults.ts';
import { isInterrupted, stopOnInterrupt } from './interrupts.ts';
import { Refusal, REFUSED_EXIT_CODE, stopWith } from './refusals.ts';
import { datasetPlugin } from './virtual-module.ts';

export default function listing(): AstroIntegration {
  let config: Config;
  let publicDir = '';
  let build: StartedBuild | undefined;
  let ready: Rendering | undefined;
  /** Set once `finishBuild` has returned: from then on the build is the published one, never undone. */
  let published = false;
  let dev: DevData | undefined;
  let finishing: (error: unknown) => never = (error) => {
    throw error;
  };
  let closing = finishing;

  return {
    name: 'listing',
    hooks: {
      'astro:config:setup': async ({ command, config: astroConfig, updateConfig, logger }) => {
        // astro.config.mjs has already stopped on an invalid environment (exit code 2).
        config = loadConfig();
        publicDir = fileURLToPath(astroConfig.publicDir);
        const root = fileURLToPath(astroConfig.root);
        const cacheDir = fileURLToPath(astroConfig.cacheDir);
        if (command === 'build') {
          const folders = buildFolders(config, root, cacheDir);
          /** Stops the build on a refusal or a fault of the machine with its message; anything else is a bug, left to Astro. */
          const stopOn =
            (doing: string, cleanUp: () => void) =>
            (error: unknown): never => {
              if (error instanceof Refusal) stopWith(error, logger, cleanUp);
              const fault = faultMessage(error, folders, doing, config.outDir, { published });
              if (fault !== undefined) stopWith(new Refusal(fault), logger, cleanUp);
              throw error;
            };
          stopOnInterrupt(() => published, config.outDir, logger);
          const started = await startBuild(config, root, cacheDir, logger).catch(stopOn('starting', () => undefined));
          build = started;
          namePublishedFolder(logger, started.folder.renderDir, config.outDir);
          const abandon = () => {
            if (published) return;
            // The JSON pages' thread writes into the folder that goes: stopped first.
            ready?.jsonPages.stop();
            abandonBuild(started);
          };
          const stop = stopOn('preparing the data', abandon);
          finishing = stopOn('finishing the build', abandon);
          closing = stopOn('closing the published build', () => undefined);
          // A build that fails leaves the published site as it was (a refused one has said so).
          process.once('exit', (code) => {
            if (published) return;
            abandon();
            if (code !== REFUSED_EXIT_CODE && !isInterrupted(code)) console.error(`\nThe build failed; ${config.outDir}/ is unchanged.`);
          });

          const whenReady = async () => {
            ready = await awaitData(started, logger).catch(stop);
          };
          updateConfig({
            outDir: pathToFileURL(`${started.folder.renderDir}/`),
            vite: {
              plugins: [datasetPlugin(config, () => ({ recordsFile: started.folder.recordsFile, summaryFile: started.folder.summaryFile, renderFile: started.folder.renderFile, problemReport: null }), { hooks: awaitDataBeforePages(whenReady) })],
              build: { emptyOutDir: false },
            },
          });
          return;
        }
        if (command === 'dev') {
          dev = devData(config, root, join(cacheDir, PREPARED_DIR), logger);
          await dev.refresh();
          // The origin sends no CORS headers and answers OPTIONS itself; so does the dev server.
          updateConfig({ vite: { plugins: [datasetPlugin(config, dev.state, { live: true })], server: { cors: false } } });
          return;
        }
        updateConfig({ vite: { plugins: [datasetPlugin(config, () => ({ recordsFile: null, summaryFile: null, renderFile: null, problemReport: null }))] } });
      },
      'astro:server:setup': ({ server }) => {
        if (dev) serveDev(server as unknown as ViteDevServer, config, dev);
      },
      'astro:build:start': ({ setPrerenderer }) => {
        // The HTML pages are written as Astro renders them, without its per-page round trips through the thread pool.
        const fileOf = build && listingPageFiles(build, publicDir);
        if (fileOf) setPrerenderer(writingPages(fileOf));
      },
      'astro:build:done': async () => {
        if (!build || !ready) return;
        const publication = await finishBuild(build, ready).catch(finishing);
        published = true;
        await closeBuild(build, publication).catch(closing);
      },
    },
  };
}
