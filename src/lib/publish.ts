/**
 * Atomic publication of a build: the site is built into a fresh folder beside `dist/` and only
 * swapped in once complete, so a failed or killed build leaves the last good site in place.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

const STAGING_PREFIX = '.staging-';
const RETIRED_PREFIX = '.retired-';

/** A new empty folder beside `distDir`, on the same file system so the swap is a rename. */
export function createStagingDir(distDir: string): string {
  const parent = dirname(resolve(distDir));
  recoverInterruptedSwap(distDir);
  for (const entry of readdirSync(parent)) {
    if (entry.startsWith(`${STAGING_PREFIX}${basename(distDir)}-`)) rmSync(join(parent, entry), { recursive: true, force: true });
  }
  const staging = mkdtempSync(join(parent, `${STAGING_PREFIX}${basename(distDir)}-`));
  // mkdtemp makes the folder private; a published site must be readable by the web server.
  chmodSync(staging, 0o755);
  return staging;
}

/** Replaces `distDir` with the finished `stagingDir`. */
export function publish(stagingDir: string, distDir: string): void {
  const target = resolve(distDir);
  const retired = join(dirname(target), `${RETIRED_PREFIX}${basename(target)}`);
  rmSync(retired, { recursive: true, force: true });
  if (existsSync(target)) renameSync(target, retired);
  renameSync(stagingDir, target);
  rmSync(retired, { recursive: true, force: true });
}

/** Drops a staging folder after a failed build. */
export function discard(stagingDir: string): void {
  rmSync(stagingDir, { recursive: true, force: true });
}

/** A build killed between the two renames of `publish` leaves the old site retired: bring it back. */
function recoverInterruptedSwap(distDir: string): void {
  const target = resolve(distDir);
  const retired = join(dirname(target), `${RETIRED_PREFIX}${basename(target)}`);
  if (!existsSync(target) && existsSync(retired)) renameSync(retired, target);
  else rmSync(retired, { recursive: true, force: true });
}

/** Writes generated files under `dir`, creating folders as needed. */
export function writeFiles(dir: string, files: readonly { path: string; content: string }[]): void {
  for (const file of files) {
    const target = join(dir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}
