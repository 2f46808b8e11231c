/**
 * Whether the data file can be read at all, said as a maintainer would fix it: the path names
 * nothing, a folder, a pipe or a device (which a read would wait on for ever), or a file the system
 * will not let us read. Asked before any read of it (check-data, the build's preparation, the
 * check whether the published build is current), so that each says the same.
 */
import { statSync } from 'node:fs';

/** Why `path` is not a data file that can be read, or undefined where it is a file. */
export function dataFileProblem(path: string): string | undefined {
  try {
    const stats = statSync(path);
    if (stats.isFile()) return undefined;
    if (stats.isDirectory()) return 'is a folder, not a CSV file: set DATA_FILE (or the argument) to the CSV file in it';
    return 'is not a regular file (a pipe, a socket or a device): save the data as a CSV file and name that';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return `does not exist (ENOENT): check DATA_FILE (or the argument), a path from ${process.cwd()}`;
    }
    return `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
}
