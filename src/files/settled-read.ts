/**
 * The data file as one saved version. A maintainer may save from a spreadsheet while a build reads
 * the file, and not every program saves by renaming a finished file into place: some truncate it
 * and write it again, in more than one write. A read that overlapped a write, or that came right
 * after one, may hold half a save; so the file is read again until a read overlapped no change and
 * the file had been still for a moment before it. The bytes returned are then one version, and
 * everything the build publishes (the manifest's SHA-256 included) is made from them alone.
 */
import { readFileSync, statSync, type BigIntStats } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a file must have been still before it is taken as saved. */
export const QUIET_MS = 200;
/** How long to wait for a file that keeps changing before saying so. */
const GIVE_UP_MS = 30_000;

const sameVersion = (a: BigIntStats, b: BigIntStats) =>
  a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

export class StillChanging extends Error {
  override name = 'StillChanging';
}

/**
 * The bytes of `path` once a read of them overlapped no change and the file had been still for
 * `QUIET_MS` (`warn` is told once if that means waiting). Throws `StillChanging` if it is still
 * changing after `GIVE_UP_MS`, and the file system's own error if it cannot be read.
 */
export async function readSettled(path: string, warn: (line: string) => void, quietMs = QUIET_MS): Promise<Buffer> {
  const started = Date.now();
  let told = false;
  for (;;) {
    const before = statSync(path, { bigint: true });
    const bytes = readFileSync(path);
    const after = statSync(path, { bigint: true });
    // Milliseconds since the last change, by the file system's clock (a future time counts as still: a clock set apart).
    const still = Date.now() - Number(after.mtimeNs / 1_000_000n);
    if (sameVersion(before, after) && BigInt(bytes.length) === after.size && (still >= quietMs || still < -2_000)) return bytes;
    if (Date.now() - started > GIVE_UP_MS)
      throw new StillChanging(`${path} kept changing for ${GIVE_UP_MS / 1000} s while it was read: finish saving it, then build again`);
    if (!told) warn(`  ${path} is being saved: waiting until it is still`);
    told = true;
    await sleep(Math.max(20, Math.min(quietMs, quietMs - still)));
  }
}
