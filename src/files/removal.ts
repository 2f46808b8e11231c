/**
 * Folders removed without waiting: renamed at once (no reader meets half of one, and the name is
 * free again), then deleted by a detached process. Deleting a build folder or a cached preparation
 * takes seconds at a million rows; the build goes on meanwhile, and a removal stopped part way
 * leaves its renamed folder for a later one to remove again.
 */
import { spawn } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';

/** The start of the name of a folder renamed for removal: no build looks at such a name. */
const TRASH = '.trash-';

/** Renames `name` in `dir` for removal (see `removeInBackground`); returns its new path. */
export function renamedForRemoval(dir: string, name: string): string {
  const trash = join(dir, `${TRASH}${name}`);
  renameSync(join(dir, name), trash);
  return trash;
}

/** A folder renamed for removal whose removal was stopped part way: a later build dooms it again. */
export const isRenamedForRemoval = (name: string): boolean => name.startsWith(TRASH);

/** Removes `paths` (each renamed by `renamedForRemoval`) in a detached process, the build not waiting for it. */
export function removeInBackground(paths: readonly string[]): void {
  const script = 'for (const path of process.argv.slice(1)) require("node:fs").rmSync(path, { recursive: true, force: true })';
  spawn(process.execPath, ['-e', script, ...paths], { detached: true, stdio: 'ignore' }).unref();
}
