/** What the bench scripts share: where they write, how they time a build, medians. */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBuildReport } from '../src/outputs/report.ts';
import { FIELDS } from '../src/data/schema.ts';
import { writeSyntheticCsv, type CsvStyle } from '../scripts/generate.ts';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const out = join(root, 'bench/out');
/** The value of `--NAME=VALUE` on the command line, if given. */
export const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
export const maxRuns = Number(option('runs') ?? 3);
export const sizes = (option('sizes') ?? '10000,100000,1000000').split(',').map(Number);
/** Which sections to run: `build` (clean builds, floor, validation, servers), `peers` (plain Astro, Eleventy 3 with and without Pagefind, Hugo), `incremental`, `search` (a phone's browser); all by default. */
export const sections = (option('only') ?? 'build,peers,incremental,search').split(',');

export interface Sample {
  seconds: number;
  rssBytes: number;
  /** The build's own account of its phases (from its JSON report), in seconds. */
  phases: [string, number][];
  /** The pages the build rendered (from its JSON report); the others it kept from the published build. */
  rendered?: { json: number; html: number };
}

/** A duration and a size as the tables print them. */
export const seconds = (value: number) => `${value.toFixed(1)} s`;
export const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MiB`;
/** A target's verdict in the tables. */
export const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Runs a command to completion (its progress shown as it comes); resolves to its wall time in seconds. */
async function timed(command: string, args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (exitCode, exitSignal) => done([exitCode, exitSignal]));
  });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} ${signal ? `was killed by ${signal}` : `exited with ${code}`}`);
  return (performance.now() - started) / 1000;
}

