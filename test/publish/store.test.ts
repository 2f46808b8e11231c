import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEPT_DOWNLOADS_FOLDER } from '../../src/publish/downloads-placed.ts';
import {
  discardBuild,
  linkSiteForHostFiles,
  newBuildFolder,
  notALink,
  publish,
  publishedBuild,
  pruneBuilds,
  recycledBuildFolder,
  storeDirOf,
} from '../../src/publish/store.ts';
import { htmlPageFiles, pageFile } from '../../src/listing/routes.ts';
import { isRenamedForRemoval } from '../../src/files/removal.ts';
import { VERCEL_STATIC_DIR } from '../../src/serve/hosts/vercel.ts';
import { mountCaseless, mountTmpfs } from '../support/mounts.ts';
import { tempDir } from '../support/site.ts';

let workspace: string;
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

/**
 * A build folder, in a millisecond of its own: builds are ordered by their names, which start with
 * the time they started, and two real builds never start in the same millisecond (one at a time);
 * three made at once here could, and sort by their random part.
 */
function build(store: string, text: string) {
  const started = Date.now();
  while (Date.now() === started);
  const folder = newBuildFolder(store, VERCEL_STATIC_DIR);
  writeFileSync(join(folder.siteDir, 'index.html'), text);
  mkdirSync(join(folder.deployDir, 'nginx'), { recursive: true });
  writeFileSync(join(folder.deployDir, 'nginx/site.conf'), text);
  return folder;
}

