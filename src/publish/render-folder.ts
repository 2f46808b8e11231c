/**
 * Where Astro renders a build's pages. Astro moves the assets of its pages into the site by
 * renaming them from a folder inside the project (`.astro/`, when the site is outside it), and a
 * rename cannot cross file systems (EXDEV). So where the build store is on another file system than
 * the project (a web root on its own disk, a Docker volume, an NFS mount), Astro renders into a
 * folder of the project's cache instead, and the build copies what it rendered into the build's
 * site: what Astro rendered, which is what changed, never a file per page.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { ifPresent } from '../files/missing.ts';
import { isRenamedForRemoval, removeInBackground, renamedForRemoval } from '../files/removal.ts';
import type { BuildFolder } from './store.ts';

const RENDERING = 'rendering';

/**
 * The folder Astro renders the build in `folder` into: the build's own site where the store shares
 * the project's file system (so it can take renames from inside the project), else a folder under
 * `cacheDir` (which is inside the project).
 */
export function renderFolderFor(
  folder: BuildFolder,
  { store, projectRoot, cacheDir }: { store: string; projectRoot: string; cacheDir: string },
): string {
  return statSync(store).dev === statSync(projectRoot).dev ? folder.siteDir : join(cacheDir, RENDERING, folder.id);
}

/**
 * Removes, in the background, what builds killed part way left rendering and the render folders of
 * earlier builds whose removal was stopped (called under the build lock: no build is rendering).
 */
export function clearRenderFolders(cacheDir: string): void {
  const rendering = join(cacheDir, RENDERING);
  // No folder yet (no build has rendered outside its site here): nothing to remove.
  const names = ifPresent(() => readdirSync(rendering)) ?? [];
  const doomed = names.map((name) => (isRenamedForRemoval(name) ? join(rendering, name) : renamedForRemoval(rendering, name)));
  if (doomed.length > 0) removeInBackground(doomed);
}

/**
 * Copies every file Astro rendered into `renderDir` to the same path in `siteDir`, then removes
 * `renderDir` in the background (a folder and a file a page: removed in place, seconds of a
 * 100k-row build before it could publish). A file already at a path is replaced, never written
 * through (it may be a published file's other name). Nothing to do where Astro rendered in place.
 */
export function moveRendered(renderDir: string, siteDir: string): void {
  if (renderDir === siteDir) return;
  const folders = new Set<string>();
  for (const entry of readdirSync(renderDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = relative(renderDir, join(entry.parentPath, entry.name));
    const to = join(siteDir, path);
    if (!folders.has(dirname(to))) {
      mkdirSync(dirname(to), { recursive: true });
      folders.add(dirname(to));
    }
    rmSync(to, { force: true });
    copyFileSync(join(renderDir, path), to);
  }
  removeInBackground([renamedForRemoval(dirname(renderDir), basename(renderDir))]);
}
