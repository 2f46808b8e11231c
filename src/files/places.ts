/**
 * Paths compared as the file system they are on compares them. On a disk that ignores case (macOS's
 * and Windows' own, a FAT stick) `dist` and `Dist/x` are one folder and what is in it; on Linux's
 * they are two. The answer is asked of the disk, not guessed from the platform: each name that
 * exists is taken as its folder lists it, and the names past the last one that exists (a folder a
 * build will make) are compared without regard to case where a probe of that last folder shows its
 * disk ignores case.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, parse, resolve, sep } from 'node:path';

/** How two paths are taken: through their symbolic links to where they lead (`follow`), or as the names they are. */
export interface PlaceOptions {
  followLinks?: boolean;
}

/** One name of a path: `caseless` where it is compared without regard to case. */
interface Name {
  text: string;
  caseless: boolean;
}

/** Names compared as a disk that ignores case compares them (Unicode's simple lower case, composed as macOS's disks store them). */
const folded = (name: string) => name.normalize('NFC').toLowerCase();

/** Whether `path` names something (following links): "not there" where it or a folder on the way is missing. */
function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a name on the way is a file, so nothing is there either.
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}

/** The entries of a folder, or undefined where it may be passed through but not listed (EACCES): its names are then taken as written. */
function entriesOf(folder: string): string[] | undefined {
  try {
    return readdirSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return undefined;
    throw error;
  }
}

/** `name` in `folder` (which holds it) as the folder lists it: its own case where the disk ignores case. */
function listedName(folder: string, name: string): string {
  const entries = entriesOf(folder);
  if (entries === undefined || entries.includes(name)) return name;
  return entries.find((entry) => folded(entry) === folded(name)) ?? name;
}

/** A name with the case of its letters swapped, where it has any: `Dist` → `dIST`. */
function swappedCase(name: string): string | undefined {
  const swapped = [...name]
    .map((character) => (character === character.toLowerCase() ? character.toUpperCase() : character.toLowerCase()))
    .join('');
  return swapped === name ? undefined : swapped;
}

/**
 * Whether the disk that holds the existing folder `folder` ignores case: a name listed there or in
 * a folder above it on the same disk, its letters' case swapped, is found too without being
 * listed. Where no such name is there to try (an empty disk), a file made for the probe and
 * removed at once answers; where none can be made (a read-only disk), the platform's usual disks
 * do (case ignored on macOS and Windows).
 */
function ignoresCase(folder: string): boolean {
  const disk = statSync(folder).dev;
  const found = (parent: string, name: string) => exists(`${parent}${parent.endsWith(sep) ? '' : sep}${name}`);
  for (let at = folder; statSync(at).dev === disk; at = dirname(at)) {
    const entries = entriesOf(at) ?? [];
    for (const name of entries) {
      const swapped = swappedCase(name);
      if (swapped !== undefined && !entries.includes(swapped)) return found(at, swapped);
    }
    if (at === dirname(at)) break;
  }
  const probe = `.case-probe-${randomBytes(6).toString('hex').replace(/[0-9]/g, 'x')}`;
  try {
    closeSync(openSync(`${folder}${sep}${probe}`, 'wx'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A disk or folder that cannot be written to (read-only, not ours): the platform's usual disks answer.
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return process.platform === 'darwin' || process.platform === 'win32';
    throw error;
  }
  try {
    return found(folder, probe.toUpperCase());
  } finally {
    unlinkSync(`${folder}${sep}${probe}`);
  }
}

/** `path` as the disk names it: its root, then each name (see the module's comment). */
function namesOf(path: string, { followLinks = false }: PlaceOptions): Name[] {
  const missing: string[] = [];
  let existing = resolve(path);
  while (!exists(existing) && existing !== dirname(existing)) {
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  const found = followLinks ? realpathSync.native(existing) : existing;
  const { root } = parse(found);
  const names: Name[] = [{ text: root, caseless: process.platform === 'win32' }];
  let folder = root;
  for (const name of found.slice(root.length).split(sep).filter(Boolean)) {
    const listed = listedName(folder, name);
    names.push({ text: listed, caseless: false });
    folder = `${folder}${folder.endsWith(sep) ? '' : sep}${listed}`;
  }
  const caseless = missing.length > 0 && ignoresCase(found);
  return [...names, ...missing.map((text) => ({ text, caseless }))];
}

const sameName = (a: Name, b: Name) => (a.caseless || b.caseless ? folded(a.text) === folded(b.text) : a.text === b.text);

/** Whether `path` is `folder` or inside it, as the disk they are on sees them. */
export function isInsidePlace(path: string, folder: string, options: PlaceOptions = {}): boolean {
  const [inner, outer] = [namesOf(path, options), namesOf(folder, options)];
  return outer.length <= inner.length && outer.every((name, at) => sameName(name, inner[at]!));
}

/** Whether `a` and `b` are one place, as the disk they are on sees them. */
export function isSamePlace(a: string, b: string, options: PlaceOptions = {}): boolean {
  const [first, second] = [namesOf(a, options), namesOf(b, options)];
  return first.length === second.length && first.every((name, at) => sameName(name, second[at]!));
}
