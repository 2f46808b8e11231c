/**
 * Preloaded into a measured process (`node --import ./bench/peak-rss.ts …`): on exit, appends the
 * process's peak resident set size (getrusage's maxrss) in bytes to $BENCH_RSS_FILE.
 */
import { appendFileSync } from 'node:fs';

const target = process.env['BENCH_RSS_FILE'];
if (target) {
  process.on('exit', () => appendFileSync(target, `${process.resourceUsage().maxRSS * 1024}\n`));
}
