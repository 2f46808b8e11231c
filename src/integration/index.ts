/**
 * The listing as an Astro integration: the build of `npm run build` (`astro build` alone is
 * refused: session.ts) and `astro dev`. Its hooks only orchestrate: the build's steps are
 * build.ts's (begun by session.ts), dev's are dev.ts's, and the pages read the listing through a
 * virtual module (virtual-module.ts).
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { ViteDevServer } from 'vite';
import { loadConfig, type Config } from '../config.ts';
import { awaitDataBeforePages, BROKEN_ASSUMPTION } from './astro-internals.ts';
import { awaitData, closeBuild, finishBuild, PREPARATIONS_DIR } from './build.ts';
import type { Rendering, StartedBuild } from './hand-offs.ts';
import { serveListingInDev } from '../serve/dev-server.ts';
import { devData, type DevData } from './dev.ts';
import { buildFolders, faultMessage } from './faults.ts';
import { isRefusal, Refusal, stopWith } from './refusals.ts';
import { takeSession, type BuildSession } from './session.ts';
import { listingPrerenderer } from './listing-prerenderer.ts';
import { datasetPlugin } from './virtual-module.ts';

export default function listing(): AstroIntegration {
  let config: Config;
  let build: StartedBuild | undefined;
  let ready: Rendering | undefined;
  /** The build's session: whether it is published (once `finishBuild` has returned), and what undoes it until then. */
  let buildSession: BuildSession | undefined;
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
        const root = fileURLToPath(astroConfig.root);
        const cacheDir = fileURLToPath(astroConfig.cacheDir);
        if (command === 'build') {
          const folders = buildFolders(config, root, cacheDir);
          /** Stops the build on a refusal or a fault of the machine with its message; anything else is a bug, left to Astro. */
          const stopOn =
            (doing: string, cleanUp: () => void) =>
            (error: unknown): never => {
              if (isRefusal(error)) stopWith(error, logger, cleanUp);
              const fault = faultMessage(error, folders, doing, config.outDir, { published: buildSession?.published ?? false });
              if (fault !== undefined) stopWith(new Refusal(fault), logger, cleanUp);
              throw error;
            };
          const session = await takeSession(config, root, cacheDir, logger).catch(stopOn('starting', () => undefined));
          buildSession = session;
          const started = await session.started.catch(stopOn('starting', () => undefined));
          build = started;
          // Astro names the folder it renders into: the build's own, published only once complete.
          logger.info(`This build renders into ${started.folder.renderDir} and publishes it at ${config.outDir}/ once it is complete.`);
          const stop = stopOn('preparing the data', session.abandon);
          // Bad data or a cut the shrink guard refuses is said as soon as the data side finds it, not
          // once Vite has bundled the pages: the process exits at once, which the V8 flags `npm run
          // build` sets make safe (exit-safe-v8.ts). Any other error of the data is left to
          // `whenReady`, which reports it.
          started.data.catch((error: unknown) => {
            if (isRefusal(error)) stop(error);
          });
          finishing = stopOn('finishing the build', session.abandon);
          closing = stopOn('closing the published build', () => undefined);

          const whenReady = async () => {
            ready = await awaitData(started).catch(stop);
            // The listing pages' threads write into the folder that goes with an unpublished build: stopped first.
            session.stopWriters = ready.pages.stop;
          };
          updateConfig({
            outDir: pathToFileURL(`${started.folder.renderDir}/`),
            vite: {
              plugins: [
                // The module names the files of the build's folder (the plugin takes only those).
                datasetPlugin(config, () => ({ ...started.folder, problemReport: null }), { hooks: awaitDataBeforePages(whenReady) }),
              ],
              build: { emptyOutDir: false },
            },
          });
          return;
        }
        if (command === 'dev') {
          dev = devData(config, root, join(cacheDir, PREPARATIONS_DIR), logger);
          await dev.refresh();
          // The origin sends no CORS headers and answers OPTIONS itself; so does the dev server.
          updateConfig({ vite: { plugins: [datasetPlugin(config, dev.state, { live: true })], server: { cors: false } } });
          return;
        }
        updateConfig({
          vite: {
            plugins: [datasetPlugin(config, () => ({ recordsFile: null, summaryFile: null, problemReport: null }))],
          },
        });
      },
      'astro:server:setup': ({ server }) => {
        if (dev) serveListingInDev(server as unknown as ViteDevServer, dev);
      },
      'astro:build:start': ({ setPrerenderer }) => {
        if (!build) return;
        // On standard error, as the build's other lines: Astro's own info lines are not shown (scripts/build.ts).
        console.error('Astro: bundling the pages');
        // Astro renders after the data is ready (astro-internals.ts, assumption 1): `ready` is there by then.
        const pages = () => {
          if (!ready) throw new Error(`Astro rendered pages before the build's data was ready: ${BROKEN_ASSUMPTION}`);
          return ready.pages;
        };
        setPrerenderer(
          listingPrerenderer({
            onFrames: (frames) => pages().begin(frames),
            onChecked: (checked) => pages().checked.push(...checked),
          }),
        );
      },
      'astro:build:done': async () => {
        if (!build || !ready || !buildSession) return;
        const publication = await finishBuild(build, ready).catch(finishing);
        buildSession.published = true;
        await closeBuild(build, publication).catch(closing);
      },
    },
  };
}
