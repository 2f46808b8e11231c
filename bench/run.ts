/**
 * `npm run bench`: the benchmark suite (not part of the tests). Generates synthetic CSVs, measures
 * the whole build (wall time, peak RSS, median of several runs where the size allows) beside a
 * framework-free floor, validation alone, and the preview server's throughput against nginx, then
 * writes the figures into BENCHMARKS.md between its bench markers.
 *
 *   node bench/run.ts [--sizes=10000,100000,1000000] [--runs=3] [--no-throughput] [--only=build,peers,incremental,search] [--search-sizes=100000] [--search-shape=wide] [--no-rest]
 *
 * It first removes what earlier runs left and waits six minutes for the disk (see `clearOutputs`), then,
 * before that wait, stops where the build, peers and incremental sections would not fit on the disk (`ensureRoomFor`).
 *
 * The incremental part's own options (shapes of data, sizes, a smoke run) are in bench/incremental.ts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, totalmem, release } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { incrementalFigures, incrementalRowsKept, incrementalSmoke } from './incremental.ts';
import { searchSection } from './search.ts';
import { peersSection } from './peers.ts';
import { LANGUAGES } from '../src/listing/languages.ts';
import { counted } from '../src/listing/format.ts';
import {
  buildOf,
  clearOutputs,
  ensureRoomFor,
  dataFile,
  fresh,
  maxRuns,
  measure,
  median,
  mib,
  option,
  out,
  repeat,
  root,
  runsFor,
  seconds,
  sections,
  sizes,
  verdict,
} from './lib.ts';

const throughput = !process.argv.includes('--no-throughput');

const floorOf = (file: string, rows: number) => () => measure('bench/floor.ts', [file, fresh(join(out, `floor-${rows}`))]);

interface Throughput {
  rate: number;
  requests: number;
  /** Socket errors and timeouts plus non-2xx answers: reported, not fatal, so one reset on a noisy machine does not discard a long run. */
  failures: number;
}

async function requestsPerSecond(url: string): Promise<Throughput> {
  const rates: number[] = [];
  let requests = 0;
  let failures = 0;
  for (let run = 0; run < 3; run += 1) {
    const result = await autocannon({ url, connections: 10, duration: 5 });
    rates.push(result.requests.average);
    requests += result.requests.total;
    failures += result.errors + result.non2xx;
    if (result.errors > 0 || result.non2xx > 0)
      console.error(`${url}: ${result.errors} errors (${result.timeouts} timeouts), ${result.non2xx} non-2xx`);
  }
  return { rate: median(rates), requests, failures };
}

async function serverThroughput(siteRows: number) {
  const { startPreview, freePort } = await import('../scripts/lib/servers.ts');
  const { hasNginx, startNginx } = await import('../scripts/lib/nginx.ts');
  const site = join(out, `site-${siteRows}`);
  const urls = ['/car/api/capture_car/latest/page/42', '/car/api/capture_car/latest?format=api&page=42'];
  const preview = await startPreview({ OUT_DIR: site, PORT: String(await freePort()) });
  const previewRates: Throughput[] = [];
  for (const url of urls) previewRates.push(await requestsPerSecond(`${preview.origin}${url}`));
  await preview.stop();
  let nginxRates: Throughput[] | undefined;
  if (hasNginx) {
    const nginx = await startNginx(join(out, `deploy-${siteRows}`));
    nginxRates = [];
    for (const url of urls) nginxRates.push(await requestsPerSecond(`${nginx.origin}${url}`));
    await nginx.stop();
  }
  return { urls, previewRates, nginxRates };
}