/** Runs a Node script to completion, timing it and reading its peak RSS (preloaded bench/peak-rss.ts). */
export async function measure(script: string, args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<Sample> {
  const rssFile = join(out, `rss-${process.pid}.txt`);
  rmSync(rssFile, { force: true });
  const seconds = await timed(process.execPath, [...nodeFlags, '--import', join(root, 'bench/peak-rss.ts'), join(root, script), ...args], {
    ...env,
    BENCH_RSS_FILE: rssFile,
  });
  const rssBytes = Math.max(...readFileSync(rssFile, 'utf8').trim().split('\n').map(Number));
  return { seconds, rssBytes, phases: [] };
}

/** GNU time (Debian's `time` package), which reads the peak memory of a program that is not Node. */
export const GNU_TIME = '/usr/bin/time';

/**
 * Runs any program to completion under GNU time, timing it and reading its peak RSS: the largest
 * of the program's own and of every child it waited for (wait4's maxrss), so a Node script that
 * runs a program counts that program too.
 */
export async function measureProgram(command: string, args: string[], env: Record<string, string> = {}): Promise<Sample> {
  const rssFile = join(out, `rss-${process.pid}.txt`);
  rmSync(rssFile, { force: true });
  const seconds = await timed(GNU_TIME, ['--format=%M', `--output=${rssFile}`, command, ...args], env);
  const kibibytes = Number(readFileSync(rssFile, 'utf8').trim());
  return { seconds, rssBytes: kibibytes * 1024, phases: [] };
}

/**
 * Runs `npm run build` as a maintainer does (its Node flags included), with the npm that runs the
 * bench; its phases and peak memory come from the build's own JSON report.
 */
export async function measureBuild(env: Record<string, string>): Promise<Sample> {
  const reportFile = join(out, `report-${process.pid}.json`);
  const npm = process.env['npm_execpath'];
  const seconds = await timed(npm ? process.execPath : 'npm', [...(npm ? [npm] : []), 'run', '--silent', 'build'], {
    ...env,
    REPORT_FILE: reportFile,
  });
  const report = readBuildReport(reportFile);
  // The data side's phases ran on a worker thread during `start`: listed after the others, marked so.
  const beside = report.besidePhases.map(([name, value]): [string, number] => [`${name} (worker, during start)`, value]);
  return { seconds, rssBytes: report.peakMemoryBytes, phases: [...report.phases, ...beside], rendered: report.rendered };
}

export async function repeat(runs: number, run: () => Promise<Sample>): Promise<Sample & { runs: number; all: number[] }> {
  const samples: Sample[] = [];
  for (let index = 0; index < runs; index += 1) samples.push(await run());
  const names = samples[0]!.phases.map(([name]) => name);
  return {
    seconds: median(samples.map((sample) => sample.seconds)),
    rssBytes: median(samples.map((sample) => sample.rssBytes)),
    phases: names.map((name) => [name, median(samples.map((sample) => sample.phases.find(([other]) => other === name)?.[1] ?? 0))]),
    runs,
    all: samples.map((sample) => sample.seconds),
    // The same edit of the same file renders the same pages each run.
    ...(samples[0]!.rendered && { rendered: samples[0]!.rendered }),
  };
}

/** The synthetic CSV of `rows` rows written in `style`, generated once and kept in bench/out. */
export async function dataFile(rows: number, style: CsvStyle = {}): Promise<string> {
  const name = [
    `rows-${rows}`,
    ...(style.quote ? [`quote-${style.quote}`] : []),
    ...(style.crlf ? ['crlf'] : []),
    ...(style.shape ? [`shape-${style.shape}`] : []),
  ].join('-');
  const file = join(out, `${name}.csv`);
  if (rows === 0) writeFileSync(file, `${FIELDS.join(',')}${style.crlf ? '\r\n' : '\n'}`);
  else if (!existsSync(file)) {
    console.error(`generating ${name}`);
    await writeSyntheticCsv(file, rows, undefined, style);
  }
  return file;
}

export const runsFor = (rows: number) => (rows >= 1_000_000 ? 1 : maxRuns);
/** Where `fresh` moves what earlier builds left; emptied at the start of the next run (`clearOutputs`). */
const trash = join(out, '.trash');
let trashed = 0;

/** Moves `path` (a file, folder or link) into the trash: a rename, which frees no inode. */
function moveAside(path: string): void {
  if (!lstatSync(path, { throwIfNoEntry: false })) return;
  mkdirSync(trash, { recursive: true });
  renameSync(path, join(trash, `${process.pid}-${trashed++}-${basename(path)}`));
}

/**
 * Moves what earlier builds left out of the way, outside the measurement, so that a clean build
 * starts from nothing: the site, its deploy folder, Astro's cache folder (the build's prepared data
 * and cached pages live in it) and whatever a build keeps beside the site under its name
 * (`.dist.builds` for `dist`). Named by those rules rather than by the build's own paths, which
 * change with its code. The sites are moved aside, not removed: see `clearOutputs`.
 */
export function fresh(site: string, deploy?: string): string {
  for (const entry of [site, ...(deploy === undefined ? [] : [deploy])]) moveAside(entry);
  // A few large files (the preparations), which free few inodes: removed, or the trash would keep
  // every run's gigabytes of them (and a rename fails where node_modules is another mount).
  rmSync(join(root, 'node_modules/.astro'), { recursive: true, force: true });
  const parent = dirname(resolve(site));
  const beside = `.${basename(resolve(site))}`;
  if (existsSync(parent)) {
    for (const entry of readdirSync(parent)) if (entry.startsWith(beside)) moveAside(join(parent, entry));
  }
  return site;
}

/** How long ext4 without a journal passes over a freed inode at most: 30 s, 5 min more while its block is not written back. */
const REST_SECONDS = 360;

/**
 * Removes what earlier runs left in bench/out (every folder; the generated data files stay), then,
 * where that removed anything, waits for the disk to forget the removals. This machine's disk is
 * ext4 without a journal, whose inode allocator passes over every inode freed in the last minutes
 * before it takes one: creating files right after many were removed costs in proportion to what
 * was removed (docs/performance.md). Removing the previous site just before each clean build
 * measured that, not the build: three identical 100k-row clean builds in a row took 10.2, 18.5 and
 * 25.1 s. So the run removes once, rests, and its own `fresh` moves aside rather than removes; the
 * builds' own removals (older builds, once a build is published) are theirs, and measured.
 * `--no-rest` skips the wait (a smoke run). `ensureRoom` runs once they are gone, before the wait.
 */
export async function clearOutputs(ensureRoom: () => void): Promise<void> {
  let removed = 0;
  for (const entry of existsSync(out) ? readdirSync(out, { withFileTypes: true }) : []) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    rmSync(join(out, entry.name), { recursive: true, force: true });
    removed += 1;
  }
  const astroCache = join(root, 'node_modules/.astro');
  if (existsSync(astroCache)) {
    rmSync(astroCache, { recursive: true, force: true });
    removed += 1;
  }
  ensureRoom();
  if (removed > 0) await restAfterRemovals(`removed ${removed} folders earlier runs left`);
}

