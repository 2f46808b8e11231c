/**
 * `manifest.json` (src/outputs/manifest.ts, its schema in src/listing/documents.ts): the build's id,
 * the build that last changed a file, the counts, the addresses, the data file and every file's
 * SHA-256 by its path, valid by its own schema and written as the published file is; and a manifest
 * of the earlier shape (version 1), read as this one with what it does not say left out.
 */
import { describe, expect, it } from 'vitest';
import { manifestSchema } from '../../src/listing/documents.ts';
import { manifestJson, manifestOf, readManifest, type ManifestInput } from '../../src/outputs/manifest.ts';
import { pageFile, pagePath } from '../../src/listing/routes.ts';

const hash = (letter: string) => letter.repeat(64);

const input: ManifestInput = {
  buildId: '0mwwse4wy-a12e793a',
  changedBy: '0mwwse4wy-a12e793a',
  count: 23,
  baseUrl: 'https://cars.example.com',
  assetsUrl: 'https://img.example.com',
  data: { file: 'data/cars.csv', sha256: hash('a') },
  files: new Map([
    [pageFile(2), hash('2')],
    [pageFile(1), hash('1')],
    ['all.json', hash('b')],
    ['index.html', hash('c')],
  ]),
  builtAt: new Date('2026-01-02T03:04:05.678Z'),
};

describe('the manifest', () => {
  it("holds the build's identity, the listing's counts, its addresses and data file, and every file's hash by path, in path order", () => {
    const manifest = manifestOf(input);
    expect(manifest).toEqual({
      version: 2,
      buildId: '0mwwse4wy-a12e793a',
      builtAt: '2026-01-02T03:04:05.678Z',
      changedBy: '0mwwse4wy-a12e793a',
      count: 23,
      pageCount: 3,
      pageSize: 10,
      baseUrl: 'https://cars.example.com',
      assetsUrl: 'https://img.example.com',
      data: { file: 'data/cars.csv', sha256: hash('a') },
      files: { 'all.json': hash('b'), [pageFile(1)]: hash('1'), [pageFile(2)]: hash('2'), 'index.html': hash('c') },
    });
    expect(Object.keys(manifest.files)).toEqual(['all.json', pageFile(1), pageFile(2), 'index.html']);
    expect(manifestSchema.parse(manifest)).toEqual(manifest);
  });

  it('of an empty listing has its one empty page', () => {
    expect(manifestOf({ ...input, count: 0 })).toMatchObject({ count: 0, pageCount: 1 });
  });

  it('is written as indented JSON, read back by its schema, and refuses what is not one', () => {
    const manifest = manifestOf(input);
    // The published bytes: two-space indents, the fields in this order (a consumer may diff them).
    expect(manifestJson(manifest)).toMatch(/^\{\n {2}"version": 2,\n {2}"buildId": "0mwwse4wy-a12e793a",\n {2}"builtAt": /);
    expect(readManifest(JSON.parse(manifestJson(manifest)))).toEqual({ manifest });
    for (const broken of [
      { ...manifest, builtAt: 'yesterday' },
      { ...manifest, pageCount: 0 },
      { ...manifest, files: { 'a.json': 'not a hash' } },
    ]) {
      expect(readManifest(broken)).toHaveProperty('problems');
    }
  });

  it('of version 1 (no build id; pages and downloads by URL path) is read with its files by path', () => {
    const versionOne = {
      count: 12,
      pageCount: 2,
      pageSize: 10,
      baseUrl: 'https://cars.example.com',
      assetsUrl: 'https://img.example.com',
      builtAt: '2026-01-02T03:04:05.000Z',
      data: { file: 'data/cars.csv', sha256: hash('a') },
      files: { [pagePath(1)]: hash('1'), [pagePath(2)]: hash('2'), '/all.json': hash('b'), '/all.csv': hash('c') },
    };
    const read = readManifest(versionOne);
    expect(read).toEqual({
      manifest: {
        ...versionOne,
        files: { [pageFile(1)]: hash('1'), [pageFile(2)]: hash('2'), 'all.json': hash('b'), 'all.csv': hash('c') },
      },
    });
    expect('manifest' in read && read.manifest.buildId).toBeUndefined();
    // A manifest of this version with a field missing is not read as one of version 1.
    const { buildId: _missing, ...broken } = manifestOf(input);
    expect(readManifest(broken)).toHaveProperty('problems');
  });

  it('is dated now unless told', () => {
    const { builtAt: _, ...undated } = input;
    const before = Date.now();
    const { builtAt } = manifestOf(undated);
    expect(Date.parse(builtAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(builtAt)).toBeLessThanOrEqual(Date.now());
  });
});
