/** What the bench scripts share: where they write, how they time a build, medians. */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** The synthetic CSV of `rows` rows written in `style`, generated once and kept in bench/out. */
export async function dataFile(rows: number, style: CsvStyle = {}): Promise<string> {
  const name = [`rows-${rows}`, ...(style.quote ? [`quote-${style.quote}`] : []), ...(style.crlf ? ['crlf'] : [])].join('-');
  const file = join(out, `${name}.csv`);
  if (rows === 0) writeFileSync(file, `${FIELDS.join(',')}${style.crlf ? '\r\n' : '\n'}`);
  else if (!existsSync(file)) {
    console.error(`generating ${name}`);
    await writeSyntheticCsv(file, rows, undefined, style);
  }
  return file;
}

export const runsFor = (rows: number) => (rows >= 1_000_000 ? 1 : maxRuns);
/**
 * Removes what earlier builds left, outside the measurement, so that a clean build starts from
 * nothing: the site, its deploy folder, Astro's cache folder (the build's prepared data and cached
 * pages live in it) and whatever a build keeps beside the site under its name (`.dist.builds` for
 * `dist`). Named by those rules rather than by the build's own paths, which change with its code.
 */
export function fresh(site: string, deploy?: string): string {
  for (const entry of [site, ...(deploy === undefined ? [] : [deploy]), join(root, 'node_modules/.astro')]) rmSync(entry, { recursive: true, force: true });
  const parent = dirname(resolve(site));
  const beside = `.${basename(resolve(site))}`;
  if (existsSync(parent)) {
    for (const entry of readdirSync(parent)) if (entry.startsWith(beside)) rmSync(join(parent, entry), { recursive: true, force: true });
  }
  return site;
}
export const buildOf = (file: string, rows: number) => () => {
  const deploy = join(out, `deploy-${rows}`);
  const site = fresh(join(out, `site-${rows}`), deploy);
  return measureBuild({ DATA_FILE: file, OUT_DIR: site, DEPLOY_DIR: deploy });
};
