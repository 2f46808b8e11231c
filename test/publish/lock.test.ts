import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireBuildLock, type BuildLock } from '../../src/publish/lock.ts';
import { projectRoot, tempDir } from '../support/site.ts';

let workspace: string;
const WAITERS = 4;
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

/** A script that takes the lock, says so, and exits after `holdMs`. */
const holder = (store: string, holdMs: number) =>
  `import { acquireBuildLock } from ${JSON.stringify(join(projectRoot, 'src/publish/lock.ts'))};\n` +
  `await acquireBuildLock(${JSON.stringify(store)}, () => {});\nconsole.log('locked');\nsetTimeout(() => process.exit(0), ${holdMs});\n`;

/** A build that took the lock of `store` and was killed with SIGKILL: its lock is left behind. */
async function leaveDeadLock(store: string): Promise<void> {
  const script = join(workspace, 'hold.ts');
  writeFileSync(script, holder(store, 60_000));
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('close', resolve));
}

describe('the build lock', () => {
  it('a second build waits for the first, told who holds it, and gets the lock when it is released', async () => {
    workspace = tempDir('lock');
    const store = join(workspace, '.dist.builds');
    const first = await acquireBuildLock(store, () => undefined);
    // What happens, in the order it happens: the second build may take the lock only after the release.
    const events: string[] = [];
    const told: string[] = [];
    const waiting = acquireBuildLock(store, (message) => {
      told.push(message);
      events.push('second told it waits');
    }).then((lock) => {
      events.push('second has the lock');
      return lock;
    });
    // Held until the second build had several chances to take a held lock (it tries every 250 ms), and did not.
    await expect.poll(() => told.length, { interval: 5 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 800));
    events.push('first releases');
    first.release();
    const lock = await waiting;
    expect(events).toEqual(['second told it waits', 'first releases', 'second has the lock']);
    expect(told).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Another build is running in this project \\(pid ${process.pid}, started \\d\\d:\\d\\d:\\d\\d UTC\\); waiting for it to finish…$`,
        ),
      ),
    ]);
    expect(lock.lost()).toBe(false);
    lock.release();
  });

  it('a lock left by a killed build does not block: it is taken over as soon as its process is gone', async () => {
    workspace = tempDir('lock');
    const store = join(workspace, '.dist.builds');
    await leaveDeadLock(store);
    expect(existsSync(join(store, 'listing-build.lock'))).toBe(true);
    // Taken without waiting: a build that waits is told so (and would wait until the lock went
    // stale, ten minutes), which fails the test there and then.
    const lock = await new Promise<BuildLock>((taken, failed) => {
      acquireBuildLock(store, (message) => failed(new Error(`told to wait for a dead build: ${message}`))).then(taken, failed);
    });
    expect(lock.lost()).toBe(false);
    lock.release();
  });

  it("waiters that find a dead build's lock at once take it one at a time (never two holders)", async () => {
    workspace = tempDir('lock');
    const store = join(workspace, '.dist.builds');
    await leaveDeadLock(store);
    // Each waiter says it started, takes the lock and claims a marker only one may have at a time,
    // and holds both until every waiter has started (so the others are trying meanwhile).
    const waiter = join(workspace, 'waiter.ts');
    const marker = join(workspace, 'held');
    const started = join(workspace, 'started');
    mkdirSync(started);
    writeFileSync(
      waiter,
      `import { closeSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';\n` +
        `import { acquireBuildLock } from ${JSON.stringify(join(projectRoot, 'src/publish/lock.ts'))};\n` +
        `writeFileSync(${JSON.stringify(started)} + '/' + process.pid, '');\n` +
        `const lock = await acquireBuildLock(${JSON.stringify(store)}, () => {});\n` +
        `closeSync(openSync(${JSON.stringify(marker)}, 'wx'));\n` +
        `while (readdirSync(${JSON.stringify(started)}).length < ${WAITERS}) await new Promise((resolve) => setTimeout(resolve, 10));\n` +
        `rmSync(${JSON.stringify(marker)});\nlock.release();\n`,
    );
    const codes = await Promise.all(
      Array.from(
        { length: WAITERS },
        () => new Promise<number | null>((resolve) => spawn(process.execPath, [waiter], { stdio: 'inherit' }).once('close', resolve)),
      ),
    );
    expect(codes).toEqual(Array.from({ length: WAITERS }, () => 0));
  });

  it('a build that exits releases its lock', () => {
    workspace = tempDir('lock');
    const store = join(workspace, '.dist.builds');
    const script = join(workspace, 'hold.ts');
    writeFileSync(script, holder(store, 0));
    expect(spawnSync(process.execPath, [script]).status).toBe(0);
    expect(existsSync(join(store, 'listing-build.lock'))).toBe(false);
  });

  it('takes over a damaged lock file (not JSON, or not naming a build) at once', async () => {
    workspace = tempDir('lock');
    const store = join(workspace, '.dist.builds');
    for (const damaged of ['', '{"pid": 12', '{"pid": "x"}']) {
      mkdirSync(store, { recursive: true });
      writeFileSync(join(store, 'listing-build.lock'), damaged);
      const lock = await acquireBuildLock(store, (message) => {
        throw new Error(`told to wait for a damaged lock: ${message}`);
      });
      expect(lock.lost()).toBe(false);
      lock.release();
      expect(existsSync(join(store, 'listing-build.lock'))).toBe(false);
    }
  });

  it('waits for a build on another machine sharing the folder, and says which file to remove if none runs there', async () => {
    workspace = tempDir('lock');
    const store = join(workspace, '.dist.builds');
    mkdirSync(store, { recursive: true });
    const lockFile = join(store, 'listing-build.lock');
    writeFileSync(lockFile, JSON.stringify({ pid: 1, host: 'another-machine', startedAt: '2026-11-25T10:11:12.000Z', token: 'theirs' }));
    const told: string[] = [];
    const waiting = acquireBuildLock(store, (message) => told.push(message));
    await expect
      .poll(() => told)
      .toEqual([
        `Another build is running in this project (pid 1 on another-machine, started 10:11:12 UTC); waiting for it to finish… If no build runs on another-machine any more, remove ${lockFile}.`,
      ]);
    rmSync(lockFile);
    const lock = await waiting;
    // Removed by hand while held, and taken by another build: lost, and not removed by this one's release.
    writeFileSync(lockFile, JSON.stringify({ pid: 1, host: 'another-machine', startedAt: '2026-11-25T10:11:12.000Z', token: 'theirs' }));
    expect(lock.lost()).toBe(true);
    lock.release();
    expect(existsSync(lockFile)).toBe(true);
  });
});
