/**
 * One build at a time per checkout: a lock in Astro's cache folder (proper-lockfile: a folder made
 * atomically, its time refreshed while the build runs). A second build waits for the first and
 * says which one it waits for. A lock whose build was killed is taken over as soon as its process
 * is gone (or, on another machine sharing the folder, once it is stale).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

const LOCK = 'listing-build.lock';
const OWNER = 'listing-build.owner.json';
/** A live build refreshes the lock every 5 s; one not refreshed for this long is taken as gone. */
const STALE_MS = 30_000;
const WAIT_STEP_MS = 250;

interface Owner {
  pid: number;
  host: string;
  startedAt: string;
  /** The lock folder's inode: an owner file left by an earlier lock does not describe a newer one. */
  lock: number;
}

export interface BuildLock {
  /** Whether another process took the lock while this build held it: then it must not publish. */
  lost: () => boolean;
  release: () => Promise<void>;
}

function readOwner(store: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(store, OWNER), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockInode(store: string): number | undefined {
  try {
    return statSync(join(store, LOCK)).ino;
  } catch {
    return undefined;
  }
}

/** The lock of a build whose process is gone, moved out of the way (a rename: only one waiter wins it). */
function takeOverDeadLock(store: string, owner: Owner | undefined): boolean {
  if (owner === undefined || owner.host !== hostname() || isRunning(owner.pid) || lockInode(store) !== owner.lock) return false;
  const aside = join(store, `${LOCK}.dead-${process.pid}`);
  try {
    renameSync(join(store, LOCK), aside);
  } catch {
    return false;
  }
  rmSync(aside, { recursive: true, force: true });
  return true;
}

/** Who holds the lock, for people: `pid 4711, started 14:02:31`. */
const describe = (owner: Owner | undefined) =>
  owner ? `pid ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}, started ${owner.startedAt.slice(11, 19)} UTC` : 'starting';

/**
 * Takes the build lock kept in `store`, waiting while another build holds it (`onWait` is told once,
 * with a sentence naming that build).
 */
export async function acquireBuildLock(store: string, onWait: (message: string) => void): Promise<BuildLock> {
  mkdirSync(store, { recursive: true });
  let lost = false;
  let told = false;
  for (;;) {
    try {
      const release = await lockfile.lock(store, {
        lockfilePath: join(store, LOCK),
        stale: STALE_MS,
        realpath: false,
        onCompromised: () => {
          lost = true;
        },
      });
      writeFileSync(join(store, OWNER), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), lock: lockInode(store) ?? -1 } satisfies Owner));
      return { lost: () => lost, release: () => release().catch(() => undefined) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const owner = readOwner(store);
      if (takeOverDeadLock(store, owner)) continue;
      if (!told) {
        onWait(`Another build is running in this project (${describe(owner)}); waiting for it to finish…`);
        told = true;
      }
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }
}
