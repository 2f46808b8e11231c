/**
 * How this machine's disk takes what a build does to it, as context for the bench's figures:
 * `node bench/disk.ts [FOLDER...]` makes 10,000 page folders, each with a 14 kB file (an HTML
 * page's size), removes them, and does it again, three rounds in each folder (by default the
 * bench's output folder and /dev/shm). Where a round is slower than the one before, the removals
 * are the cause: ext4 without a journal (this machine's disk) passes over every inode freed in the
 * last 30 s to 5.5 min before it allocates one, so creating files right after removing many costs
 * in proportion to what was removed. A build's time then depends on what ran before it: read the
 * bench's figures with it.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { out } from './lib.ts';

const PAGES = 10_000;
const page = Buffer.alloc(14_000, 'a');
const folders = process.argv.length > 2 ? process.argv.slice(2) : [out, '/dev/shm'];

for (const folder of folders) {
  const dir = join(folder, `disk-probe-${process.pid}`);
  const seconds: string[] = [];
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now();
    for (let index = 0; index < PAGES; index += 1) {
      mkdirSync(join(dir, 'page', String(index)), { recursive: true });
      writeFileSync(join(dir, 'page', String(index), 'index.html'), page);
    }
    seconds.push(((performance.now() - started) / 1000).toFixed(2));
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `${folder}: ${PAGES.toLocaleString('en')} page folders written in ${seconds.join(' s, ')} s (three rounds, each removed after)`,
  );
}
