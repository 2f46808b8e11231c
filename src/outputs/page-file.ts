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

/** Writes `bytes` through the file `file`, which the folder owns, or as a new file where there is none. */
export function writePageThrough(file: string, bytes: Uint8Array): void {
  let fd: number;
  try {
    fd = openSync(file, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    writeNewPage(file, bytes);
    return;
  }
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written, written);
    ftruncateSync(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}
