import { linkSync, mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkUnchangedFiles } from '../../src/publish/file-times.ts';
import { tempDir } from '../support/site.ts';

let workspace: string;
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const stat = (path: string) => statSync(path, { bigint: true });

describe('file times a new site gets', () => {
  it('an unchanged file becomes the published one (same inode and time, exactly); a changed or new one is newer', async () => {
    workspace = tempDir('times');
    const [published, site] = [join(workspace, 'published'), join(workspace, 'site')];
    mkdirSync(published);
    mkdirSync(site);
    for (const [name, text] of [
      ['same.json', 'same'],
      ['changed.json', 'old'],
    ] as const)
      writeFileSync(join(published, name), text);
    // An odd time, not a whole second, to show it is kept to the nanosecond.
    utimesSync(join(published, 'same.json'), 1_700_000_000.123456, 1_700_000_000.123456);
    for (const [name, text] of [
      ['same.json', 'same'],
      ['changed.json', 'new'],
      ['added.json', 'added'],
    ] as const)
      writeFileSync(join(site, name), text);
    const { changed, unchanged } = linkUnchangedFiles({
      publishedSiteDir: published,
      siteDir: site,
      files: ['same.json', 'changed.json', 'added.json'],
      taken: new Set(),
      publishedHashes: {},
    });
    expect([...changed].sort()).toEqual(['added.json', 'changed.json']);
    expect(unchanged).toBe(1);
    expect(stat(join(site, 'same.json')).ino).toBe(stat(join(published, 'same.json')).ino);
    expect(stat(join(site, 'same.json')).mtimeNs).toBe(stat(join(published, 'same.json')).mtimeNs);
    expect(stat(join(site, 'changed.json')).mtimeNs > stat(join(published, 'changed.json')).mtimeNs).toBe(true);
  });

  it('going back to earlier data: a download linked from an older preparation is copied, newer than the one it replaces, the preparation untouched', async () => {
    workspace = tempDir('times');
    const [published, site, preparation] = [join(workspace, 'published'), join(workspace, 'site'), join(workspace, 'preparation')];
    for (const dir of [published, site, preparation]) mkdirSync(dir);
    writeFileSync(join(preparation, 'all.json'), '[1]');
    utimesSync(join(preparation, 'all.json'), 1_600_000_000, 1_600_000_000);
    writeFileSync(join(published, 'all.json'), '[2]');
    linkSync(join(preparation, 'all.json'), join(site, 'all.json'));
    const { changed } = linkUnchangedFiles({
      publishedSiteDir: published,
      siteDir: site,
      files: ['all.json'],
      taken: new Set(),
      publishedHashes: {},
    });
    expect([...changed]).toEqual(['all.json']);
    expect(stat(join(site, 'all.json')).mtimeNs > stat(join(published, 'all.json')).mtimeNs).toBe(true);
    expect(stat(join(site, 'all.json')).ino).not.toBe(stat(join(preparation, 'all.json')).ino);
    expect(stat(join(preparation, 'all.json')).mtimeNs).toBe(1_600_000_000_000_000_000n);
  });

  it('a changed file newer than the published one even when the published one has a time in the future', async () => {
    workspace = tempDir('times');
    const [published, site] = [join(workspace, 'published'), join(workspace, 'site')];
    mkdirSync(published);
    mkdirSync(site);
    writeFileSync(join(published, 'a.json'), 'old');
    const future = Date.now() / 1000 + 3600;
    utimesSync(join(published, 'a.json'), future, future);
    writeFileSync(join(site, 'a.json'), 'new');
    linkUnchangedFiles({ publishedSiteDir: published, siteDir: site, files: ['a.json'], taken: new Set(), publishedHashes: {} });
    expect(stat(join(site, 'a.json')).mtimeNs > stat(join(published, 'a.json')).mtimeNs).toBe(true);
  });
});
