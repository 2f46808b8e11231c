/**
 * Hard links where the file system allows them, copies where it does not. The build store lives
 * beside the published site (OUT_DIR), the prepared data under the project's own cache folder: a
 * web root on its own disk, a Docker volume or an NFS mount puts them on different file systems,
 * where a hard link between them cannot be made (EXDEV). Files inside the store are always linked:
 * the store is one folder on one file system.
 */
import { closeSync, constants, copyFileSync, linkSync, lstatSync, openSync, writeFileSync, writevSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';

/** The errors of a hard link that a copy answers: another file system, or one without hard links (or out of them). */
const COPY_INSTEAD = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

/**
 * Makes `to` a file with `from`'s bytes: a hard link where it can be made, else a copy (a
 * copy-on-write clone where the file system has them).
 */
export function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
    return;
  } catch (error) {
    if (!COPY_INSTEAD.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
  copyFileSync(from, to, constants.COPYFILE_FICLONE);
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

/**
 * Makes `file` a new file with `bytes`: the published file itself (a hard link) where `published`
 * names one with the same bytes (the caller compared their hashes), else written. A page rendered
 * again with nothing changed in it (every page, after a change of code that changes no page) then
 * costs no write and no disk, and the file stays the published one, with its time, for uploaders
 * (see src/publish/file-times.ts). A file already at `file` is an error either way: a page to
 * render was removed first, never written through.
 */
export function writeOrLinkPublished(file: string, bytes: Uint8Array | readonly Uint8Array[], published: string | undefined): void {
  if (published !== undefined) {
    try {
      linkSync(published, file);
      return;
    } catch (error) {
      // The published file gone (removed by hand), or no hard link to be made here: the page's own bytes are written instead.
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code !== 'ENOENT' && !COPY_INSTEAD.has(code)) throw error;
    }
  }
  writeNewFile(file, bytes);
}

/**
 * Writes `bytes` (one buffer, or pieces written in order: a page's frame, encoded once, and its own
 * parts) into `file`, a new file: one already there is an error (EEXIST), never written through.
 */
function writeNewFile(file: string, bytes: Uint8Array | readonly Uint8Array[]): void {
  const pieces = bytes instanceof Uint8Array ? [bytes] : bytes;
  const fd = openSync(file, 'wx');
  try {
    const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
    const written = writevSync(fd, pieces);
    // A short write (a file system that takes part of it, a disk nearly full) is finished with the rest; a full disk throws.
    if (written < total) writeFileSync(fd, Buffer.concat(pieces).subarray(written));
  } finally {
    closeSync(fd);
  }
}
