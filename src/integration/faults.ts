/**
 * The machine's own faults, as a maintainer reads them: a full disk, a read-only or unwritable
 * folder, a folder that vanished while the build ran. Each is one message naming the folder, the
 * cause and what to do, never a stack trace; whatever else fails is a bug and keeps its trace.
 * The integration's own steps and the build command (scripts/build.ts, for Astro's own page
 * writes) both ask `faultMessage`.
 */
import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Config } from '../config.ts';
import { storeDirOf } from '../publish/store.ts';

interface Cause {
  /** What went wrong, in words. */
  cause: string;
  /** What the maintainer can do about it. */
  remedy: string;
}

const CAUSES: Record<string, Cause> = {
  ENOSPC: { cause: 'the disk is full', remedy: 'Free some space on the disk that holds it (or set OUT_DIR to a folder on a disk with room)' },
  EDQUOT: { cause: 'the disk quota is used up', remedy: 'Free some space under your quota (or set OUT_DIR to a folder on another disk)' },
  EROFS: { cause: 'its file system is read-only', remedy: 'Make it writable (mount it read-write) or set OUT_DIR to a writable folder' },
  EACCES: { cause: 'permission denied', remedy: 'Give the user running the build write access to it, or set OUT_DIR to a folder you can write' },
  EPERM: { cause: 'the operation is not permitted there', remedy: 'Give the user running the build write access to it, or set OUT_DIR to a folder you can write' },
  EIO: { cause: 'the disk reported an input/output error', remedy: 'Check the disk (it may be failing or disconnected)' },
  ENOENT: { cause: 'the folder vanished while the build ran (deleted, moved, or its disk unmounted)', remedy: 'Check that it is there' },
  ENOTDIR: { cause: 'the folder vanished while the build ran (something else took its name)', remedy: 'Check that it is a folder' },
};

/** A folder a build writes to, and what it is for the maintainer. */
export interface BuildFolderRole {
  dir: string;
  role: string;
}

/** The folders a build writes to, most specific first. */
export function buildFolders(config: Pick<Config, 'outDir' | 'deployDir'>, cacheDir: string): BuildFolderRole[] {
  return [
    { dir: storeDirOf(config.outDir), role: 'the build store beside OUT_DIR' },
    { dir: cacheDir, role: "the project's cache" },
    { dir: dirname(resolve(config.outDir)), role: 'the folder of OUT_DIR' },
    { dir: dirname(resolve(config.deployDir)), role: 'the folder of DEPLOY_DIR' },
  ];
}

const isInside = (path: string, dir: string) => {
  const rest = relative(dir, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
};

const displayed = (dir: string) => {
  const rest = relative(process.cwd(), dir);
  return rest === '' ? '.' : rest.startsWith(`..${sep}`) || rest === '..' || isAbsolute(rest) ? dir : rest;
};

/** Whether `dir`'s disk shows the fault `code` now (the error named no file: Astro's writes, a worker's). */
function showsFault(dir: string, code: string): boolean {
  try {
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      const disk = statfsSync(dir);
      return disk.bavail * disk.bsize < 1024 * 1024;
    }
    if (code === 'ENOENT' || code === 'ENOTDIR') return !existsSync(dir);
    accessSync(dir, constants.W_OK);
    return false;
  } catch (error) {
    return code !== 'ENOENT' && (error as NodeJS.ErrnoException).code === code;
  }
}

/** The folder a fault happened in: the one of `folders` holding the file it names, else the one whose disk shows it. */
function faultFolder(error: NodeJS.ErrnoException, folders: readonly BuildFolderRole[]): BuildFolderRole | undefined {
  const paths = [error.path, (error as { dest?: string }).dest].filter((path): path is string => typeof path === 'string').map((path) => resolve(path));
  const byPath = folders.find(({ dir }) => paths.some((path) => isInside(path, dir)));
  if (byPath) return byPath;
  const code = error.code ?? '';
  const showing = folders.find(({ dir }) => showsFault(dir, code));
  if (showing) return showing;
  // A vanished folder is a fault only where a folder did vanish; else it is a bug, with its trace.
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  const [named] = paths;
  return named === undefined ? folders[0] : { dir: dirname(named), role: 'a folder of the build' };
}

/** The file-system error in `error` (itself, or its cause, as Astro and Vite wrap errors), if any. */
function fileSystemError(error: unknown): NodeJS.ErrnoException | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code in CAUSES) return current as NodeJS.ErrnoException;
    // A worker thread's error arrives with its code only in the message ("ENOSPC: no space left…").
    const inMessage = /^(E[A-Z]+): /.exec(current.message)?.[1];
    if (inMessage !== undefined && inMessage in CAUSES) {
      const path = /, \w+ '([^']+)'/.exec(current.message)?.[1];
      return Object.assign(new Error(current.message), { code: inMessage, ...(path !== undefined && { path }) });
    }
  }
  return undefined;
}

/**
 * The message for `error` if it is a fault of the machine (a full disk, a read-only or unwritable
 * folder, one that vanished), else undefined. `doing` says what the build was doing ("writing the
 * pages"); `outDir` is the published site, which a failed build leaves as it was.
 */
export function faultMessage(error: unknown, folders: readonly BuildFolderRole[], doing: string, outDir: string): string | undefined {
  const fault = fileSystemError(error);
  if (!fault) return undefined;
  const folder = faultFolder(fault, folders);
  if (!folder) return undefined;
  const { cause, remedy } = CAUSES[fault.code!]!;
  return [
    `The build stopped while ${doing}: ${displayed(folder.dir)} (${folder.role}): ${cause} (${fault.code}).`,
    `${remedy}, then build again. Nothing was published: ${outDir}/ is unchanged.`,
  ].join('\n');
}

/** The project's cache folder, as Astro names it by default (`cacheDir`). */
export const defaultCacheDir = (root: string) => join(root, 'node_modules/.astro');
