/**
 * Pages a build takes from its baseline, the published site, instead of rendering them again. A
 * page's key is a hash of exactly what it shows (src/listing/page-keys.ts): where the published
 * build was made by the same code and addresses and has the same key for a page, and its file is
 * there, the page is not rendered but taken: before Astro renders anything, the build's folder is
 * given the published file (a hard link), and a page to render is removed from it unless the file
 * is the folder's own (`ownFile`), which is then written again in place. So a file Astro may write
 * is never a link to a published file, and a page taken keeps its inode, bytes and time all the
 * way to publication.
 */
import { linkSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { turnEvery } from '../data/event-loop.ts';
import type { PageKeys } from '../listing/page-keys.ts';
import { htmlPageFile, pageFile } from '../listing/routes.ts';
import type { Baseline } from './baseline.ts';
import { namesFile } from './links.ts';

/** Which pages Astro renders: `json[n - 1]` / `html[n - 1]` is 1 for page n's JSON / HTML page. */
export interface RenderSet {
  json: Uint8Array;
  html: Uint8Array;
}

/** The page numbers `flags` marks. */
export function flaggedPages(flags: Uint8Array): number[] {
  const pages: number[] = [];
  for (let index = 0; index < flags.length; index += 1) if (flags[index] === 1) pages.push(index + 1);
  return pages;
}

/**
 * Which of `pages` pages to render, for pages with `keys`: those whose key is not the baseline's
 * (every page where either has no keys: a build that renders every page makes its keys as it
 * writes them, see src/outputs/json-pages.ts), or whose published file is gone; the others are
 * taken from it. Page 1's HTML is the home page, rendered by its own route every time. With the
 * size of the pages taken, in bytes (each is looked up anyway, to see that it is there).
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
  const taken = (kind: 'json' | 'html', index: number, file: string) => {
    if (compared === undefined || compared.published[kind][index] !== compared.keys[kind][index]) return false;
    const stats = statSync(join(compared.siteDir, file), { throwIfNoEntry: false });
    if (stats === undefined) return false;
    takenBytes += stats.size;
    return true;
  };
  for (let index = 0; index < pages; index += 1) {
    const page = index + 1;
    render.json[index] = taken('json', index, pageFile(page)) ? 0 : 1;
    render.html[index] = page === 1 || taken('html', index, htmlPageFile(page)) ? 0 : 1;
  }
  return { render, takenBytes };
}

/** How many pages of each kind a render set renders. */
export function renderedCount(render: RenderSet): { json: number; html: number } {
  const count = (flags: Uint8Array) => flags.reduce((sum, flag) => sum + flag, 0);
  return { json: count(render.json), html: count(render.html) };
}

/** The pages of a site folder, by its JSON page files (the highest page number there). */
export function pagesIn(siteDir: string): number {
  let pages = 0;
  try {
    for (const name of readdirSync(join(siteDir, dirname(pageFile(1))))) {
      const page = Number.parseInt(name, 10);
      if (name === basename(pageFile(page)) && page > pages) pages = page;
    }
  } catch {
    // No page folder: no pages.
  }
  return pages;
}

/** A build's site folder, and the copy of it for Vercel in the same build's folder (see src/publish/host-copies.ts). */
export interface PageFolder {
  siteDir: string;
  copyDir: string;
}

/**
 * The folder's file at `path` if it is its own: a file with no other name than its copy for
 * Vercel in the same build's folder, if that, and not the published file (its link count alone
 * could be stale where a network file system caches it). No published build and no other build
 * holds it, so it may be written through: the recycled build rendered it, or took it from a build
 * since removed.
 */
function ownFile({ siteDir, copyDir }: PageFolder, path: string, publishedSiteDir: string | undefined): Stats | undefined {
  const stats = lstatSync(join(siteDir, path), { throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile() || stats.nlink > 2) return undefined;
  if (publishedSiteDir !== undefined && namesFile(join(publishedSiteDir, path), stats)) return undefined;
  return stats.nlink === 1 || namesFile(join(copyDir, path), stats) ? stats : undefined;
}

/** The pages to render whose files stay to be written in place (marked with the time 0 until they are), by kind. */
export interface PagesInPlace {
  json: number[];
  html: number[];
}

/** What `preparePages` did: the site paths removed or linked again, and the pages left in place. */
export interface PreparedPages {
  touched: Set<string>;
  inPlace: PagesInPlace;
}

/**
 * Makes the pages of a build's folder what this build needs, before any page is rendered. The
 * folder is the build published before the current one (see store.ts) or a new one, which is the
 * same with no pages: a page to render is removed where its file may share its inode with a
 * published file (it must be written as a new file, not through it), and stays where the file is
 * the folder's own (`ownFile`), to be written in place (src/outputs/page-file.ts): no file is
 * removed and made again, which a file system pays for (see BENCHMARKS.md, this machine's disk),
 * and, where it stays that file, its copy for Vercel needs nothing; a page taken becomes the
 * published file, linked again where the published build rendered it or the folder does not hold
 * it (a recycled folder holds the older file; a new one none), else it is that file already;
 * pages past the new count go. In a recycled folder this costs the pages this build and the
 * published one rendered, not one per page. Returns the site paths removed or linked again (their
 * copies for Vercel follow) and the pages left in place (the JSON pages' writer writes through
 * only those). A page taken that vanished from the published site stops the build (nothing is
 * published).
 */
export async function preparePages(
  folder: PageFolder,
  render: RenderSet,
  baseline: Pick<Baseline, 'siteDir' | 'rendered'> | undefined,
  oldPages: number,
): Promise<PreparedPages> {
  const { siteDir } = folder;
  const touched = new Set<string>();
  const inPlace: PagesInPlace = { json: [], html: [] };
  const pages = render.json.length;
  const remove = (path: string) => {
    rmSync(join(siteDir, path), { force: true });
    touched.add(path);
  };
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
    for (const [kind, path] of [
      ['json', pageFile(page)],
      ['html', htmlPageFile(page)],
    ] as const) {
      if (kind === 'html' && page === 1) continue;
      const own = index < pages && render[kind][index] === 1 && index < oldPages ? ownFile(folder, path, baseline?.siteDir) : undefined;
      if (own !== undefined) {
        // Marked as not written yet: a write gives it this build's time (see `unwrittenInPlace`).
        utimesSync(join(siteDir, path), own.atime, 0);
        inPlace[kind].push(page);
        continue;
      }
      if (index >= pages || render[kind][index] === 1) {
        if (index < oldPages) remove(path);
        if (index >= pages && kind === 'html') rmSync(join(siteDir, dirname(path)), { recursive: true, force: true });
        continue;
      }
      const rendered = baseline?.rendered?.[kind];
      const stale = rendered === undefined || index >= rendered.length || rendered[index] === 1 || index >= oldPages;
      if (stale) relink(path, index < oldPages);
    }
    await turnEvery(index + 1);
  }
  return { touched, inPlace };
}

/**
 * The first of the pages left in place that was not written again, its time still the mark
 * `preparePages` gave it: such a page (never, while Astro writes every page it renders) would
 * otherwise be published with an earlier build's bytes.
 */
export function unwrittenInPlace(siteDir: string, inPlace: PagesInPlace): string | undefined {
  const paths = [...inPlace.json.map((page) => pageFile(page)), ...inPlace.html.map((page) => htmlPageFile(page))];
  return paths.find((path) => statSync(join(siteDir, path)).mtimeMs === 0);
}

/** The site paths of the pages a build took (did not render): they are the published files. */
export function takenPages(render: RenderSet): Set<string> {
  const taken = new Set<string>();
  for (let index = 0; index < render.json.length; index += 1) {
    if (render.json[index] === 0) taken.add(pageFile(index + 1));
    if (render.html[index] === 0 && index > 0) taken.add(htmlPageFile(index + 1));
  }
  return taken;
}
