/**
 * A build interrupted as maintainers interrupt it: the CSV saved from a spreadsheet while the build
 * reads it (in place, in two writes, as some programs save), saved again after the build read it,
 * and Ctrl-C (SIGINT to the terminal's process group) or SIGTERM at named moments of the build.
 * What is published is always one whole version of the file, named by the manifest's SHA-256;
 * an interrupted build publishes nothing, leaves nothing behind, and the next one neither waits
 * nor doubts what was kept.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnvironment } from '../../scripts/lib/servers.ts';
import { storeDirOf } from '../../src/publish/store.ts';
import { ASTRO_BUILD, foldersIn, projectCopy, projectRoot, publishedState, publishedTree, runBuild, tempDir } from '../support/site.ts';

const workspace = tempDir('interruptions');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
/** The project the builds run in: a copy of its own, so that other files' builds run beside this one's (vitest.config.ts). */
const project = projectCopy(join(workspace, 'maintainer'));

const original = readFileSync(join(projectRoot, 'data/captured-car-models.csv'));
const lines = original.toString('utf8').replace(/\n$/, '').split('\n');
/** The default data with row `row`'s min_price set to `price`. */
const version = (row: number, price: string) =>
  Buffer.from(`${lines.map((line, index) => (index === row ? line.split(',').with(7, price).join(',') : line)).join('\n')}\n`);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const env = (dataFile: string, site: string) => ({
  DATA_FILE: dataFile,
  OUT_DIR: site,
  DEPLOY_DIR: `${site}-deploy`,
  BASE_URL: 'https://cars.example.com',
});

/** The site a clean build of `bytes` publishes. */
function cleanTree(bytes: Buffer): { tree: Record<string, string>; folders: string[] } {
  const dataFile = join(workspace, `clean-${sha256(bytes).slice(0, 8)}.csv`);
  writeFileSync(dataFile, bytes);
  const site = join(workspace, `clean-${sha256(bytes).slice(0, 8)}`);
  const result = runBuild(env(dataFile, site), project);
  expect(result.status, result.stderr).toBe(0);
  return sitePublished(site);
}

/** The published site, without the data file's name in the manifest (the clean build's has another name). */
function sitePublished(site: string): { tree: Record<string, string>; folders: string[] } {
  const tree = publishedTree(site);
  const manifest = tree['manifest.json (what describes the data)']!.replace(/"file":"[^"]*"/, '"file":"…"');
  return { tree: { ...tree, 'manifest.json (what describes the data)': manifest }, folders: foldersIn(site) };
}

