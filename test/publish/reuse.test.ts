/**
 * Which pages a build renders and which it takes from the published build, on real folders: a
 * page is kept only where its key is the published one and its file is there; a build's folder
 * (new, or recycled from the build before) has its pages made this build's before any page is
 * rendered (rendered ones removed, or left to be written in place where the file is the folder's
 * own, kept ones the published files, pages past the new count gone), touching only the pages
 * that need it.
 */
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageKeys } from '../../src/listing/page-keys.ts';
import { htmlPageFile, htmlPageFiles, pageFile } from '../../src/listing/routes.ts';
import { LANGUAGES } from '../../src/listing/languages.ts';
import type { RenderSet } from '../../src/publish/record.ts';
import { takenPages, pagesIn, renderSetOf, preparePages, renderedCount } from '../../src/publish/reuse.ts';

/** The page numbers `flags` marks. */
const flaggedPages = (flags: Uint8Array) => [...flags.keys()].filter((index) => flags[index] === 1).map((index) => index + 1);
import { tempDir } from '../support/site.ts';

let workspace: string | undefined;
afterEach(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
  workspace = undefined;
});

/** Keys for `pages` pages: `k<page>` unless `changed` gives another. */
const keysOf = (pages: number, changed: { json?: number[]; html?: number[] } = {}): PageKeys => ({
  json: Array.from({ length: pages }, (_, index) => (changed.json?.includes(index + 1) ? `new${index + 1}` : `k${index + 1}`)),
  html: Array.from({ length: pages }, (_, index) => (changed.html?.includes(index + 1) ? `new${index + 1}` : `h${index + 1}`)),
  count: pages * 10,
  listing: 'makes',
});

/** How many HTML files a build renders for `pages` HTML pages: each in every language. */
const htmlFiles = (pages: number) => pages * LANGUAGES.length;

/** The page files of `pages` pages, HTML in every language. */
const pageFilesOf = (pages: number): string[] =>
  Array.from({ length: pages }, (_, index) => [pageFile(index + 1), ...htmlPageFiles(index + 1)]).flat();

/** Writes each file under `dir` with its own text. */
function writeFiles(dir: string, files: readonly string[], text: (path: string) => string): void {
  for (const path of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text(path));
  }
}

const flags = (pages: number, on: number[]): Uint8Array =>
  Uint8Array.from({ length: pages }, (_, index) => (on.includes(index + 1) ? 1 : 0));
const renderSet = (pages: number, json: number[], html: number[]): RenderSet => ({ json: flags(pages, json), html: flags(pages, html) });
const inode = (path: string) => statSync(path).ino;

describe('the pages to render', () => {
  it('are every page without a published build', () => {
    const { render, takenBytes } = renderSetOf(3, keysOf(3), undefined);
    expect(flaggedPages(render.json)).toEqual([1, 2, 3]);
    expect(flaggedPages(render.html)).toEqual([1, 2, 3]);
    expect(renderedCount(render)).toEqual({ json: 3, html: htmlFiles(3) });
    expect(takenPages(render)).toEqual(new Set());
    expect(takenBytes).toBe(0);
  });

  it('are those whose key changed or whose published file is gone; the others are kept', () => {
    const dir = (workspace = tempDir('reuse'));
    const published = join(dir, 'published');
    writeFiles(published, pageFilesOf(4), (path) => path);
    rmSync(join(published, htmlPageFile(4)));
    const { render, takenBytes } = renderSetOf(5, keysOf(5, { json: [2], html: [3] }), { siteDir: published, keys: keysOf(4) });
    // JSON 2 changed, 5 is new; HTML 3 changed, 4's file is gone, 5 is new.
    expect(flaggedPages(render.json)).toEqual([2, 5]);
    expect(flaggedPages(render.html)).toEqual([3, 4, 5]);
    expect(renderedCount(render)).toEqual({ json: 2, html: htmlFiles(3) });
    expect(takenPages(render)).toEqual(new Set([pageFile(1), pageFile(3), pageFile(4), ...htmlPageFiles(1), ...htmlPageFiles(2)]));
    // Each file holds its own path: the taken pages' sizes, added up.
    expect(takenBytes).toBe([...takenPages(render)].reduce((sum, path) => sum + Buffer.byteLength(path), 0));
    // Nothing changed: nothing rendered, every page kept.
    const { render: none } = renderSetOf(3, keysOf(3), { siteDir: published, keys: keysOf(3) });
    expect(renderedCount(none)).toEqual({ json: 0, html: htmlFiles(0) });
    expect(takenPages(none)).toEqual(new Set(pageFilesOf(3)));
    // Keys not made yet (they will be as every page is written): every page rendered.
    expect(renderedCount(renderSetOf(3, undefined, { siteDir: published, keys: keysOf(3) }).render)).toEqual({
      json: 3,
      html: htmlFiles(3),
    });
  });

  it('kept, are linked from the published site into a new folder before any page is rendered: the same files', async () => {
    const dir = (workspace = tempDir('reuse'));
    const published = join(dir, 'published');
    const site = join(dir, 'site');
    writeFiles(published, pageFilesOf(3), (path) => path);
    const render = renderSet(3, [2], [3]);
    const kept = preparePages(site, render, { siteDir: published, rendered: renderSet(3, [], []) }, 0);
    expect(kept).toEqual(new Set([pageFile(1), pageFile(3), ...htmlPageFiles(1), ...htmlPageFiles(2)]));
    for (const path of kept) expect(inode(join(site, path))).toBe(inode(join(published, path)));
    expect(existsSync(join(site, pageFile(2)))).toBe(false);
    for (const path of htmlPageFiles(3)) expect(existsSync(join(site, path))).toBe(false);
    expect(pagesIn(site)).toBe(3);
    expect(pagesIn(join(dir, 'nowhere'))).toBe(0);
  });
});

