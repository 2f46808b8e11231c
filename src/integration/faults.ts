/**
 * The machine's own faults, as a maintainer reads them: a full disk, a read-only or unwritable
 * folder, a folder that vanished while the build ran. Each is one message naming the folder, the
 * cause and what to do, never a stack trace; whatever else fails is a bug and keeps its trace.
 * The integration's own steps and the build command (scripts/build.ts, for Astro's own page
 * writes) both ask `faultMessage`.
 */
import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Config } from '../config.ts';
import { storeDirOf } from '../publish/store.ts';
import { unchangedSite } from './refusals.ts';

interface Cause {
  cause: string;
  remedy: string;
  /** Whether the folder itself went (then choosing another is no remedy, and what was published may have gone with it). */
  vanished?: true;
}

const CAUSES: Record<string, Cause> = {
  ENOSPC: { cause: 'the disk is full', remedy: 'Free some space on the disk that holds it' },
  EDQUOT: { cause: 'the disk quota is used up', remedy: 'Free some space under your quota' },
  EROFS: { cause: 'its file system is read-only', remedy: 'Make it writable (mount it read-write)' },
  EACCES: { cause: 'permission denied', remedy: 'Give the user running the build write access to it' },
  EPERM: { cause: 'the operation is not permitted there', remedy: 'Give the user running the build write access to it' },
  EIO: { cause: 'the disk reported an input/output error', remedy: 'Check the disk (it may be failing or disconnected)' },
  ENOENT: {
    cause: 'the folder vanished while the build ran (deleted, moved, or its disk unmounted)',
    remedy: 'Check that it is there',
    vanished: true,
  },
  ENOTDIR: {
    cause: 'the folder vanished while the build ran (something else took its name)',
    remedy: 'Check that it is a folder',
    vanished: true,
  },
};

/** A folder a build writes to, and what it is for the maintainer. */
export interface BuildFolderRole {
  dir: string;
  role: string;
  /** Another way out, where the maintainer chooses the folder (`or set OUT_DIR to …`). */
  instead?: string;
}

/** The folders a build writes to, most specific first. */
export function buildFolders(config: Pick<Config, 'outDir' | 'deployDir'>, root: string, cacheDir: string): BuildFolderRole[] {
  return [
    { dir: storeDirOf(config.outDir), role: 'the build store beside OUT_DIR', instead: 'or set OUT_DIR to a folder on another disk' },
    { dir: cacheDir, role: "the project's cache" },
    { dir: dirname(resolve(config.outDir)), role: 'the folder of OUT_DIR', instead: 'or set OUT_DIR to a folder on another disk' },
    { dir: dirname(resolve(config.deployDir)), role: 'the folder of DEPLOY_DIR', instead: 'or set DEPLOY_DIR to a folder on another disk' },
    // Astro keeps its own files in the project (`.astro/`).
    { dir: root, role: 'the project folder' },
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
    if (code === 'ENOENT' || code === 'ENOTDIR') return !existsSync(dir) || unwritable(dir) !== undefined;
    return unwritable(dir) === code;
  } catch {
    // A folder whose disk cannot even be looked at does not show this fault: the next folder is asked.
    return false;
  }
}

