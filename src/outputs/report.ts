/**
 * What a build did, for machines and for people: the report `npm run build` writes as JSON (to
 * REPORT_FILE) and prints as one screen from the same object. The bench reads the JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { pageCount } from '../listing/pagination.ts';
import { counted } from '../listing/format.ts';
import { LANGUAGES } from '../listing/languages.ts';
import { unstatedInfo, type Publisher } from '../listing/publisher.ts';

const buildReportSchema = z.object({
  /** The build's id (the manifest's `buildId`), and the build that last changed a published file (`changedBy`: this one, unless it changed none). */
  buildId: z.string(),
  changedBy: z.string(),
  outDir: z.string(),
  dataFile: z.string(),
  rows: z.number().int().nonnegative(),
  pages: z.object({ json: z.number().int(), html: z.number().int() }),
  /** The pages this build rendered; the others are the published build's, kept (an edit renders only the pages that show it). */
  rendered: z.object({ json: z.number().int(), html: z.number().int() }),
  /** Wall time of the whole build, and of each phase in order (start, pages (Astro), …). */
  seconds: z.number(),
  phases: z.array(z.tuple([z.string(), z.number()])),
  /** Phases run on the data's worker thread during the first phase, `start` (Astro's own start and bundle). */
  besidePhases: z.array(z.tuple([z.string(), z.number()])),
  /** The build process's peak resident set size (getrusage maxrss). */
  peakMemoryBytes: z.number().int(),
  /** Files and bytes in the published site. */
  files: z.number().int(),
  bytes: z.number().int(),
  /** What changed against the site it replaced (rows, pages, downloads); changes.json has the detail. */
  changes: z.string(),
  /** Files of the site whose bytes are those of the site it replaced (they keep its modification time). */
  unchangedFiles: z.number().int(),
  /** Whether the data was validated by this build (false: the same file was prepared by an earlier one). */
  dataValidated: z.boolean(),
  /** False where the published build was current and nothing was built (src/publish/current.ts): the report is the published build's. */
  built: z.boolean(),
  /** What /openapi.json does not state that the linters' default rules ask for, as `info` paths (src/listing/publisher.ts): none where API_CONTACT and API_LICENSE state it all. */
  openApiUnstated: z.array(z.string()),
});

export type BuildReport = z.infer<typeof buildReportSchema>;

/** Times the phases of a build, in order, and those run beside them on another thread. */
export class PhaseClock {
  readonly started = performance.now();
  readonly phases: [string, number][] = [];
  readonly besidePhases: [string, number][] = [];
  private phaseStarted = this.started;

  /** A phase that ran on another thread during the phase under way, timed there. */
  beside(name: string, seconds: number): void {
    this.besidePhases.push([name, seconds]);
  }

  end(name: string): void {
    const now = performance.now();
    this.phases.push([name, (now - this.phaseStarted) / 1000]);
    this.phaseStarted = now;
  }

  get seconds(): number {
    return (performance.now() - this.started) / 1000;
  }
}

/**
 * Reports a finished build, timed by `clock`: `outcome` says what it published, and where; the
 * report is written to `reportFile` as JSON and said as one screen (`publisher`: what its
 * /openapi.json states).
 */
export function reportBuild(
  clock: PhaseClock,
  outcome: Omit<BuildReport, 'pages' | 'seconds' | 'phases' | 'besidePhases' | 'peakMemoryBytes' | 'openApiUnstated'>,
  { reportFile, ...publisher }: Publisher & { reportFile: string },
): void {
  const pages = pageCount(outcome.rows);
  // Parsed by its schema, which gives the JSON its fields in the schema's order, whatever `outcome`'s.
  const report = buildReportSchema.parse({
    ...outcome,
    pages: { json: pages, html: pages * LANGUAGES.length },
    seconds: clock.seconds,
    phases: clock.phases,
    besidePhases: clock.besidePhases,
    peakMemoryBytes: process.resourceUsage().maxRSS * 1024,
    openApiUnstated: unstatedInfo(publisher),
  });
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
  console.error(formatBuildReport(report));
}

