/** What the bench scripts share: where they write, how they time a build, medians. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCacheDir } from '../src/integration/index.ts';
import { readBuildReport } from '../src/outputs/report.ts';
import { FIELDS } from '../src/data/schema.ts';
import { writeSyntheticCsv } from '../scripts/generate.ts';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const out = join(root, 'bench/out');
const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
export const maxRuns = Number(option('runs') ?? 3);
export const sizes = (option('sizes') ?? '10000,100000,1000000').split(',').map(Number);
/** Which sections to run: `build` (clean builds, floor, validation, servers), `incremental`; both by default. */
export const sections = (option('only') ?? 'build,incremental').split(',');

export interface Sample {
  seconds: number;
  rssBytes: number;
  /** The build's own account of its phases (from its JSON report), in seconds. */
  phases: [string, number][];
}


export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Runs a command to completion (its progress shown as it comes); resolves to its wall time in seconds. */
async function timed(command: string, args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const code = await new Promise<number | null>((done) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', done);
  });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
  return (performance.now() - started) / 1000;
}

/** Runs a Node script to completion, timing it and reading its peak RSS (preloaded bench/peak-rss.ts). */
export async function measure(script: string, args: string[]): Promise<Sample> {
  const rssFile = join(out, `rss-${process.pid}.txt`);
  rmSync(rssFile, { force: true });
  const seconds = await timed(process.execPath, ['--import', join(root, 'bench/peak-rss.ts'), join(root, script), ...args], { BENCH_RSS_FILE: rssFile });
  const rssBytes = Math.max(...readFileSync(rssFile, 'utf8').trim().split('\n').map(Number));
  return { seconds, rssBytes, phases: [] };
}

/**
 * Runs `npm run build` as a maintainer does (its Node flags included), with the npm that runs the
 * bench; its phases and peak memory come from the build's own JSON report.
 */
export async function measureBuild(env: Record<string, string>): Promise<Sample> {
  const reportFile = join(out, `report-${process.pid}.json`);
  const npm = process.env['npm_execpath'];
  const seconds = await timed(npm ? process.execPath : 'npm', [...(npm ? [npm] : []), 'run', '--silent', 'build'], { ...env, REPORT_FILE: reportFile });
  const report = readBuildReport(reportFile);
  // The data side's phases ran on a worker thread during `start`: listed after the others, marked so.
  const beside = report.besidePhases.map(([name, value]): [string, number] => [`${name} (worker, during start)`, value]);
  return { seconds, rssBytes: report.peakMemoryBytes, phases: [...report.phases, ...beside] };
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
  };
}

export async function dataFile(rows: number): Promise<string> {
  const file = join(out, `rows-${rows}.csv`);
  if (rows === 0) writeFileSync(file, `${FIELDS.join(',')}\n`);
  else if (!existsSync(file)) {
    console.error(`generating ${rows} rows`);
    await writeSyntheticCsv(file, rows);
  }
  return file;
}

export const runsFor = (rows: number) => (rows >= 1_000_000 ? 1 : maxRuns);
/** Removes earlier output before a run, outside the measurement, so each run writes a fresh folder. */
export const fresh = (dir: string) => {
  for (const entry of [dir, `${dir}-deploy`]) rmSync(entry, { recursive: true, force: true });
  // A clean build: no cached pages of this site and no prepared data either.
  rmSync(buildCacheDir(join(root, 'node_modules/.astro'), dir), { recursive: true, force: true });
  rmSync(join(root, 'node_modules/.astro/listing-data'), { recursive: true, force: true });
  return dir;
};
export const buildOf = (file: string, rows: number) => () => {
  const site = fresh(join(out, `site-${rows}`));
  return measureBuild({ DATA_FILE: file, OUT_DIR: site, DEPLOY_DIR: join(out, `deploy-${rows}`) });
};
