/**
 * `npm run fuzz -- [--rounds 200] [--seed N] [--rows 2000] [--site-disk DIR]`: the randomised rebuild test
 * (test/support/rebuilds.ts) for as long as asked, printing each round and a summary line.
 * Exits 1 at the first failed check, naming the seed and round to replay. With
 * `--site-disk`, the site lives in DIR (a folder on another file system than the project, e.g. /dev/shm).
 */
import { parseArgs } from 'node:util';
import { runRebuilds } from '../test/support/rebuilds.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '200' },
    seed: { type: 'string' },
    rows: { type: 'string', default: '2000' },
    'site-disk': { type: 'string' },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const rounds = Number(values.rounds);
const rows = Number(values.rows);
if (![seed, rounds, rows].every((value) => Number.isInteger(value) && value >= 0)) {
  console.error('usage: npm run fuzz -- [--rounds N] [--seed N] [--rows N] (whole numbers) [--site-disk DIR]');
  process.exit(2);
}
try {
  const siteDisk = values['site-disk'];
  const summary = await runRebuilds({
    seed,
    rounds,
    rows,
    ...(siteDisk !== undefined && { siteDisk }),
    log: (line) => console.error(line),
  });
  console.log(
    `seed ${summary.seed}: ${summary.rounds} rounds passed: ${summary.builds} builds, ${summary.published} published, ${summary.refused} refused, ` +
      `${summary.killed} killed (${summary.killedAfterPublishing} after publishing), ${summary.concurrent} pairs at once, ${summary.nothingToBuild} with nothing to build; ${summary.seconds.toFixed(0)} s`,
  );
} catch (error) {
  console.error(`\nseed ${seed} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
