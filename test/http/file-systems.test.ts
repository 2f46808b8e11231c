/**
 * Where users put the site: a web root on its own disk (another file system than the project and
 * its caches), a disk that fills up, one that is or becomes read-only. Each on a real file system:
 * /dev/shm, or a small tmpfs the test mounts (root, as the machines here and CI run; skipped with
 * the reason where mounting is not permitted).
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storeDirOf } from '../../src/publish/store.ts';
import { VERCEL_OUTPUT_DIR } from '../../src/serve/hosts/vercel.ts';
import { mountTmpfs, type Mount } from '../support/mounts.ts';
import {
  foldersIn,
  projectCopy,
  projectRoot,
  publishedState,
  publishedTree,
  renderedPages,
  runBuild,
  tempDir,
  treeHashes,
} from '../support/site.ts';

const workspace = tempDir('file-systems');
/** The project the builds run in: a copy of its own, so that other files' builds run beside this one's (vitest.config.ts). */
const project = projectCopy(join(workspace, 'maintainer'));
const mounts: Mount[] = [];
afterAll(() => {
  for (const mount of mounts) mount.unmount();
  rmSync(workspace, { recursive: true, force: true });
});

const original = readFileSync(join(projectRoot, 'data/captured-car-models.csv'), 'utf8');
const lines = original.replace(/\n$/, '').split('\n');
/** The default data with row `row`'s min_price set to `price` (the default data quotes no field). */
function edited(row: number, price: string): string {
  const file = join(workspace, `data-${row}-${price}.csv`);
  writeFileSync(file, `${lines.map((line, index) => (index === row ? line.split(',').with(7, price).join(',') : line)).join('\n')}\n`);
  return file;
}
const DEFAULT_DATA = join(projectRoot, 'data/captured-car-models.csv');

/** Builds `dataFile` into `site` (deploy folder beside it) from `root`; returns the result. */
const build = (site: string, dataFile: string, root = project, extra: Record<string, string> = {}) =>
  runBuild({ DATA_FILE: dataFile, OUT_DIR: site, DEPLOY_DIR: `${site}-deploy`, BASE_URL: 'https://cars.example.com', ...extra }, root);

/** Builds `dataFile` into a fresh site on the project's own disk and expects `site` to hold the same bytes and folders. */
function expectCleanBuildOf(site: string, dataFile: string, root = project): void {
  const clean = join(workspace, `clean-${Math.random().toString(36).slice(2)}`);
  const fresh = build(clean, dataFile, root);
  expect(fresh.status, fresh.stderr).toBe(0);
  expect(publishedTree(site)).toEqual(publishedTree(clean));
  expect(foldersIn(site)).toEqual(foldersIn(clean));
  const vercelCopy = join(`${site}-deploy`, VERCEL_OUTPUT_DIR, 'static');
  expect(treeHashes(vercelCopy)).toEqual(treeHashes(site));
  rmSync(clean, { recursive: true, force: true });
  rmSync(`${clean}-deploy`, { recursive: true, force: true });
}

/** What a maintainer must see of a fault: one message, no stack trace, exit code 1. */
function expectFaultMessage(result: ReturnType<typeof runBuild>, site: string, cause: RegExp): string {
  const output = `${result.stdout}\n${result.stderr}`;
  expect(result.status, output).toBe(1);
  expect(output).toMatch(cause);
  expect(output).toContain(`Nothing was published: ${site}/ is unchanged.`);
  expect(output, 'no stack trace').not.toMatch(/\n\s+at .+[:(]\d+:\d+\)?\n|Stack trace/);
  return output;
}

