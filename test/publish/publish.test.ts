import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStagingDir, discard, keepUnchangedTimes, publish, spareDirOf } from '../../src/publish/publish.ts';
import { tempDir } from '../support/site.ts';

let workspace: string;
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const siteWith = (dir: string, text: string) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), text);
};

describe('publishing a build', () => {
  it('swaps a finished staging folder in place of the site, readable by a web server; the old one goes', async () => {
    workspace = tempDir('publish');
    const dist = join(workspace, 'dist');
    siteWith(dist, 'old');
    const { dir: staging } = createStagingDir(dist);
    expect(statSync(staging).mode & 0o777).toBe(0o755);
    writeFileSync(join(staging, 'index.html'), 'new');
    publish(staging, dist);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('new');
    await expect.poll(() => readdirSync(workspace), { timeout: 10_000 }).toEqual(['dist']);
  });

  it('discards a failed build without touching the site', () => {
    workspace = tempDir('publish');
    const dist = join(workspace, 'dist');
    siteWith(dist, 'old');
    const { dir: staging } = createStagingDir(dist);
    discard(staging);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('old');
    expect(readdirSync(workspace)).toEqual(['dist']);
  });

  it('brings back the last good site when a build died between the two renames', () => {
    workspace = tempDir('publish');
    const dist = join(workspace, 'dist');
    siteWith(join(workspace, '.retired-dist'), 'last good');
    expect(existsSync(dist)).toBe(false);
    const { dir: staging } = createStagingDir(dist);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('last good');
    discard(staging);
  });

  it('clears staging folders that killed builds left behind', () => {
    workspace = tempDir('publish');
    const dist = join(workspace, 'dist');
    siteWith(dist, 'old');
    siteWith(join(workspace, '.staging-dist-abc123'), 'half');
    const { dir: staging } = createStagingDir(dist);
    expect(readdirSync(workspace).sort()).toEqual(['dist', staging.split('/').at(-1)].sort());
  });

  it("keeps the replaced site as the spare it is asked to, and makes the next staging folder of it, once", () => {
    workspace = tempDir('publish');
    const dist = join(workspace, 'dist');
    const id = '0b5f0d1e-6a36-4b8e-9d43-1c2f4e5a6b7c';
    siteWith(dist, 'first');
    const { dir: second } = createStagingDir(dist);
    writeFileSync(join(second, 'index.html'), 'second');
    publish(second, dist, spareDirOf(dist, id));
    expect(readdirSync(workspace).sort()).toEqual([`.spare-dist-${id}`, 'dist']);
    const next = createStagingDir(dist, id);
    expect(next.fromSpare).toBe(true);
    expect(readFileSync(join(next.dir, 'index.html'), 'utf8')).toBe('first');
    expect(readdirSync(workspace).sort()).toEqual([next.dir.split('/').at(-1), 'dist'].sort());
    discard(next.dir);
    // Gone with the failed build: the next one starts from an empty folder.
    const after = createStagingDir(dist, id);
    expect(after.fromSpare).toBe(false);
    expect(readdirSync(after.dir)).toEqual([]);
  });

  it("removes spares not asked for, but never another site's folders that start with this one's name", async () => {
    workspace = tempDir('publish');
    const dist = join(workspace, 'dist');
    siteWith(dist, 'site');
    const other = [`.spare-dist-2-${'a'.repeat(8)}-aaaa-aaaa-aaaa-${'a'.repeat(12)}`, '.staging-dist-2-abc123'];
    for (const name of other) siteWith(join(workspace, name), 'the other site');
    siteWith(spareDirOf(dist, '0b5f0d1e-6a36-4b8e-9d43-1c2f4e5a6b7c'), 'stale spare');
    const { dir: staging, fromSpare } = createStagingDir(dist, 'ffffffff-6a36-4b8e-9d43-1c2f4e5a6b7c');
    expect(fromSpare).toBe(false);
    await expect
      .poll(() => readdirSync(workspace).sort(), { timeout: 10_000 })
      .toEqual([...other, 'dist', staging.split('/').at(-1)].sort());
  });
});

describe('keepUnchangedTimes', () => {
  it('gives unchanged files the time they were published with, and leaves changed and new ones new', () => {
    workspace = tempDir('times');
    const old = join(workspace, 'dist');
    const next = join(workspace, 'staging');
    for (const dir of [old, next]) mkdirSync(join(dir, 'page/2'), { recursive: true });
    writeFileSync(join(old, 'index.html'), 'same');
    writeFileSync(join(old, 'page/2/index.html'), 'old text');
    writeFileSync(join(old, 'size.json'), 'abc');
    const published = new Date('2026-01-02T03:04:05Z');
    for (const file of ['index.html', 'page/2/index.html', 'size.json']) utimesSync(join(old, file), published, published);
    writeFileSync(join(next, 'index.html'), 'same');
    writeFileSync(join(next, 'page/2/index.html'), 'new text');
    writeFileSync(join(next, 'size.json'), 'abcd');
    writeFileSync(join(next, 'new.json'), '{}');
    const { kept, changed } = keepUnchangedTimes(old, next);
    expect(kept).toBe(1);
    expect([...changed].sort()).toEqual(['new.json', 'page/2/index.html', 'size.json']);
    expect(statSync(join(next, 'index.html')).mtime).toEqual(published);
    for (const file of ['page/2/index.html', 'size.json', 'new.json']) expect(statSync(join(next, file)).mtime, file).not.toEqual(published);
  });

  it('compares large files block by block: a difference in the last byte of 3 MB counts', () => {
    workspace = tempDir('times');
    const old = join(workspace, 'dist');
    const next = join(workspace, 'staging');
    for (const dir of [old, next]) mkdirSync(dir, { recursive: true });
    const large = Buffer.alloc(3 * 1024 * 1024 + 5, 'a');
    writeFileSync(join(old, 'same.json'), large);
    writeFileSync(join(next, 'same.json'), large);
    writeFileSync(join(old, 'last.json'), large);
    writeFileSync(join(next, 'last.json'), Buffer.concat([large.subarray(0, -1), Buffer.from('b')]));
    const { kept, changed } = keepUnchangedTimes(old, next);
    expect(kept).toBe(1);
    expect([...changed]).toEqual(['last.json']);
  });

  it('does nothing for a first build', () => {
    workspace = tempDir('times');
    mkdirSync(join(workspace, 'staging'));
    expect(keepUnchangedTimes(join(workspace, 'dist'), join(workspace, 'staging')).kept).toBe(0);
  });
});

