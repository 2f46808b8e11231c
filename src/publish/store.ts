/**
 * The build store: every build is a folder beside the published site, and publishing one is a
 * single atomic rename. For OUT_DIR=dist the store is `.dist.builds/`:
 *
 *   .dist.builds/<id>/site       link to the site a build made, which is in its deploy folder
 *   .dist.builds/<id>/deploy/    its host files, and the site where a host reads it in its own
 *                                folder (Vercel's `vercel/.vercel/output/static/`)
 *   .dist.builds/<id>/build-record.v8  what the next build needs of it (see record.ts)
 *   .dist.builds/current         symbolic link to the published build's folder
 *   dist   → .dist.builds/current/site
 *   deploy → .dist.builds/current/deploy
 *
 * A build writes only inside its own new folder. Publishing renames a new `current` link over the
 * old one: the site, its host files and the record change together, or not at all,
 * whatever happens to the process. Nothing published is ever written again: an unchanged file of a
 * new build is a hard link to the published one.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { contentsOf, PAGE_FOLDERS, removeIfEmpty } from './site-files.ts';
import { htmlPageFiles } from '../listing/routes.ts';
import { KEPT_DOWNLOADS_FOLDER } from './downloads-placed.ts';
import { killPoint } from './kill-points.ts';
import { replaceAside } from './replace-aside.ts';
import { ifPresent } from '../files/missing.ts';
import { isSamePlace } from '../files/places.ts';
import { isRenamedForRemoval, removeInBackground, renamedForRemoval } from '../files/removal.ts';

const CURRENT = 'current';
/** The build published before the current one: kept, so that a reader or an upload going through `dist/` at the moment of a publication finishes. */
const PREVIOUS = 'previous';
const SITE = 'site';
const DEPLOY = 'deploy';
/** Build folders are named so that they sort by time; `.` starts the names of everything else. */
const BUILD_NAME = /^[0-9a-z]{9,}-[0-9a-f]{8}$/;

/** Where the builds of the site published at `outDir` are kept. */
export function storeDirOf(outDir: string): string {
  const target = resolve(outDir);
  return join(dirname(target), `.${basename(target)}.builds`);
}

/** One build's folder and what it holds. */
export type BuildFolder = ReturnType<typeof folderOf>;

function folderOf(store: string, id: string) {
  const dir = join(store, id);
  return { id, dir, siteDir: join(dir, SITE), deployDir: join(dir, DEPLOY) };
}

const newId = () => `${Date.now().toString(36).padStart(9, '0')}-${randomBytes(4).toString('hex')}`;

/**
 * Makes `name` in `folder` a link to `target`, a path inside `folder`: relative, so that the
 * store can move, but on Windows, whose junctions hold absolute paths.
 */
function linkInside(folder: string, name: string, target: string): void {
  linkFolder(process.platform === 'win32' ? target : relative(folder, target), join(folder, name));
}

/**
 * A new, empty build folder in `store`. Its site is the folder at `sitePlace` in its deploy folder
 * (where a host reads the site in its own folder: Vercel's Build Output), `site` a link to it: the
 * site is never copied for a host.
 */
export function newBuildFolder(store: string, sitePlace: string): BuildFolder {
  const folder = folderOf(store, newId());
  mkdirSync(join(folder.deployDir, sitePlace), { recursive: true });
  linkInside(folder.dir, SITE, join(folder.deployDir, sitePlace));
  return folder;
}

/**
 * The folder of the build published before the current one, renamed as a new build's folder and
 * cleared of everything but its site's pages and its search index, so that a build costs what
 * changed rather than a link per file: see reuse.ts for how its pages are then made the published
 * ones, downloads-placed.ts for its search index. Its site is at `sitePlace` in its deploy folder,
 * as `newBuildFolder` makes it. Undefined where there is none, or its site is not there (a folder
 * of an earlier version of the build). That build is no longer kept for readers once a new build
 * starts: it served the instant of the last publication.
 */
export function recycledBuildFolder(store: string, sitePlace: string): BuildFolder | undefined {
  const previous = buildNamed(join(store, PREVIOUS));
  if (previous === undefined || previous === buildNamed(join(store, CURRENT))) return undefined;
  const from = folderOf(store, previous);
  const site = join(from.deployDir, sitePlace);
  if (linkTarget(from.siteDir) !== site || !existsSync(site)) return undefined;
  const folder = folderOf(store, newId());
  renameSync(from.dir, folder.dir);
  // The site keeps its pages; the rest of the deploy folder is written anew.
  const keptSite = join(folder.dir, 'site.kept');
  renameSync(join(folder.deployDir, sitePlace), keptSite);
  for (const entry of readdirSync(folder.dir))
    if (entry !== basename(keptSite)) rmSync(join(folder.dir, entry), { recursive: true, force: true });
  mkdirSync(dirname(join(folder.deployDir, sitePlace)), { recursive: true });
  renameSync(keptSite, join(folder.deployDir, sitePlace));
  linkInside(folder.dir, SITE, join(folder.deployDir, sitePlace));
  keepPagesAndSearchIndex(folder.siteDir);
  return folder;
}