/** Why `dir` cannot be written, as an error code, or undefined where it can. */
function unwritable(dir: string): string | undefined {
  try {
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

/** The folder a fault happened in: the one of `folders` holding the file it names, else the one whose disk shows it. */
function faultFolder(error: NodeJS.ErrnoException, folders: readonly BuildFolderRole[]): BuildFolderRole | undefined {
  const byPath = folders.find(({ dir }) => pathsOf(error).some((path) => isInside(path, dir)));
  if (byPath) return byPath;
  const code = error.code ?? '';
  const showing = folders.find(({ dir }) => showsFault(dir, code));
  if (showing) return showing;
  const [named] = pathsOf(error);
  return named === undefined ? folders[0] : { dir: dirname(named), role: 'a folder of the build' };
}

const pathsOf = (error: NodeJS.ErrnoException): string[] =>
  [error.path, (error as { dest?: string }).dest].filter((path): path is string => typeof path === 'string').map((path) => resolve(path));

/**
 * The fault's real cause. Node reports a recursive mkdir on a read-only disk as ENOENT, so a
 * missing file is first taken as the folder's own fault where it cannot be written; it is a
 * vanished folder only where the folder, or the one the file was in, is gone. Else it is no fault
 * of the machine (a bug, with its trace): undefined.
 */
function causeCode(error: NodeJS.ErrnoException, folder: BuildFolderRole): string | undefined {
  const code = error.code ?? '';
  if (code !== 'ENOENT' && code !== 'ENOTDIR') return code;
  if (!existsSync(folder.dir)) return code;
  const cannotWrite = unwritable(folder.dir);
  if (cannotWrite !== undefined && cannotWrite in CAUSES && cannotWrite !== 'ENOENT') return cannotWrite;
  return pathsOf(error).some((path) => !existsSync(dirname(path))) ? code : undefined;
}

/**
 * The name of the error a Rust tool (rolldown, Vite's bundler) reports only by the system's number,
 * `(os error 28)`: this platform's own numbering (`os.constants.errno`: EDQUOT is 122 on Linux, 69
 * on macOS). Windows' numbers there are its own system errors (112: the disk is full), not errno
 * values: none is named, and the error keeps its trace.
 */
function osErrorName(number: number): string | undefined {
  if (process.platform === 'win32') return undefined;
  return Object.entries(osConstants.errno).find(([, value]) => value === number)?.[0];
}

/** A file-system error told only in a message: Node's from a worker thread (`ENOSPC: no space left…, open '…'`) or a Rust tool's. */
function errorInMessage(message: string): NodeJS.ErrnoException | undefined {
  const node = /^(E[A-Z]+): .*?, \w+ '([^']+)'/m.exec(message) ?? /^(E[A-Z]+): /m.exec(message);
  const os = /\(os error (\d+)\)/.exec(message);
  const code = node?.[1] ?? (os ? osErrorName(Number(os[1])) : undefined);
  if (code === undefined || !(code in CAUSES)) return undefined;
  const named = /(?:file|directory|folder) (?:in|at) (\S+)/.exec(message)?.[1];
  const path = node?.[2] ?? (named !== undefined && isAbsolute(named) ? named : undefined);
  return Object.assign(new Error(message), { code, ...(path !== undefined && { path }) });
}

/**
 * The fault of the machine (a file-system error of the kinds above) in `error`, if it is one
 * (itself, its cause or the errors it gathers, as Astro and Vite wrap them): anything else is a bug.
 */
export function machineFault(error: unknown, depth = 0): NodeJS.ErrnoException | undefined {
  if (!(error instanceof Error) || depth > 5) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && code in CAUSES) return error as NodeJS.ErrnoException;
  const gathered = (error as { errors?: unknown }).errors;
  for (const inner of [error.cause, ...(Array.isArray(gathered) ? gathered : [])]) {
    const found = machineFault(inner, depth + 1);
    if (found) return found;
  }
  return errorInMessage(error.message);
}

/**
 * The message for `error` if it is a fault of the machine (a full disk, a read-only or unwritable
 * folder, one that vanished), else undefined. `doing` says what the build was doing ("writing the
 * pages"); `outDir` is the published site, which a failed build leaves as it was, unless the build
 * had `published` already (a fault while closing it: pruning, the report).
 */
export function faultMessage(
  error: unknown,
  folders: readonly BuildFolderRole[],
  doing: string,
  outDir: string,
  { published = false } = {},
): string | undefined {
  const fault = machineFault(error);
  if (!fault) return undefined;
  const folder = faultFolder(fault, folders);
  const code = folder && causeCode(fault, folder);
  if (!folder || code === undefined || !(code in CAUSES)) return undefined;
  const { cause, remedy, vanished } = CAUSES[code]!;
  const instead = folder.instead === undefined || vanished ? '' : `, ${folder.instead}`;
  // What vanished may have held the published build: then it is not "unchanged", only not replaced.
  const outcome = published
    ? `This build was published: ${outDir}/ shows it; only what follows publication did not finish.`
    : vanished
      ? 'Nothing was published by this build.'
      : unchangedSite(outDir);
  return [
    `The build stopped while ${doing}: ${displayed(folder.dir)} (${folder.role}): ${cause} (${code}).`,
    `${remedy}${instead}, then build again. ${outcome}`,
  ].join('\n');
}

/** The folders a build of the project in `root` writes to, with Astro's default cache folder. */
export const projectBuildFolders = (config: Pick<Config, 'outDir' | 'deployDir'>, root: string) =>
  buildFolders(config, root, join(root, 'node_modules/.astro'));