describe('the build store', () => {
  it('publishes a build by one rename: dist/ and deploy/ show its site and host files together, readable by a web server', () => {
    workspace = tempDir('store');
    const dist = join(workspace, 'dist');
    const deploy = join(workspace, 'deploy');
    const store = storeDirOf(dist);
    expect(store).toBe(join(workspace, '.dist.builds'));
    const first = build(store, 'one');
    expect(publishedBuild(store, dist)).toBeUndefined();
    publish(store, first, dist, deploy);
    expect(lstatSync(dist).isSymbolicLink()).toBe(true);
    expect(readlinkSync(dist)).toBe('.dist.builds/current/site');
    expect([readFileSync(join(dist, 'index.html'), 'utf8'), readFileSync(join(deploy, 'nginx/site.conf'), 'utf8')]).toEqual(['one', 'one']);
    expect(statSync(realpathSync(dist)).mode & 0o777).toBe(0o755);
    const second = build(store, 'two');
    publish(store, second, dist, deploy);
    expect([readFileSync(join(dist, 'index.html'), 'utf8'), readFileSync(join(deploy, 'nginx/site.conf'), 'utf8')]).toEqual(['two', 'two']);
    expect(publishedBuild(store, dist)?.id).toBe(second.id);
    // The replaced build is kept, as it was, for readers still going through it.
    expect(readFileSync(join(first.siteDir, 'index.html'), 'utf8')).toBe('one');
  });

  it('reads links that hold absolute paths (as Windows junctions do) as it reads its own relative ones', () => {
    workspace = tempDir('store');
    const dist = join(workspace, 'dist');
    const deploy = join(workspace, 'deploy');
    const store = storeDirOf(dist);
    const first = build(store, 'one');
    publish(store, first, dist, deploy);
    // Both links made again as a junction holds them: absolute.
    for (const [link, target] of [
      [dist, join(store, 'current', 'site')],
      [join(store, 'current'), first.dir],
    ] as const) {
      rmSync(link);
      symlinkSync(target, link);
    }
    expect(publishedBuild(store, dist)?.id).toBe(first.id);
    const second = build(store, 'two');
    publish(store, second, dist, deploy);
    expect(publishedBuild(store, dist)?.id).toBe(second.id);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('two');
    // The build before it is kept, named by `previous`.
    pruneBuilds(store);
    expect(existsSync(first.dir)).toBe(true);
  });

  it('shows nothing published once dist/ is deleted, whatever the store holds', () => {
    workspace = tempDir('store');
    const dist = join(workspace, 'dist');
    const store = storeDirOf(dist);
    publish(store, build(store, 'one'), dist, join(workspace, 'deploy'));
    rmSync(dist, { recursive: true, force: true });
    expect(publishedBuild(store, dist)).toBeUndefined();
  });

  it('prunes all but the published build and the one before it, builds that never finished included', async () => {
    workspace = tempDir('store');
    const dist = join(workspace, 'dist');
    const deploy = join(workspace, 'deploy');
    const store = storeDirOf(dist);
    const [a, b, c] = [build(store, 'a'), build(store, 'b'), build(store, 'c')];
    publish(store, a, dist, deploy);
    publish(store, b, dist, deploy);
    publish(store, c, dist, deploy);
    pruneBuilds(store);
    const killed = build(store, 'killed');
    pruneBuilds(store);
    await expect.poll(() => [a, killed].map((folder) => existsSync(folder.dir)), { timeout: 10_000 }).toEqual([false, false]);
    expect([existsSync(b.dir), existsSync(c.dir)]).toEqual([true, true]);
    const failed = build(store, 'failed');
    discardBuild(failed);
    // Gone from its name at once, renamed for removal (not deleted before the build may exit); its
    // files deleted in the background, leaving nothing in the store.
    expect(existsSync(failed.dir)).toBe(false);
    expect(readdirSync(store).filter((name) => isRenamedForRemoval(name) && name.endsWith(basename(failed.dir)))).toHaveLength(1);
    await expect.poll(() => readdirSync(store).filter(isRenamedForRemoval), { timeout: 10_000 }).toEqual([]);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('c');
    // A build that failed after its publication (making a link) is not removed by its clean-up.
    discardBuild(c);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('c');
  });

  it('publishes over an empty folder made ahead of a first build, and refuses one with files in it before a build begins', () => {
    workspace = tempDir('store');
    const dist = join(workspace, 'www/dist');
    const deploy = join(workspace, 'www/deploy');
    mkdirSync(dist, { recursive: true });
    expect(notALink(dist, 'OUT_DIR')).toBeUndefined();
    publish(storeDirOf(dist), build(storeDirOf(dist), 'one'), dist, deploy);
    expect(lstatSync(dist).isSymbolicLink()).toBe(true);
    expect(notALink(dist, 'OUT_DIR')).toBeUndefined();
    const someones = join(workspace, 'srv');
    mkdirSync(someones);
    writeFileSync(join(someones, 'index.html'), 'theirs');
    expect(notALink(someones, 'OUT_DIR')).toMatch(
      /^OUT_DIR=.*srv is a folder with files in it; .* Move it away, or set OUT_DIR to a path that does not exist yet/,
    );
    expect(notALink(join(workspace, 'nothing-here'), 'DEPLOY_DIR')).toBeUndefined();
  });

  it('refuses a file where the link goes, and never replaces it (a mistyped DEPLOY_DIR naming the data file)', () => {
    workspace = tempDir('store');
    const data = join(workspace, 'cars.csv');
    writeFileSync(data, 'id\n');
    expect(notALink(data, 'DEPLOY_DIR')).toMatch(
      /^DEPLOY_DIR=.*cars\.csv is a file, not a folder; .* never replaces a file\. Move it away/,
    );
    expect(readFileSync(data, 'utf8')).toBe('id\n');
  });

  it('refuses a mount point (a Docker volume at OUT_DIR), which no link can replace', (context) => {
    workspace = tempDir('store');
    const volume = mountTmpfs(join(workspace, 'volume'), '1m');
    if (typeof volume === 'string') return context.skip(volume);
    try {
      expect(notALink(volume.dir, 'OUT_DIR')).toMatch(
        /^OUT_DIR=.*volume is where a file system is mounted \(a disk, a volume\); .* Set OUT_DIR to a path inside it/,
      );
    } finally {
      volume.unmount();
    }
  });
});