const manifestSha = (site: string) =>
  (JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8')) as { data: { sha256: string } }).data.sha256;

/** A running build (as `npm run build` runs it), in its own process group as a terminal's foreground job is. */
function startBuild(dataFile: string, site: string) {
  const child = spawn(process.execPath, ASTRO_BUILD, {
    cwd: project,
    env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env(dataFile, site) },
    detached: true,
  });
  let log = '';
  const seen: { marker: string; found: () => void }[] = [];
  const onData = (chunk: Buffer) => {
    log += chunk.toString();
    for (const waiter of seen.filter(({ marker }) => log.includes(marker))) {
      seen.splice(seen.indexOf(waiter), 1);
      waiter.found();
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<{ code: number | null; log: string }>((done) => child.once('close', (code) => done({ code, log })));
  return {
    child,
    exited,
    /** Resolves once the build's output holds `marker` (false if the build ended first). */
    reaches: (marker: string) =>
      Promise.race([
        new Promise<boolean>((found) => (log.includes(marker) ? found(true) : seen.push({ marker, found: () => found(true) }))),
        exited.then(() => log.includes(marker)),
      ]),
  };
}

/** The moment a build has made its folder in the store, before Astro has said anything. */
const FOLDER_MADE = 'its folder made';

/** Resolves true once a build folder not in `before` is in the store of `site` (false if the build ended first). */
async function folderMade(site: string, before: readonly string[], exited: Promise<unknown>): Promise<boolean> {
  let ended = false;
  void exited.then(() => (ended = true));
  while (!ended) {
    if (readdirSync(storeDirOf(site)).some((name) => /^[0-9a-z]{9,}-/.test(name) && !before.includes(name))) return true;
    await sleep(5);
  }
  return false;
}

/** Saves `bytes` over `file` in place, in two writes with a pause between them (a save some programs make). */
async function saveInPlace(file: string, bytes: Buffer): Promise<void> {
  const fd = openSync(file, 'w');
  try {
    const half = bytes.length >> 1;
    writeSync(fd, bytes, 0, half);
    await sleep(15);
    writeSync(fd, bytes, half, bytes.length - half);
  } finally {
    closeSync(fd);
  }
}

describe('the CSV saved while a build reads it', () => {
  const A = version(30, '111111');
  const B = version(30, '222222');

  it('saved over and over as the build starts: the build publishes one whole version, named by the manifest; the next build publishes the file as saved', async () => {
    const site = join(workspace, 'saved-while-read');
    const dataFile = join(workspace, 'saved-while-read.csv');
    writeFileSync(dataFile, A);
    expect(runBuild(env(dataFile, site), project).status).toBe(0);
    const build = startBuild(dataFile, site);
    // Saves B and A by turns, in place, for a second and a half, ending with B.
    for (let save = 0, until = Date.now() + 1500; Date.now() < until || save % 2 === 0; save += 1)
      await saveInPlace(dataFile, save % 2 === 0 ? B : A);
    const { code, log } = await build.exited;
    expect(code, log).toBe(0);
    const published = manifestSha(site);
    expect([sha256(A), sha256(B)]).toContain(published);
    expect(sitePublished(site)).toEqual(cleanTree(published === sha256(A) ? A : B));
    const next = runBuild(env(dataFile, site), project);
    expect(next.status, next.stderr).toBe(0);
    expect(manifestSha(site)).toBe(sha256(B));
    expect(sitePublished(site)).toEqual(cleanTree(B));
  });

  it('saved after the build read it: the build publishes the version it read; the next build the one saved', async () => {
    const site = join(workspace, 'saved-after-read');
    const dataFile = join(workspace, 'saved-after-read.csv');
    writeFileSync(dataFile, A);
    // Old enough to be taken at once.
    await sleep(250);
    const build = startBuild(dataFile, site);
    expect(await build.reaches('rows valid')).toBe(true);
    await saveInPlace(dataFile, B);
    const { code, log } = await build.exited;
    expect(code, log).toBe(0);
    expect(manifestSha(site)).toBe(sha256(A));
    expect(sitePublished(site)).toEqual(cleanTree(A));
    expect(runBuild(env(dataFile, site), project).status).toBe(0);
    expect(manifestSha(site)).toBe(sha256(B));
    expect(sitePublished(site)).toEqual(cleanTree(B));
  });
});

describe('Ctrl-C and SIGTERM during a build', () => {
  const site = join(workspace, 'interrupted');
  const dataFile = join(workspace, 'interrupted.csv');
  let price = 100_000;

  // Astro loading (the build begun before it, its folder made: no output yet); Vite bundling; the
  // data ready (Astro about to render); the listing's pages being written. Both signals reach the one
  // handler (src/integration/interrupts.ts) and differ in whom they reach (Ctrl-C the process
  // group, the esbuild service among it) and in the exit code: each moment is met by one signal,
  // the two taking turns, and the longest, writing the pages, by both (5 builds interrupted, not 8, for
  // CI's budget).
  const SIGINT = { signal: 'SIGINT' as const, exitCode: 130 };
  const SIGTERM = { signal: 'SIGTERM' as const, exitCode: 143 };
  // Ctrl-C meets Vite's bundling, where it reaches the esbuild service too.
  const cases = [
    { ...SIGTERM, moment: FOLDER_MADE },
    { ...SIGINT, moment: 'Astro: bundling' },
    { ...SIGTERM, moment: 'rows valid' },
    { ...SIGTERM, moment: 'Listing pages: written' },
    { ...SIGINT, moment: 'Listing pages: written' },
  ];

  it.each(cases)(
    '$signal when the build reaches "$moment": it says so, publishes nothing, leaves nothing; the next build neither waits nor doubts',
    async ({ signal, moment, exitCode }) => {
      // A published site to interrupt a build over: the last case's next build left one (a build
      // fewer for each case after the first, for CI's budget), else one is built.
      if (!existsSync(join(site, 'manifest.json'))) {
        writeFileSync(dataFile, version(5, String(price++)));
        const first = runBuild(env(dataFile, site), project);
        expect(first.status, first.stderr).toBe(0);
      }
      const before = publishedState(site);
      const buildsBefore = readdirSync(storeDirOf(site))
        .filter((name) => /^[0-9a-z]{9,}-/.test(name))
        .sort();
      writeFileSync(dataFile, version(5, String(price++)));
      const build = startBuild(dataFile, site);
      const reached = moment === FOLDER_MADE ? await folderMade(site, buildsBefore, build.exited) : await build.reaches(moment);
      expect(reached, `the build's output never said "${moment}"`).toBe(true);
      // Ctrl-C reaches the terminal's whole foreground process group; a SIGTERM the process alone.
      process.kill(signal === 'SIGINT' ? -build.child.pid! : build.child.pid!, signal);
      const { code, log } = await build.exited;
      expect(code, log).toBe(exitCode);
      expect(log).toContain(`Interrupted (${signal}): the build stopped. Nothing was published: ${site}/ is unchanged.`);
      if (moment === FOLDER_MADE) expect(log, 'stopped before Vite bundled').not.toContain('Astro: bundling');
      expect(log, 'no stack trace').not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(publishedState(site)).toEqual(before);
      // Its own folder is gone (it may have been the kept build before the published one, taken as its own).
      const buildsAfter = readdirSync(storeDirOf(site)).filter((name) => /^[0-9a-z]{9,}-/.test(name));
      expect(buildsAfter.filter((name) => !buildsBefore.includes(name))).toEqual([]);
      const next = runBuild(env(dataFile, site), project);
      const nextLog = `${next.stdout}\n${next.stderr}`;
      expect(next.status, nextLog).toBe(0);
      expect(nextLog).not.toMatch(/waiting for it|stopped part way/);
    },
  );
});