/** A file system other than the project's: /dev/shm where it is one, else a tmpfs of the test's own. */
function otherFileSystem(name: string): string | undefined {
  const projectDevice = statSync(project).dev;
  try {
    if (statSync('/dev/shm').dev !== projectDevice) {
      const dir = join('/dev/shm', `listing-${name}-${process.pid}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      return dir;
    }
  } catch {
    // No /dev/shm.
  }
  const mount = mountTmpfs(join(workspace, name), '256m');
  if (typeof mount === 'string') return undefined;
  mounts.push(mount);
  return mount.dir;
}

describe('a site on another file system than the project and its caches', () => {
  const disk = otherFileSystem('web-root');
  afterAll(() => {
    if (disk?.startsWith('/dev/shm/')) rmSync(disk, { recursive: true, force: true });
  });

  it.skipIf(disk === undefined)('builds, rebuilds only what changed, and holds a clean build’s bytes after each build', async () => {
    const site = join(disk!, 'www/dist');
    expect(statSync(disk!).dev).not.toBe(statSync(join(project, 'node_modules')).dev);
    const first = build(site, DEFAULT_DATA);
    expect(first.status, first.stderr).toBe(0);
    expect(lstatSync(site).isSymbolicLink()).toBe(true);
    expectCleanBuildOf(site, DEFAULT_DATA);

    // Row 25 is on page 3: its JSON page and its HTML page in each language.
    const edit = edited(25, '123456');
    const rebuild = build(site, edit);
    expect(rebuild.status, rebuild.stderr).toBe(0);
    expect(renderedPages(`${rebuild.stdout}\n${rebuild.stderr}`)).toEqual({ json: 1, html: 2 });
    expectCleanBuildOf(site, edit);
    // Nothing Astro rendered is left in the project's cache: its render folder is removed in the background.
    const rendering = join(project, 'node_modules/.astro/rendering');
    await expect.poll(() => (existsSync(rendering) ? readdirSync(rendering) : [])).toEqual([]);

    // The same data again: nothing to build, nothing published changes.
    const before = publishedState(site);
    const current = build(site, edit);
    expect(current.status, current.stderr).toBe(0);
    expect(current.stderr).toContain(`Nothing to build: ${site}/ is current`);
    expect(publishedState(site)).toEqual(before);
    // Built in full all the same: no page rendered, no published file replaced.
    const again = build(site, edit, project, { FULL_BUILD: '1' });
    expect(again.status, again.stderr).toBe(0);
    expect(renderedPages(`${again.stdout}\n${again.stderr}`)).toEqual({ json: 0, html: 0 });
    const after = publishedState(site);
    const replaced = Object.keys(after).filter(
      (path) => after[path] !== before[path] && path !== 'index.html' && path !== 'zh-hk/index.html',
    );
    // Nothing changed: no change document, the same changes.json; only the manifest names the new build.
    expect(replaced.sort()).toEqual(['manifest.json']);
  });
});

describe('a full disk', () => {
  const mount = mountTmpfs(join(workspace, 'full'), '16m');
  if (typeof mount !== 'string') mounts.push(mount);
  const reason = typeof mount === 'string' ? mount : undefined;
  if (reason) console.warn(`Skipping the full-disk tests: ${reason}`);

  // How much room is left decides which step runs out: the store's folders, the records, the
  // pages copied in, the downloads, the host files. One site through the sizes in
  // turn, each starting from the build the size before published, its kept previous build removed
  // (a first build only for the first size run): a first build of its own took each size about 5 s.
  describe('one site, through each size in turn', () => {
    const site = join(workspace, 'full', 'site');
    afterAll(() => {
      if (reason !== undefined) return;
      rmSync(site, { force: true });
      rmSync(`${site}-deploy`, { force: true });
      rmSync(storeDirOf(site), { recursive: true, force: true });
    });

    it.skipIf(reason !== undefined).each([0, 64, 256, 512])(
      'with %i KiB left: one message, exit 1, the published site as it was; freed, the next build is a clean build',
      (leftKiB) => {
        const { fill, unfill } = mount as Mount;
        if (!existsSync(site)) {
          const first = build(site, DEFAULT_DATA);
          expect(first.status, first.stderr).toBe(0);
        }
        // As a first build leaves it: the published build and no kept one before it, whose folder
        // the next build would take over (freeing what it clears, after the disk is filled).
        const previous = join(storeDirOf(site), 'previous');
        if (existsSync(previous)) rmSync(realpathSync(previous), { recursive: true, force: true });
        const before = publishedState(site);
        const edit = edited(25, `1${leftKiB}`);
        fill(leftKiB);
        const failed = build(site, edit);
        unfill();
        if (failed.status === 0) {
          // Room enough after all (this amount of room is what the build needs): then it is a clean build.
          expectCleanBuildOf(site, edit);
        } else {
          expectFaultMessage(
            failed,
            site,
            new RegExp(`${storeDirOf(site).replaceAll('.', '\\.')} \\(the build store beside OUT_DIR\\): the disk is full \\(ENOSPC\\)`),
          );
          expect(publishedState(site)).toEqual(before);
        }
        const next = build(site, edit);
        expect(next.status, next.stderr).toBe(0);
        expectCleanBuildOf(site, edit);
      },
    );
  });

  it.skipIf(reason !== undefined)(
    "on the project's own disk, while Astro builds the site: the same message, naming the project's cache",
    () => {
      const { dir, fill, unfill } = mount as Mount;
      const project = projectCopy(join(dir, 'checkout'));
      const site = join(workspace, 'astro-full-site');
      const first = build(site, DEFAULT_DATA, project);
      expect(first.status, first.stderr).toBe(0);
      const before = publishedState(site);
      // The same data, so the data side writes nothing; room for the build lock, not for Astro's bundles.
      // Built in full: else the published build is current, and there is nothing to build.
      fill(16);
      const failed = build(site, DEFAULT_DATA, project, { FULL_BUILD: '1' });
      unfill();
      const output = expectFaultMessage(failed, site, /the disk is full \(ENOSPC\)/);
      expect(output).toMatch(/The build stopped while Astro built the site: .*node_modules\/\.astro \(the project's cache\)/);
      expect(publishedState(site)).toEqual(before);
      const next = build(site, DEFAULT_DATA, project);
      expect(next.status, next.stderr).toBe(0);
      expectCleanBuildOf(site, DEFAULT_DATA, project);
    },
  );
});

describe('a read-only disk', () => {
  const mount = mountTmpfs(join(workspace, 'read-only'), '64m');
  if (typeof mount !== 'string') mounts.push(mount);
  const reason = typeof mount === 'string' ? mount : undefined;
  if (reason) console.warn(`Skipping the read-only disk tests: ${reason}`);

  it.skipIf(reason !== undefined)(
    'under the site: one message, exit 1, the site as it was; writable again, the next build is a clean build and leaves nothing behind',
    async () => {
      const { dir, readOnly } = mount as Mount;
      const site = join(dir, 'site');
      expect(build(site, DEFAULT_DATA).status).toBe(0);
      const before = publishedState(site);
      const edit = edited(40, '77777');
      readOnly(true);
      try {
        const failed = build(site, edit);
        expectFaultMessage(failed, site, /\.site\.builds \(the build store beside OUT_DIR\): its file system is read-only \(EROFS\)/);
        expect(publishedState(site)).toEqual(before);
      } finally {
        readOnly(false);
      }
      const next = build(site, edit);
      expect(next.status, next.stderr).toBe(0);
      expectCleanBuildOf(site, edit);
      // The published build and the one before it, nothing else (a removal may still be under way in the background).
      await expect.poll(() => readdirSync(storeDirOf(site)).filter((name) => /^[0-9a-z]{9,}-/.test(name)).length).toBe(2);
    },
  );

  it.skipIf(reason !== undefined)("under the project's cache: one message naming it", () => {
    const { dir, readOnly } = mount as Mount;
    const project = projectCopy(join(dir, 'checkout'));
    const site = join(workspace, 'read-only-cache-site');
    expect(build(site, DEFAULT_DATA, project).status).toBe(0);
    const before = publishedState(site);
    readOnly(true);
    try {
      const failed = build(site, edited(41, '88888'), project);
      expectFaultMessage(failed, site, /node_modules\/\.astro \(the project's cache\): its file system is read-only \(EROFS\)/);
      expect(publishedState(site)).toEqual(before);
    } finally {
      readOnly(false);
    }
  });
});
