/**
 * The incremental build's figures on several shapes of data, each rebuild beside the clean build it
 * is measured against, in the same run. For each shape: the header-only file's build (rebuilt: the
 * fixed cost a rebuild cannot go below); at 100k rows a clean build, a rebuild with nothing
 * changed, with 1 % of the prices changed spread through the file (every 100th row) and with 1 %
 * clustered (1,000 consecutive rows from the middle); what is kept on disk beside the published
 * site after them; `npm run dev` showing a saved one-row edit at 100k rows; and at 1M rows a clean
 * build, then one row's prices edited (the edit adds or removes no quote), with its time and peak
 * memory.
 *
 * Real exports quote differently, and how a rebuild finds what changed may depend on the file's
 * text, so each shape is measured (`scripts/generate.ts --quote`, same rows whatever the shape):
 * - `none`: no quote at all;
 * - `shipped`: data/captured-car-models.csv's ratio, 2 quoted lines in 259;
 * - `all`: every text field quoted and CR LF line ends, as spreadsheet exports write.
 *
 *   npm run bench -- --only=incremental [options]
 *   --shapes=none,shipped,all   the shapes measured, in that order (default: all three)
 *   --rows=N                    rows of the clean, unchanged and 1 % builds and of the dev server (default 100000)
 *   --million-rows=N            rows of the one-row edit (default 1000000)
 *   --million-shapes=LIST       the shapes (among --shapes) the one-row edit is measured on (default: all of them)
 *   --skip-million              no one-row edit (as --million-shapes= with nothing)
 *   --runs=N                    runs whose median is taken at --rows (default 3; the one-row edit runs once)
 * Figures go to bench/out/incremental.md; only a run at the default sizes and shapes replaces those
 * in BENCHMARKS.md, so that a smoke run (`--rows=2000 --skip-million`) cannot overwrite them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import { startDevServer } from '../scripts/lib/servers.ts';
import { FIELDS } from '../src/data/schema.ts';
import { QUIET_MS } from '../src/files/settled-read.ts';
import { counted } from '../src/listing/format.ts';
import { storeDirOf } from '../src/publish/store.ts';
import { isQuoteShape, QUOTE_SHAPES, type CsvStyle, type QuoteShape } from '../scripts/generate.ts';
import {
  dataFile,
  fresh,
  maxRuns,
  measureBuild,
  median,
  mib,
  option,
  out,
  repeat,
  restAfterRemovals,
  root,
  seconds,
  verdict,
  type Sample,
} from './lib.ts';

const SHAPE_STYLES: Record<QuoteShape, { style: CsvStyle; description: string }> = {
  none: { style: { quote: 'none' }, description: 'no quotes at all (no name holds a comma or a quote), LF line ends' },
  shipped: {
    style: { quote: 'shipped' },
    description:
      'quoted lines in the ratio of data/captured-car-models.csv (2 in 259, a comma or doubled quotes in the name), LF line ends',
  },
  // Spreadsheets that quote every text cell are Windows tools as often as not: their line ends too.
  all: {
    style: { quote: 'all', crlf: true },
    description: 'every text field quoted (header, names, logos, empty ones too), CR LF line ends',
  },
};

const DEFAULT_ROWS = 100_000;
const DEFAULT_MILLION_ROWS = 1_000_000;

function shapesOption(name: string, fallback: readonly QuoteShape[]): QuoteShape[] {
  const text = option(name);
  if (text === undefined) return [...fallback];
  const shapes = text.split(',').filter((shape) => shape !== '');
  const unknown = shapes.filter((shape) => !isQuoteShape(shape));
  if (unknown.length > 0) throw new Error(`--${name}: unknown shape ${unknown.join(', ')} (known: ${QUOTE_SHAPES.join(', ')})`);
  return shapes.filter(isQuoteShape);
}

function rowsOption(name: string, fallback: number): number {
  const text = option(name);
  if (text === undefined) return fallback;
  // Below 100 rows an edit of every 100th row, or of 1 % of them, edits nothing.
  if (!/^\d+$/.test(text) || Number(text) < 100) throw new Error(`--${name} must be a whole number of at least 100, not ${text}`);
  return Number(text);
}

const shapes = shapesOption('shapes', QUOTE_SHAPES);
const rows = rowsOption('rows', DEFAULT_ROWS);
const millionRows = rowsOption('million-rows', DEFAULT_MILLION_ROWS);
const millionShapes = process.argv.includes('--skip-million') ? [] : shapesOption('million-shapes', shapes);
if (millionShapes.some((shape) => !shapes.includes(shape)))
  throw new Error("--million-shapes must be among --shapes: the one-row edit is measured beside its shape's other figures");
/** A run at other sizes or on fewer shapes than the targets name: its figures must not replace the real ones. */
export const incrementalSmoke =
  rows !== DEFAULT_ROWS ||
  millionRows !== DEFAULT_MILLION_ROWS ||
  QUOTE_SHAPES.some((shape) => !shapes.includes(shape) || !millionShapes.includes(shape));