describe("the host files' link to the site in a build's folder", () => {
  it('names the site after OUT_DIR beside the deploy folder: dist, not Site where the disk takes Site for the site folder itself', (context) => {
    workspace = tempDir('store-host-link');
    const store = storeDirOf(join(workspace, 'dist'));
    const folder = build(store, 'one');
    linkSiteForHostFiles(folder, join(workspace, 'dist'), join(workspace, 'deploy'));
    expect(readlinkSync(join(folder.dir, 'dist'))).toBe('site');
    // On a disk that ignores case (FAT, as macOS and Windows disks do), OUT_DIR=Site is the build's
    // own site folder: no link of that name can be made, nor is one needed.
    const disk = mountCaseless(join(workspace, 'fat'));
    if (typeof disk === 'string') return context.skip(disk);
    try {
      // Made by hand: FAT holds no symbolic link, and a build folder's site is one (newBuildFolder).
      const store = storeDirOf(join(disk.dir, 'Site'));
      const onDisk = {
        id: 'on-disk',
        dir: join(store, 'on-disk'),
        siteDir: join(store, 'on-disk/site'),
        deployDir: join(store, 'on-disk/deploy'),
      };
      for (const made of [onDisk.siteDir, onDisk.deployDir]) mkdirSync(made, { recursive: true });
      for (const outDir of ['Site', 'DEPLOY']) {
        expect(() => linkSiteForHostFiles(onDisk, join(disk.dir, outDir), join(disk.dir, 'hosts')), outDir).not.toThrow();
        expect(readdirSync(onDisk.dir).sort()).toEqual(['deploy', 'site']);
      }
    } finally {
      disk.unmount();
    }
  });
});

describe('a recycled build folder', () => {
  it('keeps the pages and the search index of the build before the published one, its site still where Vercel reads it; nothing else', () => {
    workspace = tempDir('store-recycled');
    const [dist, deploy] = [join(workspace, 'dist'), join(workspace, 'deploy')];
    const store = storeDirOf(dist);
    const kept = [pageFile(2), ...htmlPageFiles(1), ...htmlPageFiles(2), `${KEPT_DOWNLOADS_FOLDER}/order/price/0.json`];
    const gone = ['all.json', 'manifest.json', '_astro/a.css'];
    const before = build(store, 'before');
    for (const path of [...kept, ...gone]) {
      mkdirSync(dirname(join(before.siteDir, path)), { recursive: true });
      writeFileSync(join(before.siteDir, path), path);
    }
    publish(store, before, dist, deploy);
    publish(store, build(store, 'published'), dist, deploy);
    const recycled = recycledBuildFolder(store, VERCEL_STATIC_DIR);
    expect(recycled).toBeDefined();
    // The site is the folder Vercel reads, not a copy of it; the deploy folder holds nothing else.
    expect(realpathSync(recycled!.siteDir)).toBe(join(recycled!.deployDir, VERCEL_STATIC_DIR));
    expect(existsSync(join(recycled!.deployDir, 'nginx'))).toBe(false);
    for (const path of kept) expect(readFileSync(join(recycled!.siteDir, path), 'utf8'), path).toBe(path);
    for (const path of gone) expect(existsSync(join(recycled!.siteDir, path)), path).toBe(false);
    expect(existsSync(join(recycled!.siteDir, '_astro')), '_astro/').toBe(false);
  });

  it('is not taken where its site is not where this build puts it (a folder of an earlier version): a new folder then', () => {
    workspace = tempDir('store-recycled-older');
    const [dist, deploy] = [join(workspace, 'dist'), join(workspace, 'deploy')];
    const store = storeDirOf(dist);
    const before = build(store, 'before');
    // As an earlier version made it: its site a folder of its own.
    rmSync(before.siteDir);
    mkdirSync(before.siteDir);
    writeFileSync(join(before.siteDir, 'index.html'), 'before');
    publish(store, before, dist, deploy);
    publish(store, build(store, 'published'), dist, deploy);
    expect(recycledBuildFolder(store, VERCEL_STATIC_DIR)).toBeUndefined();
  });
});
