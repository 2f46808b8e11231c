/**
 * How a page file is written into a build's folder: as a new file, or through a file the folder
 * owns (see src/publish/reuse.ts: a page the recycled build rendered itself). Written through, a
 * page overwrites its own blocks and is then cut to its length, so the file system neither makes
 * an inode nor frees and allocates blocks again: the page's bytes change, little else.
 */
import { closeSync, ftruncateSync, openSync, writeFileSync, writeSync } from 'node:fs';

/** Writes `bytes` as the new file `file`: a file already there is an error, never written through (it may be a published file's other name). */
export function writeNewPage(file: string, bytes: Uint8Array): void {
  writeFileSync(file, bytes, { flag: 'wx' });
}

/**
 * Writes `bytes` through the file `file`, which the folder owns, or as a new file where there is
 * none (tried first: every page of a first build is new, and a failed open would cost each one).
 */
export function writePageThrough(file: string, bytes: Uint8Array): void {
  let fd: number;
  let made = true;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    fd = openSync(file, 'r+');
    made = false;
  }
  try {
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written, bytes.length - written, written);
    if (!made) ftruncateSync(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}
