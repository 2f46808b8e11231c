/**
 * Pages a build takes from its baseline, the published site, instead of rendering them again. A
 * page's key is a hash of exactly what it shows (src/listing/page-keys.ts): where the published
 * build was made by the same code and addresses and has the same key for a page, and its file is
 * there, the page is not rendered but taken: before Astro renders anything, the build's folder is
 * given the published file (a hard link), and a page to render is removed from it. So a file Astro
 * may write is never a link to a published file, and a page taken keeps its inode, bytes and time
 * all the way to publication. (A page rendered with the published page's bytes is linked to that
 * file as it is rendered, src/files/links.ts: a new name, which nothing writes afterwards.)
 */
import { linkSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { PageKeys } from '../listing/page-keys.ts';
import { LANGUAGES } from '../listing/languages.ts';
import { htmlPageFiles, pageFile } from '../listing/routes.ts';
import type { Baseline } from './baseline.ts';
import type { RenderSet } from './record.ts';
import { ifPresent } from '../files/missing.ts';

/**
 * Which of `pages` pages to render, for pages with `keys`: those whose key is not the baseline's
 * (every page where either has no keys: a build that renders every page makes its keys as it
 * writes them, see src/outputs/listing-pages.ts), or whose published file is gone; the others are
 * taken from it. With the size of the pages taken, in bytes (each is looked up anyway, to see that
 * it is there).
 */
export function renderSetOf(
  pages: number,
  keys: PageKeys | undefined,
  baseline: Pick<Baseline, 'siteDir' | 'keys'> | undefined,
): { render: RenderSet; takenBytes: number } {
  const render: RenderSet = { json: new Uint8Array(pages), html: new Uint8Array(pages) };
  const compared =
    keys !== undefined && baseline?.keys !== undefined ? { keys, published: baseline.keys, siteDir: baseline.siteDir } : undefined;
  let takenBytes = 0;
  /** Whether the page's files (an HTML page's in every language) are taken: the same key, every file there. */
  const taken = (kind: 'json' | 'html', index: number, files: readonly string[]) => {
    if (compared === undefined || compared.published[kind][index] !== compared.keys[kind][index]) return false;
    const sizes = files.map((file) => statSync(join(compared.siteDir, file), { throwIfNoEntry: false })?.size);
    if (sizes.some((size) => size === undefined)) return false;
    for (const size of sizes) takenBytes += size!;
    return true;
  };
  for (let index = 0; index < pages; index += 1) {
    const page = index + 1;
    render.json[index] = taken('json', index, [pageFile(page)]) ? 0 : 1;
    render.html[index] = taken('html', index, htmlPageFiles(page)) ? 0 : 1;
  }
  return { render, takenBytes };
}

/** How many page files of each kind a render set writes: an HTML page is a file a language. */
export function renderedCount(render: RenderSet): { json: number; html: number } {
  const count = (flags: Uint8Array) => flags.reduce((sum, flag) => sum + flag, 0);
  return { json: count(render.json), html: count(render.html) * LANGUAGES.length };
}

/** The pages of a site folder, by its JSON page files (the highest page number there). */
export function pagesIn(siteDir: string): number {
  let pages = 0;
  // No page folder: no pages.
  for (const name of ifPresent(() => readdirSync(join(siteDir, dirname(pageFile(1))))) ?? []) {
    const page = Number.parseInt(name, 10);
    if (name === basename(pageFile(page)) && page > pages) pages = page;
  }
  return pages;
}

/**
 * Makes the pages of a build's folder what this build needs, before any page is rendered. The
 * folder is the build published before the current one (see store.ts) or a new one, which is the
 * same with no pages: a page to render is removed, so that it is written as a new file, never
 * through one a published build may share; a page taken becomes the published file, linked again
 * where the published build rendered it or the folder does not hold it (a recycled folder holds
 * the older file; a new one none), else it is that file already; pages past the new count go. In a
 * recycled folder this costs the pages this build and the published one rendered, not one per
 * page. Returns the site paths removed or linked again: what the preparation cost. A page
 * taken that vanished from the published site stops the build (nothing is published).
 */
export function preparePages(
  siteDir: string,
  render: RenderSet,
  baseline: Pick<Baseline, 'siteDir' | 'rendered'> | undefined,
  oldPages: number,
): Set<string> {
  const touched = new Set<string>();
  const pages = render.json.length;
  const folders = new Set<string>();
  /** Links the published page at `path`; `held` where the folder may hold an older file there. */
  const relink = (path: string, held: boolean) => {
    if (!baseline) throw new Error(`page ${path} is taken but nothing is published`);
    const to = join(siteDir, path);
    if (held) rmSync(to, { force: true });
    if (!folders.has(dirname(to))) {
      mkdirSync(dirname(to), { recursive: true });
      folders.add(dirname(to));
    }
    linkSync(join(baseline.siteDir, path), to);
    touched.add(path);
  };
  for (let index = 0; index < Math.max(pages, oldPages); index += 1) {
    const page = index + 1;
    for (const [kind, path] of [['json', pageFile(page)] as const, ...htmlPageFiles(page).map((file) => ['html', file] as const)]) {
      if (index >= pages || render[kind][index] === 1) {
        if (index < oldPages) {
          rmSync(join(siteDir, path), { force: true });
          touched.add(path);
        }
        if (index >= pages && kind === 'html') rmSync(join(siteDir, dirname(path)), { recursive: true, force: true });
        continue;
      }
      const rendered = baseline?.rendered?.[kind];
      const stale = rendered === undefined || index >= rendered.length || rendered[index] === 1 || index >= oldPages;
      if (stale) relink(path, index < oldPages);
    }
  }
  return touched;
}

/** The site paths of the pages a build took (did not render): they are the published files. */
export function takenPages(render: RenderSet): Set<string> {
  const taken = new Set<string>();
  for (let index = 0; index < render.json.length; index += 1) {
    if (render.json[index] === 0) taken.add(pageFile(index + 1));
    if (render.html[index] === 0) for (const file of htmlPageFiles(index + 1)) taken.add(file);
  }
  return taken;
}