/** Clean builds at each size beside the floor, validation alone, and the servers: the main table. */
async function buildFigures(): Promise<string[]> {
  const results = new Map<number, { build: Awaited<ReturnType<typeof repeat>>; floor: Awaited<ReturnType<typeof repeat>> }>();
  const empty = await dataFile(0);
  const fixed = await repeat(maxRuns, buildOf(empty, 0));
  console.error(`fixed cost: ${seconds(fixed.seconds)}`);
  for (const rows of sizes) {
    const file = await dataFile(rows);
    const floor = await repeat(runsFor(rows), floorOf(file, rows));
    const build = await repeat(runsFor(rows), buildOf(file, rows));
    console.error(`${rows} rows: build ${seconds(build.seconds)} (${mib(build.rssBytes)}), floor ${seconds(floor.seconds)}`);
    results.set(rows, { build, floor });
  }
  const largest = Math.max(...sizes);
  const validation = await repeat(runsFor(largest), () => measure('scripts/check-data.ts', [join(out, `rows-${largest}.csv`)]));
  console.error(`validation of ${largest} rows: ${seconds(validation.seconds)}`);
  const servers = throughput && results.has(10_000) ? await serverThroughput(10_000) : undefined;

  const lines: string[] = [];
  const cpu = cpus();
  lines.push(
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench\` on ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ` +
      `${mib(totalmem())} memory (${mib(freemem())} free at the end), Linux ${release()}, Node ${process.version}. ` +
      "Builds run as `npm run build` (npm's own start-up, about 0.3 s, included). " +
      'Wall time and peak RSS (getrusage maxrss of the build process, from its JSON report; the esbuild helper process is not counted) are medians ' +
      `of ${maxRuns} runs, 1 run at 1M rows. The machine is shared and noisy: read ratios, not digits.`,
    '',
    '| rows | pages (JSON + HTML) | build: median wall | build: peak RSS | floor: median wall | floor: peak RSS | build ÷ floor | runs (build, s) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    `| 0 (header only) | 1 + ${LANGUAGES.length} | ${seconds(fixed.seconds)} | ${mib(fixed.rssBytes)} | – | – | – | ${fixed.all.map((value) => value.toFixed(1)).join(', ')} |`,
  );
  for (const [rows, { build, floor }] of results) {
    const pages = Math.max(1, Math.ceil(rows / 10));
    lines.push(
      `| ${counted(rows)} | ${counted(pages)} + ${counted(pages * LANGUAGES.length)} | ${seconds(build.seconds)} | ${mib(build.rssBytes)} | ` +
        `${seconds(floor.seconds)} | ${mib(floor.rssBytes)} | ${(build.seconds / floor.seconds).toFixed(1)}× | ${build.all.map((value) => value.toFixed(1)).join(', ')} |`,
    );
  }
  const phaseNames = [
    ...new Set([fixed, ...[...results.values()].map(({ build }) => build)].flatMap((build) => build.phases.map(([name]) => name))),
  ];
  if (phaseNames.length > 0) {
    lines.push('', "### Where the build's time goes (its own JSON report, median of the runs)\n");
    lines.push(
      `| rows | ${phaseNames.join(' | ')} | listing pages per page file |`,
      `| ---: | ${phaseNames.map(() => '---:').join(' | ')} | ---: |`,
    );
    for (const [rows, build] of [[0, fixed] as const, ...[...results].map(([rows, { build }]) => [rows, build] as const)]) {
      const seconds = (name: string) => build.phases.find(([other]) => other === name)?.[1];
      const written = seconds('listing pages');
      const files = (1 + LANGUAGES.length) * Math.max(1, Math.ceil(rows / 10));
      lines.push(
        `| ${counted(rows)} | ${phaseNames.map((name) => (seconds(name) === undefined ? '–' : `${seconds(name)!.toFixed(1)} s`)).join(' | ')} | ${written === undefined || rows === 0 ? '–' : `${((written * 1e6) / files).toFixed(0)} µs`} |`,
      );
    }
  }
  lines.push('', '### Cost per row above the fixed cost, against the floor\n');
  lines.push('| step | build Δ | floor Δ | ratio (target ≤ 2×) |', '| --- | ---: | ---: | ---: |');
  const ordered = [...results.keys()].sort((a, b) => a - b);
  for (let index = 1; index < ordered.length; index += 1) {
    const low = results.get(ordered[index - 1]!)!;
    const high = results.get(ordered[index]!)!;
    const buildDelta = high.build.seconds - low.build.seconds;
    const floorDelta = high.floor.seconds - low.floor.seconds;
    const ratio = buildDelta / floorDelta;
    lines.push(
      `| ${counted(ordered[index - 1]!)} → ${counted(ordered[index]!)} | ${seconds(buildDelta)} | ${seconds(floorDelta)} | ${ratio.toFixed(1)}× (${verdict(ratio <= 2)}) |`,
    );
  }
  lines.push('', '### Targets\n', '| target | measured | verdict |', '| --- | --- | --- |');
  const million = results.get(1_000_000);
  if (million) {
    lines.push(
      `| 1M rows built (JSON and HTML, both languages) in ≤ 60 s | ${seconds(million.build.seconds)} | ${verdict(million.build.seconds <= 60)} |`,
    );
    lines.push(
      `| 1M rows in ≤ 1.5 GiB peak memory | ${mib(million.build.rssBytes)} | ${verdict(million.build.rssBytes <= 1.5 * 1024 ** 3)} |`,
    );
    const pagesPhase = million.build.phases.find(([name]) => name === 'listing pages')?.[1];
    if (pagesPhase !== undefined)
      lines.push(
        `| the listing pages' phase at 1M no longer than the floor's whole 1M build | ${seconds(pagesPhase)} against ${seconds(million.floor.seconds)} | ${verdict(pagesPhase <= million.floor.seconds)} |`,
      );
  }
  lines.push(`| fixed cost (header-only build) ≤ 3 s | ${seconds(fixed.seconds)} | ${verdict(fixed.seconds <= 3)} |`);
  lines.push(
    `| validation of ${counted(largest)} rows ≤ 5 s${largest === 1_000_000 ? '' : ' (at 1M)'} | ${seconds(validation.seconds)} (peak ${mib(validation.rssBytes)}) | ${largest === 1_000_000 ? verdict(validation.seconds <= 5) : 'not measured at 1M'} |`,
  );
  if (ordered.length >= 2) {
    // Linear (or better): the cost per row above the fixed cost does not grow with the size.
    const perRow = ordered.map((rows) => (results.get(rows)!.build.seconds - fixed.seconds) / rows);
    const growth = Math.max(...perRow.slice(1).map((cost, index) => cost / perRow[index]!));
    lines.push(
      `| cost linear in rows | ${perRow.map((value, index) => `${(value * 1e6).toFixed(0)} µs/row at ${counted(ordered[index]!)}`).join(', ')} above the fixed cost (largest growth ×${growth.toFixed(2)} from one size to the next) | ${verdict(growth <= 1.5)} |`,
    );
  }
  if (servers) {
    lines.push('', '### Preview server against nginx (same 10k-row site, autocannon, 10 connections, 5 s, median of 3)\n');
    lines.push(
      '| URL | preview req/s | nginx req/s | preview ÷ nginx (target ≥ 0.5) | failed requests (preview, nginx) |',
      '| --- | ---: | ---: | ---: | ---: |',
    );
    const failed = (sample: Throughput | undefined) => (sample === undefined ? '–' : `${sample.failures} of ${counted(sample.requests)}`);
    servers.urls.forEach((url, index) => {
      const preview = servers.previewRates[index]!;
      const nginx = servers.nginxRates?.[index];
      lines.push(
        `| \`${url}\` | ${preview.rate.toFixed(0)} | ${nginx === undefined ? 'nginx not installed' : nginx.rate.toFixed(0)} | ` +
          `${nginx === undefined ? '–' : `${(preview.rate / nginx.rate).toFixed(2)} (${verdict(preview.rate / nginx.rate >= 0.5)})`} | ${failed(preview)}, ${failed(nginx)} |`,
      );
    });
  }

  return lines;
}

