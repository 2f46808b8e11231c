/**
 * Hard links where the file system allows them, copies where it does not. The build store lives
 * beside the published site (OUT_DIR), the prepared data under the project's own cache folder: a
 * web root on its own disk, a Docker volume or an NFS mount puts them on different file systems,
 * where a hard link between them cannot be made (EXDEV). Files inside the store are always linked:
 * the store is one folder on one file system.
 */
import { constants, copyFileSync, linkSync, lstatSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';

/** The errors of a hard link that a copy answers: another file system, or one without hard links (or out of them). */
const COPY_INSTEAD = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

/**
 * Makes `to` a file with `from`'s bytes: a hard link where it can be made, else a copy (a
 * copy-on-write clone where the file system has them). Says which.
 */
export function linkOrCopy(from: string, to: string): 'linked' | 'copied' {
  try {
    linkSync(from, to);
    return 'linked';
  } catch (error) {
    if (!COPY_INSTEAD.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
  copyFileSync(from, to, constants.COPYFILE_FICLONE);
  return 'copied';
}

/**
 * Whether `path` is another name of the file `file` describes (one inode; `lstat`, so a symbolic
 * link never is). As bigints: NTFS's file ids pass 2^53, where two numbers could compare equal.
 */
export function namesFile(path: string, file: BigIntStats): boolean {
  const found = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return found !== undefined && found.ino === file.ino && found.dev === file.dev;
}

/** Links site path `name` from `fromSite` into `toSite`; false where it is not there (the published site lost it: the caller copies or writes it). */
export function linkedFrom(fromSite: string, name: string, toSite: string): boolean {
  try {
    linkSync(join(fromSite, name), join(toSite, name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
