/**
 * Short seeded runs of the randomised rebuild test (test/support/rebuilds.ts): every rebuild,
 * whatever was edited, interrupted, deleted or damaged, publishes what a clean build publishes,
 * and nothing published ever changes; once with the site in the project, once with it on another
 * file system (/dev/shm, or a tmpfs of the test's own). `npm run fuzz -- --rounds 200 --seed N`
 * runs long ones.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mountTmpfs } from '../support/mounts.ts';
import { runRebuilds, type RebuildSummary } from '../support/rebuilds.ts';
import { projectRoot, tempDir } from '../support/site.ts';

/**
 * Seeds whose short runs meet every kind of round and a damaged kept file; the rounds are few for
 * CI's budget of 20 minutes (about 8 s each alone, 15 s beside another file). This seed's 5 rounds:
 * a bad value refused (nothing published yet), a build killed at a step, two at once after a
 * search file was damaged, no change, a kill timed at random (which may come after the build
 * ended). A refusal over a published site is the other seed's; the same data, code and settings
 * again, test/http/incremental.test.ts's. `npm run fuzz` runs long ones.
 */
const SEED = 20263714;
const ROUNDS = 5;
/**
 * With the site on another file system: fewer, as what differs there is where a build publishes, which
 * every round does. This seed's 4 rounds: a publication, a killed build with a damaged stamp, two at
 * once, a refusal.
 */
const OTHER_DISK_SEED = 20261209;
const OTHER_DISK_ROUNDS = 4;

/** The run met every kind of round: the checks ran on each. */
function expectEveryKind(summary: RebuildSummary, lines: readonly string[]): void {
  for (const kind of ['published', 'refused', 'killed', 'concurrent'] as const)
    expect(summary[kind], `${kind}\n${lines.join('\n')}`).toBeGreaterThan(0);
}

/** A folder on another file system than the project: /dev/shm where it is one, else a tmpfs mounted for the run. */
function otherDisk(): { dir: string; done: () => void } | string {
  if (statSync('/dev/shm', { throwIfNoEntry: false })?.dev !== undefined && statSync('/dev/shm').dev !== statSync(projectRoot).dev) {
    const dir = join('/dev/shm', `listing-rebuilds-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const mount = mountTmpfs(join(tempDir('rebuilds-disk'), 'disk'), '512m');
  return typeof mount === 'string' ? mount : { dir: mount.dir, done: mount.unmount };
}

describe('randomised rebuilds', () => {
  it(
    `seed ${SEED}, ${ROUNDS} rounds: every round's dist/ and deploy/ are a clean build's, nothing published changed`,
    { timeout: 600_000 },
    async () => {
      const lines: string[] = [];
      const summary = await runRebuilds({ seed: SEED, rounds: ROUNDS, rows: 1500, log: (line) => lines.push(line) });
      expectEveryKind(summary, lines);
      // Some round damaged a kept cache file before its build.
      expect(lines.join('\n')).toMatch(/damaged /);
    },
  );

  const disk = otherDisk();
  afterAll(() => (typeof disk === 'string' ? undefined : disk.done()));
  if (typeof disk === 'string') console.warn(`Skipping the rebuilds with the site on another file system: ${disk}`);

  it.skipIf(typeof disk === 'string')(
    `seed ${OTHER_DISK_SEED}, ${OTHER_DISK_ROUNDS} rounds with the site on another file system than the project and its caches`,
    { timeout: 600_000 },
    async () => {
      const lines: string[] = [];
      const summary = await runRebuilds({
        seed: OTHER_DISK_SEED,
        rounds: OTHER_DISK_ROUNDS,
        rows: 1500,
        siteDisk: (disk as { dir: string }).dir,
        log: (line) => lines.push(line),
      });
      expectEveryKind(summary, lines);
    },
  );
});
