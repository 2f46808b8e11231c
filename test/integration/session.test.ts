/**
 * The build begun before Astro loads (`npm run build`) is the one the integration builds, when it
 * is for the same configuration, project and cache folder; one begun for another goes, folder and
 * lock, before the integration begins its own; none begun (`astro build` alone) is refused. Real
 * builds started (store, lock, the data side's thread) in temporary projects, each session ended:
 * nothing stays behind.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AstroIntegrationLogger } from 'astro';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { acquireBuildLock } from '../../src/publish/lock.ts';
import { storeDirOf } from '../../src/publish/store.ts';
import { beginEarly, takeSession, type BuildSession } from '../../src/integration/session.ts';

const warned: string[] = [];
const logger = { warn: (message: string) => warned.push(message) } as unknown as AstroIntegrationLogger;
const cleanUps: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  warned.length = 0;
});

/** A project of its own (the build lock is the project's: not this checkout's, which builds may hold meanwhile). */
function project() {
  const dir = mkdtempSync(join(tmpdir(), 'listing-session-'));
  cleanUps.push(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, 'project');
  mkdirSync(root);
  const config = loadConfig({
    DATA_FILE: resolve('test/fixtures/listing-23.csv'),
    OUT_DIR: join(dir, 'site'),
    DEPLOY_DIR: join(dir, 'deploy'),
  });
  return { dir, root, config, cacheDir: join(dir, 'cache') };
}

const ended = (session: BuildSession) => cleanUps.push(() => session.end());

/** The build folders in the site's store (a build folder is named `<time>-<random>`). */
const buildFoldersIn = (outDir: string) => readdirSync(storeDirOf(outDir)).filter((name) => /^[0-9a-z]+-[0-9a-f]+$/.test(name));

describe('the build session', () => {
  it('begun early for the same configuration, project and cache folder, is the one taken, however the paths are written', async () => {
    const { root, config, cacheDir } = project();
    const early = await beginEarly(config, root, cacheDir);
    ended(early);
    // Astro's root and cache folder end with a separator.
    const taken = await takeSession(config, `${root}/`, `${cacheDir}/`, logger);
    expect(taken).toBe(early);
    expect(warned).toEqual([]);
    const build = await taken.started;
    await build.data;
    expect(existsSync(build.folder.dir)).toBe(true);
  });

  it('begun early for another cache folder goes, its folder and the lock, before the new one begins and takes the lock', async () => {
    const { root, config, cacheDir, dir } = project();
    const early = await beginEarly(config, root, cacheDir);
    ended(early);
    const earlyBuild = await early.started;
    const taken = await takeSession(config, root, join(dir, 'another-cache'), logger);
    ended(taken);
    expect(taken).not.toBe(early);
    expect(existsSync(earlyBuild.folder.dir)).toBe(false);
    // The new build holds the project's lock, which the early one let go (else it would wait forever).
    const build = await taken.started;
    await build.data;
    // Said: the build began twice.
    expect(warned).toEqual([
      `Astro's cache folder is ${join(dir, 'another-cache')}, not the project's default: the build begins again there, once Astro has loaded.`,
    ]);
    warned.length = 0;
    expect(buildFoldersIn(config.outDir)).toEqual([build.folder.dir.split('/').at(-1)]);
    await taken.end();
    // And lets it go when it ends: taken at once, without a wait to tell of.
    const lock = await acquireBuildLock(join(root, 'node_modules/.astro'), (message) => warned.push(message));
    lock.release();
    expect(warned).toEqual([]);
  });

  it('is taken once: a build begun by no `npm run build` (`astro build` alone, a second build in the process) is refused, saying what to run', async () => {
    const { root, config, cacheDir } = project();
    const early = await beginEarly(config, root, cacheDir);
    ended(early);
    expect(await takeSession(config, root, cacheDir, logger)).toBe(early);
    await early.end();
    const refused = await takeSession(config, root, cacheDir, logger).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).name).toBe('Refusal');
    // One line, saying what to run.
    expect((refused as Error).message).toMatch(
      /^This site is built by `npm run build`, not `astro build` alone: run `npm run build` [^\n]*$/,
    );
    expect(existsSync(storeDirOf(config.outDir)) ? buildFoldersIn(config.outDir) : []).toEqual([]);
  });

  it('ended, leaves no handler behind: signals and the exit are as they were before it began', async () => {
    const { root, config, cacheDir } = project();
    const listeners = () => ['SIGINT', 'SIGTERM', 'SIGHUP', 'exit'].map((event) => process.listenerCount(event));
    const before = listeners();
    const session = await beginEarly(config, root, cacheDir);
    expect(listeners()).not.toEqual(before);
    // Its data side stopped at once, however far it had gone.
    await session.end();
    expect(listeners()).toEqual(before);
    expect(existsSync((await session.started).folder.dir)).toBe(false);
  });
});