/** What a recycled folder keeps: the page folders (named by the route table) and the search index's (see downloads-placed.ts). */
const KEPT_FOLDERS = new Set([...PAGE_FOLDERS, KEPT_DOWNLOADS_FOLDER]);
/** And the pages outside them: the home page of each language. */
const KEPT_FILES = new Set(htmlPageFiles(1));

/** Removes every file and folder of a site but its pages and its search index (`KEPT_FOLDERS`, `KEPT_FILES`). */
function keepPagesAndSearchIndex(siteDir: string): void {
  // The kept folders and what they hold are not walked (a folder per HTML page: 100,000 at 1M rows).
  const { files, folders } = contentsOf(siteDir, KEPT_FOLDERS);
  for (const path of files) if (!KEPT_FILES.has(path)) rmSync(join(siteDir, path), { force: true });
  // Then the folders left empty, deepest first; the page folders' parents keep them.
  for (const folder of folders.reverse()) removeIfEmpty(join(siteDir, folder));
}

/**
 * Where the link `link` points, as an absolute path; undefined where there is none, or it is not a
 * link (a folder of someone's: see `notALink`). A symbolic link holds a relative path here (so the
 * checkout can move); a Windows junction, an absolute one.
 */
function linkTarget(link: string): string | undefined {
  let target: string;
  try {
    target = readlinkSync(link);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EINVAL') return undefined;
    throw error;
  }
  return resolve(dirname(link), target.replace(/^\\\\\?\\/, ''));
}

/** The id of the build a link of the store (`current`, `previous`) names, if it names one. */
function buildNamed(link: string): string | undefined {
  const target = linkTarget(link);
  return target !== undefined && BUILD_NAME.test(basename(target)) && isSamePlace(dirname(target), dirname(link))
    ? basename(target)
    : undefined;
}

/**
 * Whether the link `link` points at `target` (the path itself, not where it leads), as the disk
 * compares names: a link made when OUT_DIR was written `Dist` names `.Dist.builds`, the same folder
 * as `.dist.builds` where the disk ignores case.
 */
function pointsAt(link: string, target: string): boolean {
  const current = linkTarget(link);
  return current !== undefined && isSamePlace(current, target);
}

/**
 * The published build, if `outDir` shows one of this store's builds: the site a maintainer sees
 * is what counts (a deleted `dist/` means nothing is published, whatever the store holds).
 */
export function publishedBuild(store: string, outDir: string): BuildFolder | undefined {
  const id = buildNamed(join(store, CURRENT));
  if (id === undefined || !pointsAt(resolve(outDir), join(store, CURRENT, SITE))) return undefined;
  const folder = folderOf(store, id);
  return existsSync(folder.siteDir) ? folder : undefined;
}

/** Whether `deployDir` shows the published build's host files (it is the link a publication makes). */
export const showsPublishedDeploy = (store: string, deployDir: string): boolean =>
  pointsAt(resolve(deployDir), join(store, CURRENT, DEPLOY));

/**
 * A link to a folder: a symbolic link, or on Windows a junction (which needs no privilege there,
 * where a symbolic link does; Node makes its target absolute).
 */
const linkFolder = (target: string, path: string) => symlinkSync(target, path, process.platform === 'win32' ? 'junction' : 'dir');

/**
 * Points `link` at `target` atomically: a new link renamed over the old one. Windows cannot rename
 * a junction over another: there the old one is removed first, an instant where `link` is missing
 * (a build killed in it leaves no published build, as a first build does; docs/architecture.md, Publication).
 */
function pointAt(link: string, target: string): void {
  try {
    replaceAside(link, (aside) => linkFolder(target, aside));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (process.platform !== 'win32' || (code !== 'EPERM' && code !== 'EEXIST' && code !== 'EISDIR')) throw error;
    rmSync(link, { force: true });
    replaceAside(link, (aside) => linkFolder(target, aside));
  }
}

/**
 * Makes `path` a link to `target` (relative, so the checkout can move) if it is not one already.
 * An empty folder there (made for the site ahead of a first build) goes first; a folder with files
 * was refused before the build began (`notALink`).
 */
function ensureLink(path: string, target: string): void {
  if (pointsAt(path, resolve(target))) return;
  if (lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) rmdirSync(path);
  mkdirSync(dirname(path), { recursive: true });
  pointAt(path, relative(dirname(path), target));
}

/**
 * Why `path` (OUT_DIR or DEPLOY_DIR, named `name`) cannot become the link a build publishes
 * through, or undefined where it can: a folder with files in it is someone's, and is never
 * replaced or removed.
 */
