/**
 * One build at a time per project: a lock file in the project's cache folder, naming the build that
 * holds it (its pid, machine and start). It is made whole in one step: written aside, then hard-linked
 * into place, which fails where a lock is there already. A second build waits for the first and says
 * which one it waits for. A lock whose build was killed (its process gone from this machine) is taken
 * over at once; one held on another machine sharing the folder is waited for, and the message says
 * which file to remove if no build runs there any more.
 */
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { jsonOf } from '../files/checked-files.ts';
import { ifPresent } from '../files/missing.ts';

/**
 * Astro's default cache folder in a project. The build lock is kept there whatever Astro's
 * `cacheDir` says, so that a build begun before Astro's configuration is read (session.ts), or one
 * that finds nothing to build (nothing-to-build.ts), takes the lock every build of the project takes.
 */
export const PROJECT_CACHE_DIR = join('node_modules', '.astro');

const LOCK = 'listing-build.lock';
const WAIT_STEP_MS = 250;
/** A takeover takes milliseconds; a takeover folder this old was left by a process that died in one. */
const TAKEOVER_STALE_MS = 10_000;

const ownerSchema = z.object({ pid: z.int(), host: z.string(), startedAt: z.string(), token: z.string() });
type Owner = z.infer<typeof ownerSchema>;

export type BuildLock = Awaited<ReturnType<typeof acquireBuildLock>>;

/** The owner named in the lock file; undefined where there is none, 'unreadable' where it names none. */
function ownerOf(lock: string): Owner | 'unreadable' | undefined {
  const text = ifPresent(() => readFileSync(lock, 'utf8'));
  // Not an owner's JSON: the file was damaged (it is written whole, then linked into place).
  return text === undefined ? undefined : (jsonOf(text, ownerSchema) ?? 'unreadable');
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process is there, someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock's build is surely gone: its process is not running on this machine. */
const isDead = (owner: Owner) => owner.host === hostname() && !isRunning(owner.pid);

/**
 * Removes the dead lock `seen`, if it is still the lock there. Two waiters may both find it dead:
 * only the one holding the takeover folder (made atomically) looks again and removes it, so a lock
 * taken meanwhile by the other is never removed.
 */
function takeOver(lock: string, seen: Owner | 'unreadable'): void {
  const takeover = `${lock}.takeover`;
  try {
    mkdirSync(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another waiter is taking it over; one that died doing so left a folder that goes stale.
    const made = statSync(takeover, { throwIfNoEntry: false });
    if (made && made.mtimeMs < Date.now() - TAKEOVER_STALE_MS) rmSync(takeover, { recursive: true, force: true });
    return;
  }
  try {
    const now = ownerOf(lock);
    const same = now === 'unreadable' || seen === 'unreadable' ? now === seen : now?.token === seen.token;
    if (same) rmSync(lock, { force: true });
  } finally {
    rmSync(takeover, { recursive: true, force: true });
  }
}

/** Who holds the lock, for people: `pid 4711, started 14:02:31 UTC`. */
const describe = (owner: Owner) =>
  `pid ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}, started ${owner.startedAt.slice(11, 19)} UTC`;

/**
 * Takes the build lock kept in the folder `dir`, waiting while another build holds it (`warn` is
 * told once, with a sentence naming that build and `where` it runs). Released by `release`, or when
 * the process exits.
 */
export async function acquireBuildLock(dir: string, warn: (message: string) => void, where = 'in this project') {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, LOCK);
  const me: Owner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), token: randomUUID() };
  const aside = `${lock}.${me.token}`;
  writeFileSync(aside, JSON.stringify(me));
  let told = false;
  try {
    for (;;) {
      try {
        linkSync(aside, lock);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = ownerOf(lock);
      // Released between the two looks: try again at once.
      if (owner === undefined) continue;
      // A lock that names no build was damaged: nothing holds it.
      if (owner === 'unreadable' || isDead(owner)) {
        takeOver(lock, owner);
        continue;
      }
      if (!told) {
        const remote = owner.host === hostname() ? '' : ` If no build runs on ${owner.host} any more, remove ${lock}.`;
        warn(`Another build is running ${where} (${describe(owner)}); waiting for it to finish…${remote}`);
        told = true;
      }
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  } finally {
    rmSync(aside, { force: true });
  }
  const ours = () => {
    const owner = ownerOf(lock);
    return owner !== 'unreadable' && owner?.token === me.token;
  };
  const release = () => {
    if (ours()) rmSync(lock, { force: true });
  };
  process.once('exit', release);
  return {
    /** Whether the lock is no longer this build's (removed by hand, and taken by another): then it must not publish. */
    lost: () => !ours(),
    release: () => {
      process.off('exit', release);
      release();
    },
  };
}

/**
 * The locks every build takes, held as one (lost when either is): its project's, since Astro writes
 * its bundles into the project's own folders, then its site's, in the build store at `storeDir`
 * (the site at `outDir`), since a build removes the store's folders that are not published, another
 * checkout's build under way among them (a cron job's checkout and a maintainer's, one web root).
 * Always in that order, so two builds never wait for each other.
 */
export async function acquireBuildLocks(
  root: string,
  storeDir: string,
  outDir: string,
  warn: (message: string) => void,
): Promise<BuildLock> {
  const project = await acquireBuildLock(join(root, PROJECT_CACHE_DIR), warn);
  let site: BuildLock;
  try {
    site = await acquireBuildLock(storeDir, warn, `for the site at ${outDir} (from another checkout)`);
  } catch (error) {
    project.release();
    throw error;
  }
  return {
    lost: () => project.lost() || site.lost(),
    release: () => {
      site.release();
      project.release();
    },
  };
}
