/**
 * `manifest.json` (src/outputs/manifest.ts) of a real site folder: every page's SHA-256 by its URL
 * path (read from the file as written, or taken where the build knows it), the two whole-listing
 * downloads' hashes, the counts, the addresses, the data file; valid by its own schema, and
 * written as the published file is.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manifestJson, manifestOf, manifestPath, manifestSchema, type ManifestInput } from '../../src/outputs/manifest.ts';
import { pageFile, pagePath } from '../../src/listing/routes.ts';
import { tempDir } from '../support/site.ts';

let workspace: string | undefined;
afterEach(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
  workspace = undefined;
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A site folder with `pages` JSON page files, each its own text. */
function site(pages: number): string {
  const dir = (workspace = tempDir('manifest'));
  for (let page = 1; page <= pages; page += 1) {
    mkdirSync(dirname(join(dir, pageFile(page))), { recursive: true });
    writeFileSync(join(dir, pageFile(page)), `page ${page}`);
  }
  return dir;
}

const input: ManifestInput = {
  count: 23,
  baseUrl: 'https://cars.example.com',
  assetsUrl: 'https://img.example.com',
  data: { file: 'data/cars.csv', sha256: 'a'.repeat(64) },
  downloads: { '/all.json': 'j'.repeat(64), '/all.csv': 'c'.repeat(64), '/search-index.json': 's'.repeat(64) },
  builtAt: new Date('2026-01-02T03:04:05.678Z'),
};

describe('the manifest', () => {
  it("holds the listing's counts, its addresses and data file, and the hash of every page and whole-listing download", () => {
    const dir = site(3);
    const manifest = manifestOf(dir, input);
    expect(manifest).toEqual({
      count: 23,
      pageCount: 3,
      pageSize: 10,
      baseUrl: 'https://cars.example.com',
      assetsUrl: 'https://img.example.com',
      builtAt: '2026-01-02T03:04:05.678Z',
      data: { file: 'data/cars.csv', sha256: 'a'.repeat(64) },
      files: {
        [pagePath(1)]: sha256('page 1'),
        [pagePath(2)]: sha256('page 2'),
        [pagePath(3)]: sha256('page 3'),
        '/all.json': 'j'.repeat(64),
        '/all.csv': 'c'.repeat(64),
      },
    });
    expect(manifestSchema.parse(manifest)).toEqual(manifest);
  });

  it("takes a page's hash where the build knows it (the file is not read), and reads the others", () => {
    const dir = site(3);
    rmSync(join(dir, pageFile(2)));
    const manifest = manifestOf(dir, { ...input, knownPageHash: (page) => (page === 2 ? 'k'.repeat(64) : undefined) });
    expect(manifest.files[pagePath(2)]).toBe('k'.repeat(64));
    expect(manifest.files[pagePath(3)]).toBe(sha256('page 3'));
    // Without it, a missing page file is an error, never a manifest without the page.
    expect(() => manifestOf(dir, input)).toThrow(/ENOENT/);
  });

  it('of an empty listing has its one empty page', () => {
    const dir = site(1);
    const manifest = manifestOf(dir, { ...input, count: 0 });
    expect(manifest).toMatchObject({ count: 0, pageCount: 1 });
    expect(Object.keys(manifest.files)).toEqual([pagePath(1), '/all.json', '/all.csv']);
  });

  it('is written as indented JSON at /manifest.json, and read back by its schema', () => {
    const dir = site(3);
    const manifest = manifestOf(dir, input);
    expect(manifestPath(dir)).toBe(join(dir, 'manifest.json'));
    // The published bytes: two-space indents, the fields in this order (a consumer may diff them).
    expect(manifestJson(manifest)).toMatch(
      /^\{\n {2}"count": 23,\n {2}"pageCount": 3,\n {2}"pageSize": 10,\n {2}"baseUrl": "https:\/\/cars\.example\.com",\n/,
    );
    expect(manifestSchema.parse(JSON.parse(manifestJson(manifest)))).toEqual(manifest);
    expect(manifestSchema.safeParse({ ...manifest, builtAt: 'yesterday' }).success).toBe(false);
    expect(manifestSchema.safeParse({ ...manifest, pageCount: 0 }).success).toBe(false);
  });

  it('is dated now unless told', () => {
    const { builtAt: _, ...undated } = input;
    const before = Date.now();
    const { builtAt } = manifestOf(site(3), undated);
    expect(Date.parse(builtAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(builtAt)).toBeLessThanOrEqual(Date.now());
  });
});