/** A difference in seconds, signed: a build faster than the header-only one reads −0.1 s, not +-0.1 s. */
const signedSeconds = (value: number) => `${value < 0 && value.toFixed(1) !== '-0.0' ? '−' : '+'}${seconds(Math.abs(value))}`;
/** A share in whole percent; a rounded −0 reads 0 (a build a hair faster than the header-only one), and nothing else is hidden (a NaN stays one). */
const percent = (part: number, whole: number) => {
  const rounded = Number(((part / whole) * 100).toFixed(0));
  return `${rounded === 0 ? 0 : rounded} %`;
};

const MIN_PRICE = FIELDS.indexOf('min_price');
const MAX_PRICE = FIELDS.indexOf('max_price');
const NAME = FIELDS.indexOf('combined_car_model');
const needsQuotes = (cell: string) => /[",\r\n]/.test(cell);
const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

/**
 * The CSV `csv` with the rows `pick` selects (0 is the first row after the header) changed by
 * `change`, every other byte as it was. Rows are read with csv-parse, so a row with quoted fields
 * is edited like any other; a changed row is written back in the file's own style: a field quoted
 * before is quoted again (a quoted file stays quoted), one that now needs quotes gets them, and
 * the row keeps its line end. Comma-separated files only, as the generator writes.
 */
function editRows(csv: Buffer, pick: (row: number) => boolean, change: (cells: string[]) => void): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  let row = -1;
  parse(csv, {
    skip_empty_lines: true,
    on_record: (_record: string[], { bytes }) => {
      const source = csv.subarray(start, bytes);
      start = bytes;
      if (row >= 0 && pick(row)) parts.push(rewritten(source, change));
      else parts.push(source);
      row += 1;
      // Nothing is kept: a million parsed rows would cost the bench a gigabyte it does not need.
      return null;
    },
  });
  parts.push(csv.subarray(start));
  return Buffer.concat(parts);
}

/** One record's bytes (blank lines before it and its line end included) with its cells changed. */
function rewritten(source: Buffer, change: (cells: string[]) => void): Buffer {
  const text = source.toString('utf8');
  const lead = /^[\r\n]*/.exec(text)![0];
  const end = /\r?\n$/.exec(text)?.[0] ?? '';
  // Parsed again on its own to learn which fields were quoted: only the few edited rows pay for it.
  const wasQuoted: boolean[] = [];
  const [cells] = parse(text.slice(lead.length), {
    cast: (value, { quoting }) => {
      wasQuoted.push(quoting);
      return value;
    },
  });
  if (!cells) throw new Error(`cannot parse ${JSON.stringify(text)}`);
  change(cells);
  const line = cells.map((value, field) => (wasQuoted[field] === true || needsQuotes(value) ? quoted(value) : value)).join(',');
  return Buffer.from(`${lead}${line}${end}`);
}

/** Raises the row's min and max prices by `raise` alike, so that min ≤ max holds. */
const raisePrices = (raise: number) => (cells: string[]) => {
  cells[MIN_PRICE] = String(Number(cells[MIN_PRICE]) + raise);
  cells[MAX_PRICE] = String(Number(cells[MAX_PRICE]) + raise);
};

// The shape last, so that no site's name starts with another's (`fresh` clears `.NAME*` beside it).
const siteOf = (shape: QuoteShape, size: number) => join(out, `incremental-${size}-${shape}`);
const deployOf = (shape: QuoteShape, size: number) => join(out, `incremental-deploy-${size}-${shape}`);
const buildEnv = (file: string, shape: QuoteShape, size: number) => ({
  DATA_FILE: file,
  OUT_DIR: siteOf(shape, size),
  DEPLOY_DIR: deployOf(shape, size),
});

type Measured = Awaited<ReturnType<typeof repeat>>;

