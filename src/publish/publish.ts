/**
 * Atomic publication of a build: the site is built into a fresh folder beside `dist/` and only
 * swapped in once complete, so a failed or killed build leaves the last good site in place.
 */
import { chmodSync, closeSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { basename, dirname, join, relative, resolve } from 'node:path';

const STAGING_PREFIX = '.staging-';
const RETIRED_PREFIX = '.retired-';
const SPARE_PREFIX = '.spare-';

/** Where the site replaced by a publication is kept under `id` for the next build (see page-reuse.ts). */
export function spareDirOf(distDir: string, id: string): string {
  const target = resolve(distDir);
  return join(dirname(target), `${SPARE_PREFIX}${basename(target)}-${id}`);
}

/**
 * A staging folder beside `distDir`, on the same file system so the swap is a rename: the spare
 * the last publication kept under `spareId`, where there is one (renamed first, so that a build
 * that fails discards it instead of leaving it half-changed), else a new empty folder. Other
 * spares and staging folders left by failed builds are removed.
 */
export function createStagingDir(distDir: string, spareId?: string): { dir: string; fromSpare: boolean } {
  const target = resolve(distDir);
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  recoverInterruptedSwap(distDir);
  const spare = spareId === undefined ? undefined : spareDirOf(distDir, spareId);
  // Exactly this site's: a site `dist-2` beside `dist` has folders that start the same way.
  const name = basename(target).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const staging = new RegExp(`^\\${STAGING_PREFIX}${name}-[A-Za-z0-9]{6}$`);
  const spares = new RegExp(`^\\${SPARE_PREFIX}${name}-[0-9a-f-]{36}$`);
  for (const entry of readdirSync(parent)) {
    const path = join(parent, entry);
    if (staging.test(entry)) rmSync(path, { recursive: true, force: true });
    else if (spares.test(entry) && path !== spare) removeInBackground(retire(path));
  }
  const dir = mkdtempSync(join(parent, `${STAGING_PREFIX}${basename(target)}-`));
  // mkdtemp makes the folder private; a published site must be readable by the web server.
  chmodSync(dir, 0o755);
  if (spare === undefined || !existsSync(spare)) return { dir, fromSpare: false };
  rmdirSync(dir);
  renameSync(spare, dir);
  return { dir, fromSpare: true };
}

/**
 * Replaces `distDir` with the finished `stagingDir`. The previous site is renamed aside: to
 * `spare` when given, else removed by a detached process, so deleting a large old site does not
 * hold up the build; a later build clears it too if that process was stopped.
 */
export function publish(stagingDir: string, distDir: string, spare?: string): void {
  const target = resolve(distDir);
  const parent = dirname(target);
  const retired = join(parent, `${RETIRED_PREFIX}${basename(target)}`);
  rmSync(retired, { recursive: true, force: true });
  if (existsSync(target)) renameSync(target, retired);
  renameSync(stagingDir, target);
  if (!existsSync(retired)) return;
  if (spare !== undefined) renameSync(retired, spare);
  else removeInBackground(retire(retired));
}

/** Renames a folder to be removed to a unique name, so no later build waits for its removal or collides with it. */
function retire(dir: string): string {
  const parent = dirname(dir);
  const doomed = join(parent, `${RETIRED_PREFIX}${basename(resolve(dir)).replace(/^\.(?:retired|spare)-/, '')}-${process.pid}-${Date.now()}`);
  renameSync(dir, doomed);
  return doomed;
}

function removeInBackground(dir: string): void {
  const child = spawn(process.execPath, ['-e', 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true })', dir], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
}

/** Drops a staging folder after a failed build. */
export function discard(stagingDir: string): void {
  rmSync(stagingDir, { recursive: true, force: true });
}

/**
 * A build killed between the two renames of `publish` leaves the old site retired: bring it back.
 * Old sites whose background removal was stopped are removed now.
 */
function recoverInterruptedSwap(distDir: string): void {
  const target = resolve(distDir);
  const parent = dirname(target);
  const retired = join(parent, `${RETIRED_PREFIX}${basename(target)}`);
  if (!existsSync(target) && existsSync(retired)) renameSync(retired, target);
  rmSync(retired, { recursive: true, force: true });
  // Old sites whose background removal died; a recent one may still be being removed.
  const staleBefore = Date.now() - 10 * 60_000;
  for (const entry of readdirSync(parent)) {
    const path = join(parent, entry);
    if (entry.startsWith(`${RETIRED_PREFIX}${basename(target)}-`) && statSync(path).mtimeMs < staleBefore) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

/** Writes generated files under `dir`, creating folders as needed. */
export function writeFiles(dir: string, files: readonly { path: string; content: string }[]): void {
  for (const file of files) {
    const target = join(dir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}

/** What a rebuild knows of the site it replaces, so that mirroring it needs no walk of either tree. */
export interface SiteChanges {
  /** Site paths of the new site's files that are new or whose bytes changed. */
  changed: ReadonlySet<string>;
  /** Site paths of every file of the new site, and of the site it replaced. */
  files: readonly string[];
  previousFiles: readonly string[];
}

/**
 * Mirrors the published site into `target` with hard links (a copy where the two are on different
 * file systems): Vercel's Build Output API wants the site's files inside its own folder, and links
 * cost no space and little time. Given what changed since the mirror was made, only the changed
 * files are linked again and the files the site no longer has removed; otherwise both trees are
 * walked and compared.
 */
export function linkTree(source: string, target: string, changes?: SiteChanges): void {
  if (changes && existsSync(target)) {
    const folders = new Set<string>();
    for (const path of changes.changed) {
      rmSync(join(target, path), { recursive: true, force: true });
      linkFile(join(source, path), join(target, path), folders);
    }
    const files = new Set(changes.files);
    for (const path of changes.previousFiles) {
      if (files.has(path)) continue;
      rmSync(join(target, path), { force: true });
      removeEmptyFolders(target, dirname(path));
    }
    return;
  }
  const wanted = new Set<string>();
  const folders = new Set<string>();
  for (const entry of readdirSync(source, { withFileTypes: true, recursive: true })) {
    const from = join(entry.parentPath, entry.name);
    const path = relative(source, from);
    const to = join(target, path);
    wanted.add(path);
    if (!entry.isFile()) continue;
    const existing = statOrUndefined(to);
    const original = statSync(from);
    if (existing?.ino === original.ino && existing.dev === original.dev) continue;
    rmSync(to, { recursive: true, force: true });
    linkFile(from, to, folders);
  }
  if (!existsSync(target)) mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(target, { withFileTypes: true, recursive: true })) {
    const path = relative(target, join(entry.parentPath, entry.name));
    if (!wanted.has(path)) rmSync(join(target, path), { recursive: true, force: true });
  }
}

/** Hard-links `from` at `to` (a copy across file systems), creating folders as needed (once each, given `folders`). */
export function linkFile(from: string, to: string, folders?: Set<string>): void {
  const folder = dirname(to);
  if (!folders?.has(folder)) {
    makeFolder(folder);
    folders?.add(folder);
  }
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/**
 * Creates `folder` if it is missing. A plain mkdir first: a page's parent folder (`page/`) is
 * usually there already, and a recursive mkdir costs three times as much per folder.
 */
function makeFolder(folder: string): void {
  try {
    mkdirSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') mkdirSync(folder, { recursive: true });
    else if (code !== 'EEXIST') throw error;
  }
}

/** Removes `folder` (relative to `root`) and its parents while they are empty. */
export function removeEmptyFolders(root: string, folder: string): void {
  for (let path = folder; path !== '.' && path !== ''; path = dirname(path)) {
    try {
      rmdirSync(join(root, path));
    } catch {
      return;
    }
  }
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Gives every file of the new site whose bytes are those of the site it replaces that file's
 * modification time, so `rsync -a` and `aws s3 sync` (which compare size and time) upload only
 * what changed. Returns how many files kept their time and the site paths of the others (new
 * files, or files whose bytes changed): the change report's input.
 */
export function keepUnchangedTimes(
  previousDir: string,
  stagingDir: string,
  /** Site paths known to be the published files themselves (hard links): nothing to compare. */
  linked: ReadonlySet<string> = new Set(),
  /** The new site's files (site paths), where the caller knows them; else the folder is walked. */
  files: readonly string[] = filesIn(stagingDir),
  /** Files known to be the same as the published ones or not (by their hashes), by site path. */
  known: ReadonlyMap<string, boolean> = new Map(),
): { kept: number; changed: Set<string> } {
  const changed = new Set<string>();
  let kept = 0;
  const havePrevious = existsSync(previousDir);
  for (const path of files) {
    if (havePrevious && linked.has(path)) {
      kept += 1;
      continue;
    }
    const file = join(stagingDir, path);
    if (!havePrevious || !(known.get(path) ?? sameBytes(join(previousDir, path), file))) {
      changed.add(path);
      continue;
    }
    const before = statSync(join(previousDir, path));
    utimesSync(file, before.atimeMs / 1000, before.mtimeMs / 1000);
    kept += 1;
  }
  return { kept, changed };
}

/** Site paths (`/`-separated) of every file under `dir`, except in the folders `skip` names. */
export function filesIn(dir: string, skip: ReadonlySet<string> = new Set()): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(dir, folder), { withFileTypes: true })) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skip.has(path)) walk(path);
      } else if (entry.isFile()) files.push(path);
    }
  };
  walk('');
  return files;
}

