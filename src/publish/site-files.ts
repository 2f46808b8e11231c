/** The files of a built site, listed without walking 100,000 page folders. */
import { readdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HTML_PAGE_FOLDERS, htmlPageFiles, pageFile } from '../listing/routes.ts';

/**
 * Site paths (`/`-separated) of every file and every folder under `dir` (parents before their
 * children), except the folders `skip` names and what they hold.
 */
export function contentsOf(dir: string, skip: ReadonlySet<string>): { files: string[]; folders: string[] } {
  const files: string[] = [];
  const folders: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(dir, folder), { withFileTypes: true })) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isFile()) files.push(path);
      else if (entry.isDirectory() && !skip.has(path)) {
        folders.push(path);
        walk(path);
      }
    }
  };
  walk('');
  return { files, folders };
}

/** Removes `folder` where it is empty. */
export function removeIfEmpty(folder: string): void {
  try {
    rmdirSync(folder);
  } catch (error) {
    // Not empty: what it holds keeps it.
    if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
  }
}

/** The sizes of `files` (site paths) in `dir`, added up. */
export function bytesOf(dir: string, files: Iterable<string>): number {
  let bytes = 0;
  for (const path of files) bytes += statSync(join(dir, path)).size;
  return bytes;
}

/** The folders that hold nothing but pages, named by the route table: `page/` (one a language), the JSON pages' folder. */
export const PAGE_FOLDERS = new Set([...HTML_PAGE_FOLDERS, dirname(pageFile(1))]);

/**
 * Every file of a built site of `pages` pages (site paths): its pages, named by the route table,
 * and the few dozen others (assets, downloads, host files) found by walking every folder but the
 * page folders.
 */
export function siteFilesOf(dir: string, pages: number): string[] {
  const { files } = contentsOf(dir, PAGE_FOLDERS);
  for (let page = 1; page <= pages; page += 1) {
    files.push(pageFile(page));
    // Page 1's HTML, the home page, is not in a page folder: the walk found it.
    if (page > 1) files.push(...htmlPageFiles(page));
  }
  return files;
}
