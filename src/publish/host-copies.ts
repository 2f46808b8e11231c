/**
 * Hard-linked copies of files: the pages a build keeps, and the copies of the site hosts want
 * inside their own folders (Vercel's Build Output API reads the site from `.vercel/output/static`).
 * A copy lives in the build's own folder, so it is published with the site: made whole from the
 * new site, or, in a recycled folder, brought up to it from the copy that folder already holds.
 */
import { existsSync, linkSync, mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Hard-links each of `files` (site paths) from `siteDir` into `target`, making folders as needed. */
export async function linkFiles(siteDir: string, files: Iterable<string>, target: string): Promise<void> {
  const folders = new Set<string>();
  let index = 0;
  for (const path of files) {
    index += 1;
    const to = join(target, path);
    const folder = dirname(to);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    linkSync(join(siteDir, path), to);
    // Lets the build lock's timer run (see lock.ts) through a million links.
    if (index % 5000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Brings a copy made for an earlier site (a recycled build's, see store.ts) up to `siteDir`: each
 * of `paths` is linked again from the site, or removed where the site no longer has it. The
 * copy's other files are the site's already.
 */
export async function refreshCopy(siteDir: string, paths: Iterable<string>, target: string): Promise<void> {
  let count = 0;
  for (const path of paths) {
    const to = join(target, path);
    rmSync(to, { force: true });
    try {
      linkSync(join(siteDir, path), to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !existsSync(join(siteDir, path))) {
        // Gone from the site: so is its folder, where that held only it (a page past the new count).
        try {
          rmdirSync(dirname(to));
        } catch {
          // Not empty.
        }
        continue;
      }
      if (code !== 'ENOENT') throw error;
      mkdirSync(dirname(to), { recursive: true });
      linkSync(join(siteDir, path), to);
    }
    count += 1;
    if (count % 5000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}