describe('a recycled folder made ready for a build', () => {
  /**
   * The published build (4 pages; it rendered JSON 2 and HTML 4, and kept the rest from the build
   * before it) and the recycled folder, which is that build before: 5 pages, the ones the published
   * build kept being the same files, the ones it rendered older files of their own.
   */
  function folders() {
    const dir = (workspace = tempDir('recycled'));
    const published = join(dir, 'published');
    const recycled = join(dir, 'recycled');
    writeFiles(published, pageFilesOf(4), (path) => `published ${path}`);
    const publishedRendered = renderSet(4, [2], [4]);
    const renderedByPublished = new Set([pageFile(2), ...htmlPageFiles(4)]);
    for (const path of pageFilesOf(5)) {
      mkdirSync(dirname(join(recycled, path)), { recursive: true });
      if (existsSync(join(published, path)) && !renderedByPublished.has(path)) linkSync(join(published, path), join(recycled, path));
      else writeFileSync(join(recycled, path), `older ${path}`);
    }
    return { published, recycled, publishedRendered };
  }

  it('has the pages this build renders removed, the kept ones the published files, and the pages past its count gone', async () => {
    const { published, recycled, publishedRendered } = folders();
    // This build: 4 pages; it renders JSON 3 and HTML 2.
    const render = renderSet(4, [3], [2]);
    const touched = preparePages(recycled, render, { siteDir: published, rendered: publishedRendered }, 5);
    for (const path of [pageFile(3), ...htmlPageFiles(2), pageFile(5), ...htmlPageFiles(5)])
      expect(existsSync(join(recycled, path)), path).toBe(false);
    for (const path of htmlPageFiles(5)) expect(existsSync(join(recycled, dirname(path)))).toBe(false);
    for (const path of takenPages(render)) {
      expect(inode(join(recycled, path)), path).toBe(inode(join(published, path)));
      expect(readFileSync(join(recycled, path), 'utf8')).toBe(`published ${path}`);
    }
    // Only what changed: the removed pages, and the kept pages the published build rendered (linked again).
    expect(touched).toEqual(
      new Set([pageFile(3), ...htmlPageFiles(2), pageFile(5), ...htmlPageFiles(5), pageFile(2), ...htmlPageFiles(4)]),
    );
  });

  it('links every kept page again where the published build did not record what it rendered', async () => {
    const { published, recycled } = folders();
    const render = renderSet(4, [3], [2]);
    const touched = preparePages(recycled, render, { siteDir: published, rendered: undefined }, 5);
    for (const path of takenPages(render)) expect(inode(join(recycled, path)), path).toBe(inode(join(published, path)));
    expect(touched).toEqual(new Set([...takenPages(render), pageFile(3), ...htmlPageFiles(2), pageFile(5), ...htmlPageFiles(5)]));
  });

  it('gains the pages past its old count from the published build', async () => {
    const { published, recycled, publishedRendered } = folders();
    rmSync(join(recycled, pageFile(4)));
    for (const path of htmlPageFiles(4)) rmSync(join(recycled, dirname(path)), { recursive: true });
    rmSync(join(recycled, pageFile(5)));
    for (const path of htmlPageFiles(5)) rmSync(join(recycled, dirname(path)), { recursive: true });
    const render = renderSet(4, [], []);
    preparePages(recycled, render, { siteDir: published, rendered: publishedRendered }, 3);
    for (const path of pageFilesOf(4)) expect(inode(join(recycled, path)), path).toBe(inode(join(published, path)));
  });

  it('removes every page it renders again, whatever other names its file has, never touching the published file; a symbolic link there goes, never its target', async () => {
    const { published, recycled, publishedRendered } = folders();
    // JSON 2 and HTML 4 are the folder's own files (rendered by the build before); JSON 3 is the
    // published file; HTML 3 a symbolic link to it.
    rmSync(join(recycled, htmlPageFile(3)));
    symlinkSync(join(published, htmlPageFile(3)), join(recycled, htmlPageFile(3)));
    const touched = preparePages(recycled, renderSet(4, [2, 3], [3, 4]), { siteDir: published, rendered: publishedRendered }, 5);
    for (const path of [pageFile(2), pageFile(3), htmlPageFile(3), htmlPageFile(4)]) {
      expect(lstatSync(join(recycled, path), { throwIfNoEntry: false }), path).toBeUndefined();
      expect(touched.has(path), path).toBe(true);
    }
    expect(readFileSync(join(published, pageFile(3)), 'utf8')).toBe(`published ${pageFile(3)}`);
    expect(readFileSync(join(published, htmlPageFile(3)), 'utf8')).toBe(`published ${htmlPageFile(3)}`);
  });

  it('refuses to take a page when nothing is published', async () => {
    const { recycled } = folders();
    expect(() => preparePages(recycled, renderSet(2, [1], []), undefined, 2)).toThrow(/is taken but nothing is published/);
  });
});