export function readBuildReport(file: string): BuildReport {
  return buildReportSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

const seconds = (value: number) => `${value.toFixed(1)} s`;

/** How many of the pages this build rendered, where it kept some of the published build's. */
function renderedNote({ pages, rendered }: BuildReport): string {
  if (rendered.json === pages.json && rendered.html === pages.html) return '';
  return ` (rendered ${counted(rendered.json)} JSON + ${counted(rendered.html)} HTML, the others kept from the published build)`;
}

/** The variables that state what /openapi.json lacks (`openApiUnstated`). */
const UNSTATED_BY = { contact: 'API_CONTACT', license: 'API_LICENSE' } as const;

/** Where /openapi.json lacks what the linters' default rules ask for: one line that says so, and what to set. */
function unstatedLine({ openApiUnstated }: BuildReport): string[] {
  if (openApiUnstated.length === 0) return [];
  const variables = new Set(openApiUnstated.map((path) => UNSTATED_BY[path.startsWith('contact') ? 'contact' : 'license']));
  return [
    `  openapi.json  no ${openApiUnstated.map((path) => `info.${path}`).join(', ')}: linters on their default rules warn for want of ${openApiUnstated.length === 1 ? 'it' : 'them'} (${[...variables].join(', ')}, README's Configuration)`,
  ];
}

/** The one screen a build ends with. */
export function formatBuildReport(report: BuildReport): string {
  const list = (phases: [string, number][]) => phases.map(([name, duration]) => `${name} ${seconds(duration)}`).join(', ');
  const beside = report.besidePhases.length > 0 ? ` [on another thread meanwhile: ${list(report.besidePhases)}]` : '';
  // The phases beside ran during the first one.
  const phases = report.phases.map(([name, duration], index) => `${name} ${seconds(duration)}${index === 0 ? beside : ''}`).join(', ');
  if (!report.built)
    return [
      '',
      `Nothing to build: ${report.outDir}/ is current (build ${report.buildId}, built from this data, code and settings, its folders as published). FULL_BUILD=1 builds anyway.`,
      `  rows          ${counted(report.rows)}`,
      `  files         ${counted(report.files)}`,
      `  bytes         ${(report.bytes / 1_048_576).toFixed(1)} MiB`,
      `  time          ${seconds(report.seconds)}${phases ? ` (${phases})` : ''}`,
      ...unstatedLine(report),
    ].join('\n');
  return [
    '',
    `Built ${report.outDir}/: build ${report.buildId}${report.changedBy === report.buildId ? '' : ` (no published file changed: the files of build ${report.changedBy})`}`,
    `  rows          ${counted(report.rows)}${report.dataValidated ? '' : ' (data unchanged since an earlier build: not validated again)'}`,
    `  pages         ${counted(report.pages.json)} JSON + ${counted(report.pages.html)} HTML${renderedNote(report)}`,
    `  files         ${counted(report.files)} (${counted(report.unchangedFiles)} unchanged, keeping their published time)`,
    `  bytes         ${(report.bytes / 1_048_576).toFixed(1)} MiB`,
    `  time          ${seconds(report.seconds)}${phases ? ` (${phases})` : ''}`,
    `  peak memory   ${(report.peakMemoryBytes / 1_048_576).toFixed(0)} MiB`,
    `  changes       ${report.changes}`,
    ...unstatedLine(report),
  ].join('\n');
}

/**
 * Every few seconds, how far the listing pages' writers have gone through the listing's `pages`
 * (src/outputs/listing-pages.ts, as they count them): the page folders read instead held 100,000
 * entries each at a million rows, read again at each line.
 */
export function reportPagesWritten(goneThrough: () => number, pages: number): NodeJS.Timeout {
  const started = performance.now();
  const timer = setInterval(() => {
    const elapsed = ((performance.now() - started) / 1000).toFixed(0);
    console.error(`  ${elapsed} s: the listing's pages written up to page ${counted(goneThrough())} of ${counted(pages)}`);
  }, 5000);
  timer.unref();
  return timer;
}
