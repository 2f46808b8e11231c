/**
 * The build begun before Astro loads (`npm run build`) is the one the integration builds, when it
 * is for the same configuration, project and cache folder; one begun for another goes, folder and
 * lock, before the integration begins its own. Real builds started (store, lock, the data side's
 * thread) in temporary folders, each session ended: nothing stays behind.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AstroIntegrationLogger } from 'astro';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { acquireBuildLock } from '../../src/publish/lock.ts';
import { storeDirOf } from '../../src/publish/store.ts';
import { beginEarly, takeSession, type BuildSession } from '../../src/integration/session.ts';

const root = resolve('.');
const warned: string[] = [];
const logger = { warn: (message: string) => warned.push(message) } as unknown as AstroIntegrationLogger;
const cleanUps: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  warned.length = 0;
});

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'listing-session-'));
  cleanUps.push(() => rmSync(dir, { recursive: true, force: true }));
  const config = loadConfig({ DATA_FILE: resolve('test/fixtures/listing-23.csv'), OUT_DIR: join(dir, 'site'), DEPLOY_DIR: join(dir, 'deploy') });
  return { dir, config, cacheDir: join(dir, 'cache') };
}

const ended = (session: BuildSession) => cleanUps.push(() => session.end());

/** The build folders in the site's store (a build folder is named `<time>-<random>`). */
const buildFoldersIn = (outDir: string) => readdirSync(storeDirOf(outDir)).filter((name) => /^[0-9a-z]+-[0-9a-f]+$/.test(name));

describe('the build session', () => {
  it('begun early for the same configuration, project and cache folder, is the one taken, however the paths are written', async () => {
    const { config, cacheDir } = project();
    const early = await beginEarly(config, root, cacheDir);
    ended(early);
    // Astro's root and cache folder end with a separator.
    const taken = await takeSession(config, `${root}/`, `${cacheDir}/`, logger);
    expect(taken).toBe(early);
    expect(taken.beganBeforeAstro).toBe(true);
    const build = await taken.started;
    await build.data;
    expect(existsSync(build.folder.dir)).toBe(true);
  });

  it('begun early for another cache folder goes, its folder and its lock, before the new one begins', async () => {
    const { config, cacheDir, dir } = project();
    const early = await beginEarly(config, root, cacheDir);
    ended(early);
    const earlyBuild = await early.started;
    const taken = await takeSession(config, root, join(dir, 'another-cache'), logger);
    ended(taken);
    expect(taken).not.toBe(early);
    expect(taken.beganBeforeAstro).toBe(false);
    expect(existsSync(earlyBuild.folder.dir)).toBe(false);
    // The early build's lock is free: taken at once, without a wait to tell of.
    const lock = await acquireBuildLock(cacheDir, (message) => warned.push(message));
    await lock.release();
    expect(warned).toEqual([]);
    const build = await taken.started;
    await build.data;
    expect(buildFoldersIn(config.outDir)).toEqual([build.folder.dir.split('/').at(-1)]);
  });

  it('with none begun early (`astro build`), begins its own, and is taken once', async () => {
    const { config, cacheDir } = project();
    const first = await takeSession(config, root, cacheDir, logger);
    ended(first);
    expect(first.beganBeforeAstro).toBe(false);
    await (await first.started).data;
    await first.end();
    const again = await takeSession(config, root, cacheDir, logger);
    ended(again);
    expect(again).not.toBe(first);
  });
});
