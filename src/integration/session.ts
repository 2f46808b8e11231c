/**
 * A build as this process runs it: the build (build.ts), and what ends it from outside, a signal or
 * the process's exit, which remove an unpublished build's folder (interrupts.ts).
 *
 * `npm run build` begins it before it loads Astro (`beginEarly`), so that the data side runs on its
 * worker thread while Astro is imported rather than after. The integration takes that session at
 * astro:config:setup (`takeSession`) when it is for the same configuration, project and cache
 * folder; a configuration that moves Astro's cache folder, which the early start cannot know, has
 * it begun again there. Without one, Astro was started by another command than `npm run build`
 * (`astro build`), which is refused: what `npm run build` does before Astro loads (the check for
 * nothing to build, the V8 flags a build's exit needs: exit-safe-v8.ts) cannot be done once it has.
 * The session is handed over through `globalThis`, not a module variable: Astro may load
 * astro.config.mjs, and the integration with it, as module instances of their own, but always in
 * this process (`build()` runs in it).
 */
import { join, resolve } from 'node:path';
import type { AstroIntegrationLogger } from 'astro';
import nodeLogDestination from 'astro/logger/node';
import type { Config } from '../config.ts';
import { PROJECT_CACHE_DIR } from '../publish/lock.ts';
import { abandonBuild, startBuild } from './build.ts';
import type { StartedBuild } from './hand-offs.ts';
import { isInterrupted, stopOnInterrupt } from './interrupts.ts';
import { Refusal, REFUSED_EXIT_CODE, unchangedSite } from './refusals.ts';

type Warn = (message: string) => void;

export interface BuildSession {
  /** The build once started; rejected with a `Refusal` or a fault of the machine, which the integration reports. */
  readonly started: Promise<StartedBuild>;
  /** Whether the build is published: from then on nothing undoes it. */
  published: boolean;
  /** Stops what else writes into the build's folder (the JSON pages' thread) before the folder goes. */
  stopWriters: () => void;
  /** Removes the folder of a build that did not publish (again at exit: harmless). */
  abandon: () => void;
  /** From now on the session's warnings go through the integration's logger. */
  warnThrough: (logger: AstroIntegrationLogger) => void;
  /** Ends a session that will not build: its data side stopped, its folder and the build lock let go, then its signal and exit handlers removed. Once, however often called. */
  end: () => Promise<void>;
}

/** A session, and what it is for. */
type KeyedSession = ReturnType<typeof begin>;

const EARLY_SESSION = Symbol.for('listing:early-build-session');
const handover = globalThis as { [EARLY_SESSION]?: KeyedSession };

/** What a session is for: the same configuration, project and cache folder build the same. */
const keyOf = (config: Config, root: string, cacheDir: string) => JSON.stringify({ config, root, cacheDir });

/**
 * A session: the build started, and the handlers that end it from outside. `root` and `cacheDir`
 * are taken as absolute paths without a trailing separator, however given (Astro's end with one).
 */
function begin(config: Config, givenRoot: string, givenCacheDir: string, firstWarn: Warn) {
  const [root, cacheDir] = [resolve(givenRoot), resolve(givenCacheDir)];
  let build: StartedBuild | undefined;
  let warnTo = firstWarn;
  const warn: Warn = (message) => warnTo(message);
  let ending: Promise<void> | undefined;
  const session: BuildSession = {
    started: startBuild(config, root, cacheDir, warn),
    published: false,
    stopWriters: () => undefined,
    abandon: () => {
      if (session.published || build === undefined) return;
      session.stopWriters();
      abandonBuild(build);
    },
    warnThrough: (logger) => {
      warnTo = (message) => logger.warn(message);
    },
    end: () => (ending ??= endSession()),
  };
  // A signal meanwhile is still handled as in any build: the handlers go last.
  const endSession = async () => {
    const started = await session.started.catch(() => undefined);
    if (started !== undefined) {
      // Its data side writes into the build's folder until its threads have ended.
      await started.stopData();
      abandonBuild(started);
      started.store.lock.release();
    }
    stopHandlingSignals();
    process.off('exit', onExit);
  };
  // Reported where it is awaited (the integration's start); none is left unhandled meanwhile.
  session.started.then((started) => (build = started)).catch(() => undefined);
  const stopHandlingSignals = stopOnInterrupt(() => session.published, config.outDir, warn);
  const onExit = (code: number) => {
    if (session.published || build === undefined) return;
    session.abandon();
    if (code !== REFUSED_EXIT_CODE && !isInterrupted(code)) console.error(`\nThe build failed. ${unchangedSite(config.outDir)}`);
  };
  process.once('exit', onExit);
  return { key: keyOf(config, root, cacheDir), session };
}

/**
 * Begins the build of `root`, with Astro's default cache folder unless told, before Astro is
 * loaded; its messages meanwhile are written as Astro's logger writes an integration's. Settles
 * once the build has started (or failed to: the integration reports why), its data side at work on
 * its own thread: loading Astro keeps this thread too busy for the build's start to go on meanwhile.
 */
export async function beginEarly(config: Config, root: string, cacheDir = join(root, PROJECT_CACHE_DIR)): Promise<BuildSession> {
  const destination = nodeLogDestination();
  const early = begin(config, root, cacheDir, (message) => destination.write({ label: 'listing', level: 'warn', message, newLine: true }));
  handover[EARLY_SESSION] = early;
  await early.session.started.catch(() => undefined);
  return early.session;
}

/** Why a build without a session begun early is refused (see the header), in one line. */
const NOT_NPM_RUN_BUILD =
  'This site is built by `npm run build`, not `astro build` alone: run `npm run build` (it checks for nothing to build and sets the V8 flags the build needs before Astro loads).';

/**
 * The session begun early for this configuration, project and cache folder. One begun early for
 * another (a configuration that sets `cacheDir`) is ended first, its data side stopped, its build
 * folder and the build lock let go, and a new one begun, which takes them. None begun early in
 * this process: a `Refusal`.
 */
export async function takeSession(config: Config, root: string, cacheDir: string, logger: AstroIntegrationLogger): Promise<BuildSession> {
  const early = handover[EARLY_SESSION];
  delete handover[EARLY_SESSION];
  if (early === undefined) throw new Refusal(NOT_NPM_RUN_BUILD);
  if (early.key === keyOf(config, resolve(root), resolve(cacheDir))) {
    early.session.warnThrough(logger);
    return early.session;
  }
  await early.session.end();
  logger.warn(
    `Astro's cache folder is ${resolve(cacheDir)}, not the project's default: the build begins again there, once Astro has loaded.`,
  );
  return begin(config, root, cacheDir, (message) => logger.warn(message)).session;
}
