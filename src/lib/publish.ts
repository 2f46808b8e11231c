/**
 * Atomic publication of a build: the site is built into a fresh folder beside `dist/` and only
 * swapped in once complete, so a failed or killed build leaves the last good site in place.
 */
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

const STAGING_PREFIX = '.staging-';
const RETIRED_PREFIX = '.retired-';

/** A new empty folder beside `distDir`, on the same file system so the swap is a rename. */
export function createStagingDir(distDir: string): string {
  const parent = dirname(resolve(distDir));
  mkdirSync(parent, { recursive: true });
  recoverInterruptedSwap(distDir);
  for (const entry of readdirSync(parent)) {
    if (entry.startsWith(`${STAGING_PREFIX}${basename(distDir)}-`)) rmSync(join(parent, entry), { recursive: true, force: true });
  }
  const staging = mkdtempSync(join(parent, `${STAGING_PREFIX}${basename(distDir)}-`));
  // mkdtemp makes the folder private; a published site must be readable by the web server.
  chmodSync(staging, 0o755);
  return staging;
}

/**
 * Replaces `distDir` with the finished `stagingDir`. The previous site is renamed aside and removed
 * by a detached process, so deleting a large old site does not hold up the build; a later build
 * clears it too if that process was stopped.
 */
export function publish(stagingDir: string, distDir: string): void {
  const target = resolve(distDir);
  const parent = dirname(target);
  const retired = join(parent, `${RETIRED_PREFIX}${basename(target)}`);
  rmSync(retired, { recursive: true, force: true });
  if (existsSync(target)) renameSync(target, retired);
  renameSync(stagingDir, target);
  if (!existsSync(retired)) return;
  // A unique name, so the next build's swap never waits for this removal nor collides with it.
  const doomed = `${retired}-${process.pid}-${Date.now()}`;
  renameSync(retired, doomed);
  removeInBackground(doomed);
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
    for (const path of changes.previousFiles) if (!files.has(path)) rmSync(join(target, path), { force: true });
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
    mkdirSync(folder, { recursive: true });
    folders?.add(folder);
  }
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
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
): { kept: number; changed: Set<string>; files: string[] } {
  const changed = new Set<string>();
  const files: string[] = [];
  let kept = 0;
  const havePrevious = existsSync(previousDir);
  for (const entry of readdirSync(stagingDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const path = relative(stagingDir, file).split(sep).join('/');
    files.push(path);
    if (havePrevious && linked.has(path)) {
      kept += 1;
      continue;
    }
    if (!havePrevious || !sameBytes(join(previousDir, path), file)) {
      changed.add(path);
      continue;
    }
    const before = statSync(join(previousDir, path));
    utimesSync(file, before.atimeMs / 1000, before.mtimeMs / 1000);
    kept += 1;
  }
  return { kept, changed, files };
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
  return readFileSync(previous).equals(readFileSync(next));
}
