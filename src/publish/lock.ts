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
/**
 * A live build refreshes the lock every 30 s; one not refreshed for this long is taken as gone (a
 * build on another machine sharing the folder; on this one a dead build's lock is taken over at
 * once, by its pid). Long, so that proper-lockfile's own removal of a stale lock never races the
 * takeover below.
 */
const STALE_MS = 10 * 60_000;
const UPDATE_MS = 30_000;
/** A takeover in progress takes milliseconds; one this old was left by a process that died in it. */
const TAKEOVER_STALE_MS = 10_000;
const WAIT_STEP_MS = 250;
/** A lock seen this long without its owner's record is a dead build's (see acquireBuildLock). */
const OWNERLESS_MS = 5_000;

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

/**
 * The lock of a build whose process is gone, moved out of the way. Two waiters may both see it
 * dead; only the one holding the takeover folder (made atomically) checks again and moves it, so a
 * lock taken meanwhile by the other (a new folder, another inode) is never moved.
 */
function takeOverDeadLock(store: string, ownerless?: { inode: number | undefined }): boolean {
  const takeover = join(store, `${LOCK}.takeover`);
  try {
    mkdirSync(takeover);
  } catch {
    // Another waiter is taking it over; one that died doing so leaves a folder that goes stale.
    try {
      if (statSync(takeover).mtimeMs < Date.now() - TAKEOVER_STALE_MS) rmSync(takeover, { recursive: true, force: true });
    } catch {
      // Gone meanwhile.
    }
    return false;
  }
  try {
    const owner = readOwner(store);
    const dead =
      owner === undefined
        ? ownerless?.inode === lockInode(store)
        : owner.host === hostname() && !isRunning(owner.pid) && lockInode(store) === owner.lock;
    if (!dead) return false;
    // The dead owner's record goes first: its lock's inode may be reused by the next lock, which a
    // later waiter must not take for the dead one.
    rmSync(join(store, OWNER), { force: true });
    const aside = join(store, `${LOCK}.dead-${process.pid}`);
    renameSync(join(store, LOCK), aside);
    rmSync(aside, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(takeover, { recursive: true, force: true });
  }
}

/** Who holds the lock, for people: `pid 4711, started 14:02:31`. */
const describe = (owner: Owner | undefined) =>
  owner
    ? `pid ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}, started ${owner.startedAt.slice(11, 19)} UTC`
    : 'starting';

/**
 * Takes the build lock kept in `store`, waiting while another build holds it (`onWait` is told once,
 * with a sentence naming that build).
 */
export async function acquireBuildLock(store: string, onWait: (message: string) => void): Promise<BuildLock> {
  mkdirSync(store, { recursive: true });
  let lost = false;
  let told = false;
  let ownerless: { inode: number | undefined; since: number } | undefined;
  for (;;) {
    try {
      const release = await lockfile.lock(store, {
        lockfilePath: join(store, LOCK),
        stale: STALE_MS,
        update: UPDATE_MS,
        realpath: false,
        onCompromised: () => {
          lost = true;
        },
      });
      writeFileSync(
        join(store, OWNER),
        JSON.stringify({
          pid: process.pid,
          host: hostname(),
          startedAt: new Date().toISOString(),
          lock: lockInode(store) ?? -1,
        } satisfies Owner),
      );
      const removeOwner = () => {
        if (readOwner(store)?.pid === process.pid) rmSync(join(store, OWNER), { force: true });
      };
      // Our record goes before the lock: a lock made next may reuse its inode.
      const releaseOurs = async () => {
        process.off('exit', removeOwner);
        removeOwner();
        await release().catch(() => undefined);
      };
      // proper-lockfile removes the lock when the process exits; our record goes with it.
      process.once('exit', removeOwner);
      return { lost: () => lost, release: releaseOurs };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The lock vanished between proper-lockfile's attempt and its look at it (taken over): try again.
      if (code === 'ENOENT') continue;
      if (code !== 'ELOCKED') throw error;
      const owner = readOwner(store);
      // A live build writes its record the moment it holds the lock and removes it the moment
      // before it lets go: a lock seen without one, the same lock, for OWNERLESS_MS, is a build
      // killed in either instant (else it would wait until the lock goes stale).
      const inode = lockInode(store);
      if (owner !== undefined || inode !== ownerless?.inode) ownerless = owner === undefined ? { inode, since: Date.now() } : undefined;
      if (takeOverDeadLock(store, ownerless && Date.now() - ownerless.since >= OWNERLESS_MS ? ownerless : undefined)) continue;
      if (!told) {
        onWait(`Another build is running in this project (${describe(owner)}); waiting for it to finish…`);
        told = true;
      }
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }
}
