/**
 * The copy of the site hosts want inside their own folders (Vercel's Build Output API reads the
 * site from `.vercel/output/static`), as hard links. It lives in the build's own folder, so it is
 * published with the site (see `refreshCopy` for how it is brought up to the new site).
 */
import { existsSync, linkSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { namesFile } from '../data/links.ts';
import { removeIfEmpty } from './site-files.ts';

/**
 * Brings a copy made for an earlier site (a recycled build's, see store.ts) up to `siteDir`: each
 * of `paths` is linked again from the site, or removed where the site no longer has it; one that
 * is the site's file already (a page written in place, see src/publish/reuse.ts) is left. The
 * copy's other files are the site's already. Where there is no copy yet (a new build folder), each
 * path is linked into a new one: nothing there to remove first, and each folder made once.
 */
export function refreshCopy(siteDir: string, paths: Iterable<string>, target: string): void {
  const fresh = !existsSync(target);
  const made = new Set<string>();
  for (const path of paths) {
    const to = join(target, path);
    const folder = dirname(to);
    if (!fresh) {
      const page = lstatSync(join(siteDir, path), { bigint: true, throwIfNoEntry: false });
      if (page !== undefined && namesFile(to, page)) continue;
      rmSync(to, { force: true });
    } else if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    // Gone from the site: so is its folder, where that held only it (a page past the new count).
    if (!linkInto(join(siteDir, path), to) && removeIfEmpty(folder)) made.delete(folder);
  }
}

/** Links `from` at `to`, making `to`'s folder where it is missing; false where `from` is not there (gone from the site). */
function linkInto(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (!existsSync(from)) return false;
  }
  mkdirSync(dirname(to), { recursive: true });
  linkSync(from, to);
  return true;
}