interface ShapeFigures {
  shape: QuoteShape;
  /** The header-only file's build, rebuilt over its own site. */
  headerOnly: Measured;
  clean: Measured;
  unchanged: Measured;
  spread: Measured;
  clustered: Measured;
  cluster: { first: number; rows: number };
  disk: DiskUse;
  dev: number[];
  million?: { clean: Sample; edit: Sample; row: number };
}

/**
 * Each run of an edit writes `edited(run)` and measures a build of it, then builds the original
 * file again outside the measurement, so that every run is an edit of the same published file.
 */
async function editRuns(shape: QuoteShape, file: string, name: string, edited: (source: Buffer, run: number) => Buffer): Promise<Measured> {
  const source = readFileSync(file);
  const editedFile = join(out, `incremental-${rows}-${shape}-${name}.csv`);
  let run = 0;
  return repeat(maxRuns, async () => {
    writeFileSync(editedFile, edited(source, run++));
    // A maintainer saves, then starts the build: not within the moment a build waits for a file
    // to be still before it reads it (src/files/settled-read.ts), which would be measured here.
    await sleep(QUIET_MS + 100);
    const sample = await measureBuild(buildEnv(editedFile, shape, rows));
    await measureBuild(buildEnv(file, shape, rows));
    return sample;
  });
}

/** Bytes on disk of the published site, and of what is kept beside it. */
interface DiskUse {
  site: number;
  beside: number;
}

/**
 * What `du` counts (blocks, each hard link once) for the site published at `site`, and beyond it
 * for its build store (the build before it, host files, Vercel's copy) and the project's cache
 * folder (the preparations, Astro's own cache).
 */
function diskUse(site: string): DiskUse {
  const beside = [storeDirOf(site), join(root, 'node_modules/.astro')].filter((path) => existsSync(path));
  // -D: the site is a link to the published build's folder; -k: KiB; one line per argument, in order.
  const lines = execFileSync('du', ['-skD', site, ...beside], { encoding: 'utf8' })
    .trim()
    .split('\n');
  const [siteBytes = 0, ...others] = lines.map((line) => Number(line.split('\t')[0]) * 1024);
  return { site: siteBytes, beside: others.reduce((sum, bytes) => sum + bytes, 0) };
}

/** Header-only, clean builds, nothing changed, 1 % spread and 1 % clustered, at `rows` rows of `shape`; then the disk. */
async function rebuilds(shape: QuoteShape) {
  const header = await dataFile(0, SHAPE_STYLES[shape].style);
  fresh(siteOf(shape, 0), deployOf(shape, 0));
  // Built once before it is measured: the measured builds are rebuilds, as the others are; built in
  // full (FULL_BUILD=1), as the floor every build stands on, where the published build is current.
  const headerEnv = { ...buildEnv(header, shape, 0), FULL_BUILD: '1' };
  await measureBuild(headerEnv);
  const headerOnly = await repeat(maxRuns, () => measureBuild(headerEnv));
  console.error(`${shape}: header only ${seconds(headerOnly.seconds)}`);
  const file = await dataFile(rows, SHAPE_STYLES[shape].style);
  const clean = await repeat(maxRuns, () => {
    fresh(siteOf(shape, rows), deployOf(shape, rows));
    return measureBuild(buildEnv(file, shape, rows));
  });
  console.error(`${shape}: clean ${seconds(clean.seconds)}`);
  const unchanged = await repeat(maxRuns, () => measureBuild(buildEnv(file, shape, rows)));
  console.error(`${shape}: nothing changed ${seconds(unchanged.seconds)}`);
  // Another 1 % each run, so that no run finds its data prepared by an earlier one.
  const spread = await editRuns(shape, file, 'spread', (source, run) =>
    editRows(source, (row) => row % 100 === run % 100, raisePrices(1000)),
  );
  console.error(`${shape}: 1 % spread ${seconds(spread.seconds)}`);
  const clusterRows = Math.ceil(rows / 100);
  const first = Math.floor((rows - clusterRows) / 2);
  // The same rows each run, raised by another amount: the same pages change, with other data.
  const clustered = await editRuns(shape, file, 'clustered', (source, run) =>
    editRows(source, (row) => row >= first && row < first + clusterRows, raisePrices(1000 * (run + 1))),
  );
  console.error(`${shape}: 1 % clustered ${seconds(clustered.seconds)}`);
  const disk = diskUse(siteOf(shape, rows));
  console.error(`${shape}: site ${mib(disk.site)}, beside it ${mib(disk.beside)}`);
  return { headerOnly, clean, unchanged, spread, clustered, cluster: { first, rows: clusterRows }, disk };
}

