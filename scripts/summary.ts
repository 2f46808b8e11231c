/** The one-screen report at the end of a build: rows, pages, files and bytes written, time. */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pageCount } from '../src/lib/listing.ts';
import { htmlPagePath, pageFile } from '../src/lib/routes.ts';

const countEntries = (dir: string) => {
  try {
    return readdirSync(dir).length;
  } catch {
    return 0;
  }
};

/** Every few seconds, how many JSON and HTML pages the build has written into `staging`. */
export function reportPagesWritten(staging: string, pages: number, everyMs = 5000): NodeJS.Timeout {
  const jsonDir = join(staging, dirname(pageFile(1)));
  const htmlDir = join(staging, dirname(htmlPagePath(2)));
  const started = performance.now();
  const timer = setInterval(() => {
    const json = countEntries(jsonDir);
    const html = Math.min(pages, countEntries(htmlDir) + 1);
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.error(`  ${seconds} s: ${json.toLocaleString('en')} of ${pages.toLocaleString('en')} JSON pages, ${html.toLocaleString('en')} HTML pages written`);
  }, everyMs);
  timer.unref();
  return timer;
}

function tally(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(1)} s`;

/** `validate 1.0 s, pages (Astro) 9.0 s, …`: the phases as the closing report's time line lists them. */
const formatPhases = (phases: readonly [string, number][]) => phases.map(([name, duration]) => `${name} ${seconds(duration)}`).join(', ');

/** The phases (name, seconds) of a closing report's time line, for the bench; empty if it has none. */
export function phasesOfReport(report: string): [string, number][] {
  const line = /^ +time +[\d.]+ s \((.*)\)$/m.exec(report)?.[1];
  if (!line) return [];
  return [...line.matchAll(/([^,]+?) ([\d.]+) s(?:, |$)/g)].map((match) => [match[1]!.trim(), Number(match[2])]);
}

/** `phases`: each step of the build and its duration in milliseconds, in order. */
export function summariseBuild(outDir: string, rows: number, milliseconds: number, phases: readonly [string, number][] = []): string {
  const { files, bytes } = tally(outDir);
  return [
    '',
    `Built ${outDir}/`,
    `  rows          ${rows.toLocaleString('en')}`,
    `  pages         ${pageCount(rows).toLocaleString('en')} JSON + ${pageCount(rows).toLocaleString('en')} HTML`,
    `  files         ${files.toLocaleString('en')}`,
    `  bytes         ${(bytes / 1_048_576).toFixed(1)} MiB`,
    `  time          ${seconds(milliseconds)}${phases.length > 0 ? ` (${formatPhases(phases)})` : ''}`,
    `  peak memory   ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
  ].join('\n');
}
