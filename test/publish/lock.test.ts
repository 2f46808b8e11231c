import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireBuildLock } from '../../src/publish/lock.ts';
import { projectRoot, tempDir } from '../support/site.ts';

let workspace: string;
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
    const told: string[] = [];
    let second = false;
    const waiting = acquireBuildLock(store, (message) => told.push(message)).then((lock) => {
      second = true;
      return lock;
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(second).toBe(false);
    expect(told).toEqual([expect.stringMatching(new RegExp(`^Another build is running in this project \\(pid ${process.pid}, started \\d\\d:\\d\\d:\\d\\d UTC\\); waiting for it to finish…$`))]);
    await first.release();
    const lock = await waiting;
    expect(lock.lost()).toBe(false);
    await lock.release();
  });

  it('a lock left by a killed build does not block: it is taken over as soon as its process is gone', async () => {
    workspace = tempDir('lock');
    const store = join(workspace, '.dist.builds');
    await leaveDeadLock(store);
    expect(existsSync(join(store, 'listing-build.lock'))).toBe(true);
    const started = performance.now();
    const lock = await acquireBuildLock(store, () => undefined);
    expect(performance.now() - started).toBeLessThan(2000);
    await lock.release();
  });

  it('waiters that find a dead build\'s lock at once take it one at a time (never two holders)', async () => {
    workspace = tempDir('lock');
    const store = join(workspace, '.dist.builds');
    await leaveDeadLock(store);
    // Each waiter holds the lock a moment and claims a marker only one may have at a time.
    const waiter = join(workspace, 'waiter.ts');
    const marker = join(workspace, 'held');
    writeFileSync(
      waiter,
      `import { closeSync, openSync, rmSync } from 'node:fs';\n` +
        `import { acquireBuildLock } from ${JSON.stringify(join(projectRoot, 'src/publish/lock.ts'))};\n` +
        `const lock = await acquireBuildLock(${JSON.stringify(store)}, () => {});\n` +
        `closeSync(openSync(${JSON.stringify(marker)}, 'wx'));\n` +
        `await new Promise((resolve) => setTimeout(resolve, 150));\n` +
        `rmSync(${JSON.stringify(marker)});\nawait lock.release();\n`,
    );
    const codes = await Promise.all(
      Array.from({ length: 4 }, () => new Promise<number | null>((resolve) => spawn(process.execPath, [waiter], { stdio: 'inherit' }).once('close', resolve))),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
  });

  it('a build that exits releases its lock', () => {
    workspace = tempDir('lock');
    const store = join(workspace, '.dist.builds');
    const script = join(workspace, 'hold.ts');
    writeFileSync(script, holder(store, 0));
    expect(spawnSync(process.execPath, [script]).status).toBe(0);
    expect(existsSync(join(store, 'listing-build.lock'))).toBe(false);
  });
});
