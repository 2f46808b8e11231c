/**
 * Copies of the site that hosts want inside their own folders: Vercel's Build Output API reads the
 * site from `.vercel/output/static`. Made whole from the new site with hard links (no space, little
 * time) in the build's own folder, so it is published with the site and is never a delta of an
 * earlier copy.
 */
import { linkSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

export async function linkSiteInto(siteDir: string, files: readonly string[], target: string): Promise<void> {
  const folders = new Set<string>();
  for (const [index, path] of files.entries()) {
    const to = join(target, path);
    const folder = dirname(to);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    linkSync(join(siteDir, path), to);
    // Lets the build lock's timer run (see lock.ts) through a million links.
    if (index % 5000 === 4999) await new Promise((resolve) => setImmediate(resolve));
  }
}
