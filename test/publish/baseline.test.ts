/**
 * The baseline, what a build is compared with and may take from: the published build read from a
 * real store (its manifest and record, or nothing where either is not whole), and the value made
 * of it, which takes the record's preparation only where what is kept is trusted, and its page
 * keys only where the same code and addresses made it as well.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { manifestJson, manifestPath, type Manifest } from '../../src/outputs/manifest.ts';
import { baselineOf, readPublishedBuild, UnreadableManifest, type PublishedBuild } from '../../src/publish/baseline.ts';
import { writeRecord, type BuildRecord } from '../../src/publish/record.ts';
import { newBuildFolder, publish, storeDirOf } from '../../src/publish/store.ts';
import { VERCEL_STATIC_DIR } from '../../src/serve/hosts/vercel.ts';
import { tempDir } from '../support/site.ts';

const workspaces: string[] = [];
afterEach(() => {
  for (const workspace of workspaces.splice(0)) rmSync(workspace, { recursive: true, force: true });
  vi.restoreAllMocks();
});

const manifest: Manifest = {
  version: 2,
  buildId: '0mwwse4wy-a12e793a',
  changedBy: '0mwwse3aa-00c0ffee',
  count: 12,
  pageCount: 2,
  pageSize: 10,
  baseUrl: 'https://example.org',
  assetsUrl: 'https://assets.example.org',
  builtAt: '2026-01-02T03:04:05.000Z',
  data: { file: 'data/listing.csv', sha256: 'a'.repeat(64) },
  files: { 'car/api/capture_car/latest/page/1.json': 'b'.repeat(64), 'all.json': 'c'.repeat(64) },
};

const record: Omit<BuildRecord, 'version'> = {
  fingerprint: 'f'.repeat(64),
  dataKey: 'd'.repeat(32),
  keys: { json: ['j1', 'j2'], html: ['h1', 'h2'], count: 12, listing: 'makes' },
  rendered: { json: Uint8Array.of(1, 0), html: Uint8Array.of(0, 1) },
  files: ['index.html', 'all.json'],
  bytes: 1234,
};

const published = (withRecord: boolean): PublishedBuild => ({
  folder: { id: 'id', dir: '/store/id', siteDir: '/store/id/site', deployDir: '/store/id/deploy' },
  manifest,
  record: withRecord ? { version: 3, ...record } : undefined,
});

describe('the baseline', () => {
  it('is nothing without a published build', () => {
    expect(baselineOf(undefined, record.fingerprint)).toBeUndefined();
  });

  it("is the published site, its manifest's data, addresses and hashes, and all its record says, where it was made by this code", () => {
    expect(baselineOf(published(true), record.fingerprint)).toEqual({
      siteDir: '/store/id/site',
      dataSha256: manifest.data.sha256,
      assetsUrl: manifest.assetsUrl,
      pageCount: 2,
      hashes: manifest.files,
      buildId: manifest.buildId,
      changedBy: manifest.changedBy,
      dataKey: record.dataKey,
      keys: record.keys,
      rendered: record.rendered,
      files: record.files,
    });
  });

  it('takes no page keys from a build of other code or addresses, but its preparation still', () => {
    const baseline = baselineOf(published(true), 'e'.repeat(64));
    expect(baseline?.keys).toBeUndefined();
    expect(baseline?.dataKey).toBe(record.dataKey);
  });

  it('without a record is the published site and its manifest alone', () => {
    const baseline = baselineOf(published(false), record.fingerprint);
    expect(baseline).toMatchObject({ siteDir: '/store/id/site', pageCount: 2, hashes: manifest.files });
    expect([baseline?.dataKey, baseline?.keys, baseline?.rendered, baseline?.files]).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('the published build, read from the store', () => {
  /** A store with one build published at dist/, its manifest written as `text`. */
  function publishedStore(text: string) {
    const dir = tempDir('baseline');
    workspaces.push(dir);
    const dist = join(dir, 'dist');
    const store = storeDirOf(dist);
    const folder = newBuildFolder(store, VERCEL_STATIC_DIR);
    writeFileSync(manifestPath(folder.siteDir), text);
    publish(store, folder, dist, join(dir, 'deploy'));
    return { store, dist, folder };
  }

  it('is its folder, manifest and record', () => {
    const { store, dist, folder } = publishedStore(manifestJson(manifest));
    writeRecord(folder.dir, record);
    expect(readPublishedBuild(store, dist)).toEqual({ folder, manifest, record: { version: 3, ...record } });
  });

  it('has no record where its record is not there', () => {
    const { store, dist, folder } = publishedStore(manifestJson(manifest));
    expect(readPublishedBuild(store, dist)).toEqual({ folder, manifest, record: undefined });
  });

  it('is none where nothing is published', () => {
    const { store, dist } = publishedStore(manifestJson(manifest));
    rmSync(dist);
    expect(readPublishedBuild(store, dist)).toBeUndefined();
  });

  it('is an UnreadableManifest, never none, where its manifest is missing, not JSON or not a manifest', () => {
    for (const [text, said] of [
      ['{"count": 12}', 'is not a manifest this build can read'],
      ['{"count": ', 'is not JSON'],
      [manifestJson({ ...manifest, files: [] as unknown as Manifest['files'] }), 'is not a manifest this build can read'],
    ] as const) {
      const { store, dist } = publishedStore(text);
      expect(() => readPublishedBuild(store, dist)).toThrow(UnreadableManifest);
      expect(() => readPublishedBuild(store, dist)).toThrow(`${join(dist, 'manifest.json')} ${said}`);
    }
    const { store, dist, folder } = publishedStore(manifestJson(manifest));
    rmSync(manifestPath(folder.siteDir));
    expect(() => readPublishedBuild(store, dist)).toThrow(`${join(dist, 'manifest.json')} is missing from the published site`);
  });
});