export function notALink(path: string, name: string): string | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  const remedy = `Move it away, or set ${name} to a path that does not exist yet (or is an empty folder), then build again.`;
  if (stats === undefined || stats.isSymbolicLink()) return undefined;
  if (!stats.isDirectory()) {
    return `${name}=${path} is a file, not a folder; a build publishes by making ${name} a link to the build it publishes, and never replaces a file. ${remedy}`;
  }
  const parent = statSync(dirname(resolve(path)));
  // A disk mounted at the folder itself (a Docker volume, a tmpfs): the folder cannot be replaced by a link.
  if (parent.dev !== stats.dev) {
    return `${name}=${path} is where a file system is mounted (a disk, a volume); a build publishes by making ${name} a link to the build it publishes, which cannot replace a mount point. Set ${name} to a path inside it (e.g. ${join(path, 'site')}), then build again.`;
  }
  if (readdirSync(path).length === 0) return undefined;
  return `${name}=${path} is a folder with files in it; a build publishes by making ${name} a link to the build it publishes, and never replaces a folder that holds files. ${remedy}`;
}

/**
 * Publishes `build`: from this instant `outDir` and `deployDir` show its site and host files. The
 * one step that matters is the rename of `current`; the links `outDir` and `deployDir` already
 * point through it, except on a first build (or after they were deleted), when they are made after
 * it, in an instant where nothing was published anyway.
 */
export function publish(store: string, build: BuildFolder, outDir: string, deployDir: string): void {
  const before = buildNamed(join(store, CURRENT));
  pointAt(join(store, CURRENT), build.id);
  killPoint('current renamed');
  if (before !== undefined && before !== build.id) pointAt(join(store, PREVIOUS), before);
  ensureLink(resolve(outDir), join(store, CURRENT, SITE));
  ensureLink(resolve(deployDir), join(store, CURRENT, DEPLOY));
}

/**
 * Removes every build folder but the published one and the one before it: folders of builds that
 * were killed part way (removing a name never changes a file: the pages such a build linked from
 * the published site stay there), and older publications. Called under
 * the build lock, so no other build is under way. Renamed first (a name no build looks at), then
 * removed by a detached process, so that deleting a large old site does not hold up the build.
 */
export function pruneBuilds(store: string): void {
  const kept = new Set([buildNamed(join(store, CURRENT)), buildNamed(join(store, PREVIOUS))]);
  const entries = ifPresent(() => readdirSync(store));
  // No store yet (a first build): nothing to prune.
  if (entries === undefined) return;
  const doomed: string[] = [];
  for (const name of entries) {
    const path = join(store, name);
    if (BUILD_NAME.test(name) && !kept.has(name)) doomed.push(renamedForRemoval(store, name));
    else if (isRenamedForRemoval(name) || (name.endsWith('.tmp') && olderThanAMinute(path))) doomed.push(path);
  }
  if (doomed.length > 0) removeInBackground(doomed);
}

function olderThanAMinute(path: string): boolean {
  // Gone meanwhile (removed by the build that wrote it): nothing to remove.
  const stats = ifPresent(() => lstatSync(path));
  return stats !== undefined && stats.mtimeMs < Date.now() - 60_000;
}

/**
 * Host files name the site by a path relative to themselves (`../../dist` from
 * `deploy/cloudflare/`). Read through the `deploy` link that path is `dist/`; read from the build's
 * real folder, as a host's CLI does once it has resolved its working folder, it is a name inside
 * the build's folder, which this link makes the build's own site. (Only where the site and the
 * deploy folder share a parent folder, as by default.)
 */
export function linkSiteForHostFiles(build: BuildFolder, outDir: string, deployDir: string): void {
  const name = basename(resolve(outDir));
  // Compared as the disk compares names: OUT_DIR=Site is the build's own site folder where the disk ignores case.
  const inBuild = join(build.dir, name);
  if (
    !isSamePlace(dirname(resolve(outDir)), dirname(resolve(deployDir))) ||
    isSamePlace(inBuild, build.siteDir) ||
    isSamePlace(inBuild, build.deployDir)
  )
    return;
  linkInside(build.dir, name, build.siteDir);
}

/**
 * Removes a build folder (a build that did not publish it): renamed at once, deleted in the
 * background, so that a build stopped by bad data says so without first deleting a recycled
 * folder's pages (seconds at a million rows). Never the published one, whatever the caller
 * believes: a build that failed just after the rename of `current` (making a link of its first
 * publication, say) did publish.
 */
export function discardBuild(build: BuildFolder): void {
  const store = dirname(build.dir);
  if (buildNamed(join(store, CURRENT)) === build.id) return;
  // Not there: nothing to remove. A thread of the build stopped an instant ago may still make a
  // folder at the old name; the next build's pruneBuilds removes it, as it does a killed build's.
  const doomed = ifPresent(() => renamedForRemoval(store, basename(build.dir)));
  if (doomed !== undefined) removeInBackground([doomed]);
}