/**
 * The rows whose builds this section keeps on disk at once: at `rows`, each shape's clean builds
 * (each moved aside, see `fresh`) and its rebuilt site; at `millionRows`, one shape's site at a
 * time (see `setAsideMillion`).
 */
export function incrementalRowsKept(): number {
  return shapes.length * (maxRuns + 1) * rows + (millionShapes.length > 0 ? millionRows : 0);
}

/**
 * Removes a shape's million-row site once it is measured, where another shape's follows: three of
 * them did not fit this machine's disk. Then rests as `clearOutputs` does, so that the removal
 * (hundreds of thousands of files) is not measured in the next builds (docs/performance.md).
 */
async function setAsideMillion(shape: QuoteShape): Promise<void> {
  if (shape === millionShapes.at(-1)) return;
  for (const path of [siteOf(shape, millionRows), deployOf(shape, millionRows), storeDirOf(siteOf(shape, millionRows))]) {
    rmSync(path, { recursive: true, force: true });
  }
  await restAfterRemovals(`${shape}: the ${counted(millionRows)}-row site removed`);
}

/** A clean build and a one-row edit after it, once each, at `millionRows` rows of `shape`. */
async function oneRowEdit(shape: QuoteShape): Promise<{ clean: Sample; edit: Sample; row: number }> {
  const file = await dataFile(millionRows, SHAPE_STYLES[shape].style);
  fresh(siteOf(shape, millionRows), deployOf(shape, millionRows));
  const clean = await measureBuild(buildEnv(file, shape, millionRows));
  console.error(`${shape}: ${counted(millionRows)} rows clean ${seconds(clean.seconds)} (${mib(clean.rssBytes)})`);
  const edited = join(out, `incremental-${millionRows}-${shape}-one-row.csv`);
  const row = Math.floor(millionRows / 2);
  writeFileSync(
    edited,
    editRows(readFileSync(file), (index) => index === row, raisePrices(1000)),
  );
  await sleep(QUIET_MS + 100);
  const edit = await measureBuild(buildEnv(edited, shape, millionRows));
  console.error(`${shape}: ${counted(millionRows)} rows one-row edit ${seconds(edit.seconds)} (${mib(edit.rssBytes)})`);
  await setAsideMillion(shape);
  return { clean, edit, row };
}