/** Replaces the figures between `<!-- bench:NAME:start -->` and its end marker (`bench:start` for the main table). */
function writeBlock(name: string, lines: readonly string[]): void {
  const report = join(root, 'BENCHMARKS.md');
  const [open, close] =
    name === '' ? ['<!-- bench:start -->', '<!-- bench:end -->'] : [`<!-- bench:${name}:start -->`, `<!-- bench:${name}:end -->`];
  let existing = existsSync(report) ? readFileSync(report, 'utf8') : '# Benchmarks\n';
  if (!existing.includes(open)) existing = `${existing.trimEnd()}\n\n${open}\n${close}\n`;
  const start = existing.indexOf(open);
  const end = existing.indexOf(close);
  writeFileSync(report, `${existing.slice(0, start)}${open}\n${lines.join('\n')}\n${existing.slice(end)}`);
  console.error(`wrote ${report} (${name || 'main'} figures)`);
}

mkdirSync(out, { recursive: true });
// The search section alone measures the sites an earlier run left (and builds those missing).
// The disk is checked once the earlier runs' outputs are gone, before the rest.
const ensureRoom = () => ensureRoomFor(sections, sizes, sections.includes('incremental') ? incrementalRowsKept() : 0);
if (sections.includes('build') || sections.includes('peers') || sections.includes('incremental')) await clearOutputs(ensureRoom);
else ensureRoom();
if (sections.includes('build')) writeBlock('', await buildFigures());
if (sections.includes('peers')) writeBlock('peers', await peersSection(sizes));
if (sections.includes('incremental')) {
  const lines = await incrementalFigures();
  const file = join(out, 'incremental.md');
  writeFileSync(file, `${lines.join('\n')}\n`);
  console.error(`wrote ${file}`);
  if (incrementalSmoke) console.error('a smoke run (other sizes or shapes than the targets name): BENCHMARKS.md left as it was');
  else writeBlock('incremental', lines);
}
// In a phone's browser: 100k rows unless --search-sizes says otherwise (the 1M site takes 5 GiB); the wide shape's figures in their own block.
if (sections.includes('search'))
  writeBlock(
    option('search-shape') === 'wide' ? 'search-wide' : 'search',
    await searchSection((option('search-sizes') ?? '100000').split(',').map(Number)),
  );
