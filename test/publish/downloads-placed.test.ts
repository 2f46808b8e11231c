/**
 * The downloads placed in a build's site, on real folders: a recycled folder's search index file
 * stays only where it is the published file with the bytes wanted; any other is removed first (the
 * published file it may share is never written through), unchanged files are linked from the
 * published site, changed ones copied from the preparation, and files the index no longer has go.
 */
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DamagedDownload, KEPT_DOWNLOADS_FOLDER, placeDownloads } from '../../src/publish/downloads-placed.ts';
import { tempDir } from '../support/site.ts';

let workspace: string | undefined;
afterEach(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
  workspace = undefined;
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const inode = (path: string) => statSync(path).ino;
const search = (name: string) => `${KEPT_DOWNLOADS_FOLDER}/${name}`;

function write(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

/**
 * The published site (its files and their hashes), the preparation's downloads (this build's), and
 * a build folder: recycled (holding the build before the published one's index) or new.
 */
function folders(recycled: boolean) {
  const dir = (workspace = tempDir('downloads-placed'));
  const [published, prepared, site] = [join(dir, 'published'), join(dir, 'prepared'), join(dir, 'site')];
  const publishedFiles: Record<string, string> = {
    'all.json': 'published all',
    [search('order/price/0.json')]: 'kept',
    [search('order/price/1.json')]: 'rendered by the published build',
    [search('order/price/2.json')]: 'changed now',
    [search('in/word-gone/0.json')]: 'gone now',
  };
  for (const [path, text] of Object.entries(publishedFiles)) write(published, path, text);
  const wanted: Record<string, string> = {
    'all.json': 'new all',
    [search('order/price/0.json')]: 'kept',
    [search('order/price/1.json')]: 'rendered by the published build',
    [search('order/price/2.json')]: 'changed again',
    [search('order/price/3.json')]: 'new now',
  };
  for (const [path, text] of Object.entries(wanted)) write(prepared, path, text);
  mkdirSync(site, { recursive: true });
  if (recycled) {
    // The build before the published one: the files the published build kept are the same files.
    for (const path of [search('order/price/0.json'), search('order/price/2.json'), search('in/word-gone/0.json')]) {
      mkdirSync(dirname(join(site, path)), { recursive: true });
      linkSync(join(published, path), join(site, path));
    }
    write(site, search('order/price/1.json'), 'older');
  }
  const hashes = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([path, text]) => [path, sha256(text)]));
  const downloads = Object.fromEntries(Object.entries(hashes(wanted)).map(([path, hash]) => [`/${path}`, hash]));
  return { published, prepared, site, downloads, publishedHashes: hashes(publishedFiles), wanted };
}

describe('downloads placed in a build folder', () => {
  for (const recycled of [true, false]) {
    it(`${recycled ? 'recycled' : 'new'}: every file has the bytes wanted; unchanged ones are the published files, changed ones copies`, () => {
      const { published, prepared, site, downloads, publishedHashes, wanted } = folders(recycled);
      const placed = placeDownloads(site, prepared, downloads, { siteDir: published, hashes: publishedHashes });
      for (const [path, text] of Object.entries(wanted)) expect(readFileSync(join(site, path), 'utf8'), path).toBe(text);
      for (const path of [search('order/price/0.json'), search('order/price/1.json')])
        expect(inode(join(site, path)), path).toBe(inode(join(published, path)));
      for (const path of ['all.json', search('order/price/2.json'), search('order/price/3.json')]) {
        expect(inode(join(site, path)), path).not.toBe(inode(join(prepared, path)));
        if (existsSync(join(published, path))) expect(inode(join(site, path)), path).not.toBe(inode(join(published, path)));
      }
      // The published files are as they were: nothing was written through a link to them.
      expect(readFileSync(join(published, search('order/price/2.json')), 'utf8')).toBe('changed now');
      expect(readFileSync(join(published, search('in/word-gone/0.json')), 'utf8')).toBe('gone now');
      expect(existsSync(join(site, search('in/word-gone')))).toBe(false);
      expect(readdirSync(join(site, KEPT_DOWNLOADS_FOLDER)).sort()).toEqual(['order']);
      expect(placed.kept).toEqual(new Set(recycled ? [search('order/price/0.json')] : []));
      expect(placed.keptBytes).toBe(recycled ? 'kept'.length : 0);
      expect(placed.removed).toEqual(recycled ? [search('in/word-gone/0.json')] : []);
    });
  }

  it('with nothing published: every file copied from the preparation, a recycled one removed first, never written through', () => {
    const { published, prepared, site, downloads, wanted } = folders(true);
    const placed = placeDownloads(site, prepared, downloads, undefined);
    for (const [path, text] of Object.entries(wanted)) {
      expect(readFileSync(join(site, path), 'utf8'), path).toBe(text);
      expect(inode(join(site, path)), path).not.toBe(inode(join(prepared, path)));
    }
    expect(readFileSync(join(published, search('order/price/0.json')), 'utf8')).toBe('kept');
    expect(readFileSync(join(published, search('order/price/2.json')), 'utf8')).toBe('changed now');
    expect(placed.kept.size).toBe(0);
    expect(placed.removed).toEqual([search('in/word-gone/0.json')]);
  });

  it('replaces a recycled file with the bytes wanted that is not the published file', () => {
    const { published, prepared, site, downloads, publishedHashes } = folders(true);
    const path = search('order/price/0.json');
    rmSync(join(site, path));
    writeFileSync(join(site, path), 'kept');
    const placed = placeDownloads(site, prepared, downloads, { siteDir: published, hashes: publishedHashes });
    expect(inode(join(site, path))).toBe(inode(join(published, path)));
    expect(placed.kept.has(path)).toBe(false);
  });

  it('checks a file the preparation took unread before copying it: a damaged one stops the placing, naming it', () => {
    const { published, prepared, site, downloads, publishedHashes } = folders(false);
    const lost = search('order/price/0.json');
    rmSync(join(published, lost));
    writeFileSync(join(prepared, lost), 'damaged');
    const unread = new Set([lost]);
    expect(() => placeDownloads(site, prepared, downloads, { siteDir: published, hashes: publishedHashes }, unread)).toThrow(
      new DamagedDownload(join(prepared, lost)),
    );
    expect(existsSync(join(site, lost))).toBe(false);
    // Whole, it is copied.
    writeFileSync(join(prepared, lost), 'kept');
    rmSync(site, { recursive: true });
    placeDownloads(site, prepared, downloads, { siteDir: published, hashes: publishedHashes }, unread);
    expect(readFileSync(join(site, lost), 'utf8')).toBe('kept');
  });

  it('copies a file the published site lost, though its manifest lists it unchanged', () => {
    const { published, prepared, site, downloads, publishedHashes } = folders(false);
    rmSync(join(published, search('order/price/0.json')));
    placeDownloads(site, prepared, downloads, { siteDir: published, hashes: publishedHashes });
    expect(readFileSync(join(site, search('order/price/0.json')), 'utf8')).toBe('kept');
  });
});