/** Waits for the disk to forget removals just made (see `clearOutputs`), saying why (`removed`); not with `--no-rest`. */
export async function restAfterRemovals(removed: string): Promise<void> {
  if (process.argv.includes('--no-rest')) return;
  execFileSync('sync');
  console.error(`${removed}; waiting ${REST_SECONDS} s for the disk to forget the removals (see clearOutputs in bench/lib.ts)`);
  await sleep(REST_SECONDS * 1000);
}

/**
 * Disk a build leaves in bench/out for each row, measured with `du` after 1M-row runs on this machine:
 * ours 12.8 GB (2026-11-29: the site, Vercel's copy as links and the build store 8.9 GB, the data
 * cache 3.8 GB; the search index's sorted filter lists are 1.5 GB of it), a peer's site or the
 * floor's 2.3 GB (2026-11-26). Every run's output stays to the end (`fresh` moves it aside).
 */
const OURS_BYTES_A_ROW = 12_800;
const PLAIN_BYTES_A_ROW = 2_400;
/**
 * Beside a peer's site, measured with `du` at 10k rows (2026-11-29), not yet at 1M: Pagefind's
 * index 0.96 kB a row, the Hugo peer's work folder 1.3 kB a row (three small files a page).
 */
const PAGEFIND_BYTES_A_ROW = 1_000;
const HUGO_CONTENT_BYTES_A_ROW = 1_300;
/** The peers' sites: Eleventy, Eleventy + Pagefind, plain Astro, Hugo. */
const PEERS_BYTES_A_ROW = 4 * PLAIN_BYTES_A_ROW + PAGEFIND_BYTES_A_ROW + HUGO_CONTENT_BYTES_A_ROW;

/**
 * Stops the run before it starts where the build, peers and incremental sections (`incrementalRows`:
 * the rows of the builds it keeps at once) would fill the disk: a run that
 * filled it failed at its last build, a quarter of an hour in. Exit code 2, with what to do.
 */
export function ensureRoomFor(chosen: readonly string[], rows: readonly number[], incrementalRows = 0): void {
  const perRow =
    (chosen.includes('build') ? OURS_BYTES_A_ROW + PLAIN_BYTES_A_ROW : 0) +
    (chosen.includes('peers') ? OURS_BYTES_A_ROW + PEERS_BYTES_A_ROW : 0);
  const needed = rows.reduce((sum, size) => sum + runsFor(size) * size * perRow, 0) + incrementalRows * OURS_BYTES_A_ROW;
  const { bavail, bsize } = statfsSync(out);
  const free = bavail * bsize;
  if (needed <= free) return;
  const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;
  console.error(
    `bench: ${chosen.join(', ')} at ${rows.join(', ')} rows need about ${gb(needed)} in ${out}, and ${gb(free)} is free there. ` +
      'Free some space, or run fewer at once (for example --only=build, then --only=peers).',
  );
  process.exit(2);
}

export const buildOf =
  (file: string, rows: number, env: Record<string, string> = {}, name = String(rows)) =>
  () => {
    const deploy = join(out, `deploy-${name}`);
    const site = fresh(join(out, `site-${name}`), deploy);
    return measureBuild({ ...env, DATA_FILE: file, OUT_DIR: site, DEPLOY_DIR: deploy });
  };