/**
 * The bytes of the new site (`files`, site paths, in `stagingDir`). Given the site it replaces
 * (its folder, files and bytes), only the files that are not the replaced site's own (hard links)
 * are measured, on both sides: a rebuild does not measure a million unchanged files.
 */
export function siteBytes(
  stagingDir: string,
  files: readonly string[],
  linked: ReadonlySet<string>,
  previous?: { dir: string; files: readonly string[]; bytes: number },
): number {
  const sizeOf = (file: string) => statOrUndefined(file)?.size ?? 0;
  let bytes = previous?.bytes ?? 0;
  for (const path of previous?.files ?? []) if (!linked.has(path)) bytes -= sizeOf(join(previous!.dir, path));
  for (const path of files) if (!previous || !linked.has(path)) bytes += sizeOf(join(stagingDir, path));
  return bytes;
}

function sameBytes(previous: string, next: string): boolean {
  let before;
  try {
    before = statSync(previous);
  } catch {
    return false;
  }
  const after = statSync(next);
  if (!before.isFile() || before.size !== after.size) return false;
  // The same file (a download linked from the same preparation) needs no reading.
  if (before.ino === after.ino && before.dev === after.dev) return true;
  return sameContent(previous, next, after.size);
}

const BLOCK = 1 << 20;
let blocks: [Buffer, Buffer] | undefined;

/** Small files read whole; large ones block by block: a million-row download is hundreds of MB. */
function sameContent(previous: string, next: string, size: number): boolean {
  if (size <= BLOCK) return readFileSync(previous).equals(readFileSync(next));
  const [a, b] = (blocks ??= [Buffer.allocUnsafe(BLOCK), Buffer.allocUnsafe(BLOCK)]);
  const [fdA, fdB] = [openSync(previous, 'r'), openSync(next, 'r')];
  try {
    for (;;) {
      const read = readSync(fdA, a, 0, BLOCK, null);
      if (readSync(fdB, b, 0, BLOCK, null) !== read) return false;
      if (read === 0) return true;
      if (!a.subarray(0, read).equals(b.subarray(0, read))) return false;
    }
  } finally {
    closeSync(fdA);
    closeSync(fdB);
  }
}
