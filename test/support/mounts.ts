/**
 * Disks of a test's own: a small tmpfs, mounted where a test wants a full or read-only disk, or a
 * file system other than the project's; a FAT disk, which ignores case as macOS's and Windows'
 * disks do. Mounting needs root (as the machines here and CI run) and the permission to mount;
 * where either is missing, `mountTmpfs` and `mountCaseless` say why and the test is skipped with
 * that message.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Mount {
  dir: string;
  /** Remounts it read-only (true) or read-write (false). */
  readOnly: (on: boolean) => void;
  /** Fills it with a file until `leaveKiB` KiB are free (0: full). */
  fill: (leaveKiB: number) => void;
  /** Removes the file `fill` wrote. */
  unfill: () => void;
  unmount: () => void;
}

const run = (command: string, args: string[]) => spawnSync(command, args, { encoding: 'utf8' });

/** Mounts a tmpfs of `size` (e.g. `16m`) at a new folder `dir`; a string says why it could not. */
export function mountTmpfs(dir: string, size: string): Mount | string {
  mkdirSync(dir, { recursive: true });
  const mounted = run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  if (mounted.status !== 0)
    return `cannot mount a tmpfs here (${(mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim()}): run the tests as root where mounting is permitted`;
  const filler = join(dir, '.filler');
  return {
    dir,
    readOnly: (on) => {
      const remounted = run('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, dir]);
      if (remounted.status !== 0) throw new Error(`remount ${on ? 'ro' : 'rw'} ${dir}: ${remounted.stderr}`);
    },
    fill: (leaveKiB) => {
      rmSync(filler, { force: true });
      const { bavail, bsize } = statfsSync(dir);
      const bytes = Math.max(0, bavail * bsize - leaveKiB * 1024);
      try {
        writeFileSync(filler, Buffer.alloc(bytes));
      } catch (error) {
        // Full to the last block: as wanted.
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    },
    unfill: () => rmSync(filler, { force: true }),
    unmount: () => {
      run('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Mounts a new FAT disk of 8 MiB at a new folder `dir`: names in any case are one name there, as on
 * macOS's and Windows' disks. Through FUSE (`fusefat`, the image made by `mkfs.vfat`), since the
 * kernels here have neither the vfat module nor case folding for ext4 or XFS; a string says why it
 * could not (`bash .ci/run` installs dosfstools and fusefat). FAT has no symbolic links.
 */
export function mountCaseless(dir: string): { dir: string; unmount: () => void } | string {
  const image = join(dirname(dir), `${dir.split('/').at(-1)}.fat`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(image, '');
  truncateSync(image, 8 * 2 ** 20);
  const made = run('mkfs.vfat', [image]);
  if (made.status !== 0)
    return `cannot make a FAT disk (mkfs.vfat: ${(made.stderr || made.error?.message || `exit ${made.status}`).trim()}): apt-get install dosfstools fusefat`;
  const mounted = run('fusefat', ['-o', 'rw+', image, dir]);
  if (mounted.status !== 0)
    return `cannot mount a FAT disk (fusefat: ${(mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim()}): apt-get install fusefat, and run the tests as root where /dev/fuse is`;
  return {
    dir,
    unmount: () => {
      run('fusermount', ['-u', dir]);
      rmSync(dir, { recursive: true, force: true });
      rmSync(image, { force: true });
    },
  };
}