/** Seconds from writing an edited data file to `astro dev` serving the page with the edit, three times. */
async function devEdits(shape: QuoteShape): Promise<number[]> {
  const source = readFileSync(await dataFile(rows, SHAPE_STYLES[shape].style));
  // Outside bench/out, which the dev server's watcher ignores (astro.config.mjs).
  const dir = mkdtempSync(join(tmpdir(), 'bench-dev-'));
  const file = join(dir, `dev-${rows}-${shape}.csv`);
  writeFileSync(file, source);
  const dev = await startDevServer({ DATA_FILE: file });
  const page = async (path: string) => {
    try {
      const response = await fetch(`${dev.origin}${path}`);
      return response.ok ? await response.text() : '';
    } catch {
      return '';
    }
  };
  try {
    const times: number[] = [];
    for (let edit = 1; edit <= 3; edit += 1) {
      const row = Math.floor(rows / 2) + edit * 10;
      const marker = `Edited ${edit} ${Date.now()}`;
      const edited = editRows(
        source,
        (index) => index === row,
        (cells) => {
          cells[NAME] = `${marker} ${cells[NAME]}`;
        },
      );
      const path = `/page/${Math.floor(row / 10) + 1}/`;
      const written = performance.now();
      writeFileSync(file, edited);
      while (!(await page(path)).includes(marker)) {
        if (performance.now() - written > 60_000) throw new Error(`astro dev did not show edit ${edit} (${shape})`);
        await sleep(25);
      }
      times.push((performance.now() - written) / 1000);
    }
    return times;
  } finally {
    await dev.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Nothing changed within 0.5 s of the header-only build; a 1 % edit within 25 % of a clean
 * build's time; a one-row edit at 1M rows in 5 s and 1.5 GiB; dev within 1 s; kept beside the
 * site within 1.5 times the site.
 */
const TARGETS = { unchangedAbove: 0.5, onePercent: 0.25, editSeconds: 5, editBytes: 1.5 * 1024 ** 3, devSeconds: 1, diskRatio: 1.5 };

/** The table of one shape: medians, their share of the clean build measured in the same run, targets. */
function shapeTable(figures: ShapeFigures): string[] {
  const { shape, headerOnly, clean, unchanged, spread, clustered, cluster, disk, dev, million } = figures;
  const runs = (sample: { all: number[] }) => sample.all.map((value) => value.toFixed(1)).join(', ');
  const fixed = headerOnly.seconds;
  const above = (sample: Measured) =>
    `${signedSeconds(sample.seconds - fixed)} (${percent(sample.seconds - fixed, clean.seconds - fixed)})`;
  const pages = (sample: Sample) => (sample.rendered ? `${counted(sample.rendered.json)} + ${counted(sample.rendered.html)}` : '–');
  const row = (sample: Measured, target: string, met: boolean) =>
    `| ${pages(sample)} | ${seconds(sample.seconds)} | ${above(sample)} | ${mib(sample.rssBytes)} | ${runs(sample)} | ${target} | ${verdict(met)} |`;
  const onePercent = (sample: Measured) =>
    row(sample, `≤ ${TARGETS.onePercent * 100} %`, sample.seconds / clean.seconds <= TARGETS.onePercent);
  const lines = [
    `### \`${shape}\`: ${SHAPE_STYLES[shape].description}`,
    '',
    "| build | pages rendered (JSON + HTML) | median wall | above the header-only build (share of the clean build's) | peak RSS | runs (s) | target | verdict |",
    '| --- | ---: | ---: | ---: | ---: | --- | --- | --- |',
    `| header only, rebuilt | ${pages(headerOnly)} | ${seconds(fixed)} | – | ${mib(headerOnly.rssBytes)} | ${runs(headerOnly)} | – | – |`,
    `| ${counted(rows)} rows, clean | ${pages(clean)} | ${seconds(clean.seconds)} | ${above(clean)} | ${mib(clean.rssBytes)} | ${runs(clean)} | – | – |`,
    `| ${counted(rows)} rows, nothing changed ${row(unchanged, `≤ +${seconds(TARGETS.unchangedAbove)}`, unchanged.seconds - fixed <= TARGETS.unchangedAbove)}`,
    `| ${counted(rows)} rows, 1 % of the prices changed, every 100th row ${onePercent(spread)}`,
    `| ${counted(rows)} rows, 1 % of the prices changed, rows ${counted(cluster.first + 1)}–${counted(cluster.first + cluster.rows)} ${onePercent(clustered)}`,
  ];
  if (million) {
    const { clean: bigClean, edit, row } = million;
    const ok = edit.seconds <= TARGETS.editSeconds && edit.rssBytes <= TARGETS.editBytes;
    lines.push(
      `| ${counted(millionRows)} rows, clean | ${pages(bigClean)} | ${seconds(bigClean.seconds)} | 100 % | ${mib(bigClean.rssBytes)} | 1 run | – | – |`,
      `| ${counted(millionRows)} rows, row ${counted(row + 1)}'s prices edited | ${pages(edit)} | ${seconds(edit.seconds)} | ${percent(edit.seconds, bigClean.seconds)} | ${mib(edit.rssBytes)} | 1 run | ≤ ${TARGETS.editSeconds} s, ≤ ${mib(TARGETS.editBytes)} | ${verdict(ok)} |`,
    );
  }
  lines.push(
    `| \`npm run dev\` shows a saved one-row edit, ${counted(rows)} rows (median of 3 edits) | – | ${seconds(median(dev))} | – | – | ${dev.map((value) => value.toFixed(1)).join(', ')} | ≤ ${TARGETS.devSeconds} s | ${verdict(median(dev) <= TARGETS.devSeconds)} |`,
    '',
    `On disk after these builds (\`du\`, each hard link once): the published site ${mib(disk.site)}; kept beside it (its build store's other builds, host files and Vercel's copy; \`node_modules/.astro\`: the preparations and Astro's cache) ${mib(disk.beside)}, ${(disk.beside / disk.site).toFixed(2)}× the site (target ≤ ${TARGETS.diskRatio}×: ${verdict(disk.beside <= TARGETS.diskRatio * disk.site)}).`,
    '',
    `Where the time goes (the builds' own JSON reports, medians):`,
    '',
  );
  const phases = (sample: Sample) => sample.phases.map(([name, value]) => `${name} ${seconds(value)}`).join(', ');
  lines.push(
    `- clean: ${phases(clean)}`,
    `- nothing changed: ${phases(unchanged)}`,
    `- 1 % spread: ${phases(spread)}`,
    `- 1 % clustered: ${phases(clustered)}`,
    ...(million
      ? [`- ${counted(millionRows)} clean: ${phases(million.clean)}`, `- ${counted(millionRows)} one row edited: ${phases(million.edit)}`]
      : []),
    '',
  );
  return lines;
}

/** Every target against every shape, at a glance. */
function summary(all: readonly ShapeFigures[]): string[] {
  const cells = (value: (figures: ShapeFigures) => string) => all.map(value).join(' | ');
  const share = (f: ShapeFigures, sample: Measured) => {
    const part = sample.seconds / f.clean.seconds;
    return `${(part * 100).toFixed(0)} % (${verdict(part <= TARGETS.onePercent)})`;
  };
  const lines = [
    '### Targets on every shape',
    '',
    `| target | ${all.map(({ shape }) => `\`${shape}\``).join(' | ')} |`,
    `| --- | ${all.map(() => '---').join(' | ')} |`,
    `| ${counted(rows)} rows, nothing changed ≤ the header-only build + ${seconds(TARGETS.unchangedAbove)} | ${cells((f) => `${signedSeconds(f.unchanged.seconds - f.headerOnly.seconds)} (${verdict(f.unchanged.seconds - f.headerOnly.seconds <= TARGETS.unchangedAbove)})`)} |`,
    `| ${counted(rows)} rows, 1 % of the prices changed (every 100th row) ≤ ${TARGETS.onePercent * 100} % of a clean build's time | ${cells((f) => share(f, f.spread))} |`,
    `| ${counted(rows)} rows, 1 % of the prices changed (consecutive rows): the same | ${cells((f) => share(f, f.clustered))} |`,
    `| ${counted(millionRows)} rows, one-row edit in ≤ ${TARGETS.editSeconds} s | ${cells((f) => (f.million ? `${seconds(f.million.edit.seconds)} (${verdict(f.million.edit.seconds <= TARGETS.editSeconds)})` : 'not measured'))} |`,
    `| ${counted(millionRows)} rows, one-row edit in ≤ ${mib(TARGETS.editBytes)} | ${cells((f) => (f.million ? `${mib(f.million.edit.rssBytes)} (${verdict(f.million.edit.rssBytes <= TARGETS.editBytes)})` : 'not measured'))} |`,
    `| \`npm run dev\` shows an edit at ${counted(rows)} rows in ≤ ${TARGETS.devSeconds} s (median of 3) | ${cells((f) => `${seconds(median(f.dev))} (${verdict(median(f.dev) <= TARGETS.devSeconds)})`)} |`,
    `| kept on disk beside the site ≤ ${TARGETS.diskRatio}× the site, ${counted(rows)} rows | ${cells((f) => `${(f.disk.beside / f.disk.site).toFixed(2)}× (${verdict(f.disk.beside <= TARGETS.diskRatio * f.disk.site)})`)} |`,
  ];
  return lines;
}

export async function incrementalFigures(): Promise<string[]> {
  const all: ShapeFigures[] = [];
  const tables: string[] = [];
  for (const shape of shapes) {
    const rebuilt = await rebuilds(shape);
    const dev = await devEdits(shape);
    console.error(`${shape}: dev at ${counted(rows)} rows ${dev.map(seconds).join(', ')}`);
    const million = millionShapes.includes(shape) ? await oneRowEdit(shape) : undefined;
    const figures: ShapeFigures = { shape, ...rebuilt, dev, ...(million ? { million } : {}) };
    all.push(figures);
    const table = shapeTable(figures);
    // Each shape's table as soon as it is measured: a full run takes hours.
    console.log(table.join('\n'));
    tables.push(...table);
  }
  const overview = summary(all);
  console.log(overview.join('\n'));
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench\` in one run, each rebuild beside the clean build of the same shape it is compared with. ` +
      'A clean build starts with no site, no deploy folder, no `node_modules/.astro` and nothing a build keeps beside the site; a rebuild builds over what the previous build left. ' +
      `Each edit is measured over the unedited file's build (the bench builds it again between runs). Medians of ${maxRuns} runs at ${counted(rows)} rows, one run at ${counted(millionRows)}.`,
    '',
    ...overview,
    '',
    ...tables,
  ];
}
