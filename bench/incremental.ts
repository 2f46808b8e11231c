/**
 * The incremental build's figures, each beside the clean build it is measured against, in one run:
 * at 100k rows a rebuild with nothing changed and with 1 % of the prices changed; at 1M rows a
 * one-row edit (time and peak memory); and how soon `astro dev` shows an edited row at 10k rows.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer } from '../scripts/lib/servers.ts';
import { dataFile, fresh, maxRuns, measureBuild, median, out, repeat, type Sample } from './lib.ts';

const seconds = (value: number) => `${value.toFixed(1)} s`;
const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MiB`;
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)} %`;

/**
 * The CSV's lines with the prices of the rows `pick` selects raised by `raise` (min and max alike,
 * so min ≤ max holds). Rows with a quoted field (a comma in a name) are left as they are.
 */
function withPrices(lines: readonly string[], pick: (index: number) => boolean, raise: number): string {
  const [header, ...rows] = lines;
  const changed = rows.map((line, index) => {
    if (!pick(index) || line.includes('"')) return line;
    const fields = line.split(',');
    fields[7] = String(Number(fields[7]) + raise);
    fields[8] = String(Number(fields[8]) + raise);
    return fields.join(',');
  });
  return `${[header, ...changed].join('\n')}\n`;
}

const readLines = (file: string) => readFileSync(file, 'utf8').replace(/\r?\n$/, '').split(/\r?\n/);

const site = (rows: number) => join(out, `incremental-${rows}`);
const buildEnv = (file: string, rows: number) => ({ DATA_FILE: file, OUT_DIR: site(rows), DEPLOY_DIR: join(out, `incremental-deploy-${rows}`) });

/** Clean build (no site, no cache), nothing changed, and 1 % of the prices changed, at `rows` rows. */
async function hundredThousand(rows: number) {
  const file = await dataFile(rows);
  const lines = readLines(file);
  const clean = await repeat(maxRuns, () => {
    fresh(site(rows));
    return measureBuild(buildEnv(file, rows));
  });
  const unchanged = await repeat(maxRuns, () => measureBuild(buildEnv(file, rows)));
  let run = 0;
  const onePercent = await repeat(maxRuns, async () => {
    // A different 1 % each run, so that no run finds its data prepared by an earlier one.
    const edited = join(out, `incremental-${rows}-prices.csv`);
    const offset = run++;
    writeFileSync(edited, withPrices(lines, (index) => index % 100 === offset, 1000));
    const sample = await measureBuild(buildEnv(edited, rows));
    await measureBuild(buildEnv(file, rows));
    return sample;
  });
  return { clean, unchanged, onePercent };
}

/** A clean build and a one-row edit after it, once each. */
async function oneRowEdit(rows: number): Promise<{ clean: Sample; edit: Sample }> {
  const file = await dataFile(rows);
  fresh(site(rows));
  const clean = await measureBuild(buildEnv(file, rows));
  const edited = join(out, `incremental-${rows}-one-row.csv`);
  const lines = readLines(file);
  // The first row from the middle on without a quoted field (withPrices leaves those alone).
  const row = lines.findIndex((line, index) => index > rows / 2 && !line.includes('"')) - 1;
  writeFileSync(edited, withPrices(lines, (index) => index === row, 1000));
  const edit = await measureBuild(buildEnv(edited, rows));
  return { clean, edit };
}

/** Seconds from writing an edited data file to `astro dev` serving the page with the edit, three times. */
async function devEdits(rows: number): Promise<number[]> {
  const source = readLines(await dataFile(rows));
  // Outside bench/out, which the dev server's watcher ignores (astro.config.mjs).
  const file = join(mkdtempSync(join(tmpdir(), 'bench-dev-')), `dev-${rows}.csv`);
  writeFileSync(file, `${source.join('\n')}\n`);
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
      const lines = [...source];
      // The marker goes at the start of the name: right whatever quoting the rest of the line has.
      lines[row + 1] = lines[row + 1]!.replace(/^(\d+),("?)/, `$1,$2${marker} `);
      const path = `/page/${Math.floor(row / 10) + 1}/`;
      const written = performance.now();
      writeFileSync(file, `${lines.join('\n')}\n`);
      while (!(await page(path)).includes(marker)) {
        if (performance.now() - written > 60_000) throw new Error(`astro dev did not show edit ${edit}`);
        await new Promise((wait) => setTimeout(wait, 25));
      }
      times.push((performance.now() - written) / 1000);
    }
    return times;
  } finally {
    await dev.stop();
  }
}

export async function incrementalFigures(): Promise<string[]> {
  const lines: string[] = [];
  const hundred = await hundredThousand(100_000);
  console.error(`100k: clean ${seconds(hundred.clean.seconds)}, unchanged ${seconds(hundred.unchanged.seconds)}, 1 % ${seconds(hundred.onePercent.seconds)}`);
  const million = await oneRowEdit(1_000_000);
  console.error(`1M: clean ${seconds(million.clean.seconds)}, one-row edit ${seconds(million.edit.seconds)} (${mib(million.edit.rssBytes)})`);
  const dev = await devEdits(10_000);
  console.error(`dev at 10k: ${dev.map(seconds).join(', ')}`);

  const runs = (sample: { all: number[] }) => sample.all.map((value) => value.toFixed(1)).join(', ');
  lines.push(
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench\` in one run, each rebuild beside the clean build it is compared with. ` +
      'A clean build starts with no site and no cache (no prepared data, no cached pages); a rebuild builds over the site and caches the previous build left. ' +
      `Medians of ${maxRuns} runs at 100k rows, one run at 1M rows; the phases are the builds' own JSON reports.`,
    '',
    '| build | wall time | share of the clean build | peak RSS | runs (s) |',
    '| --- | ---: | ---: | ---: | --- |',
    `| 100k rows, clean | ${seconds(hundred.clean.seconds)} | 100 % | ${mib(hundred.clean.rssBytes)} | ${runs(hundred.clean)} |`,
    `| 100k rows, nothing changed | ${seconds(hundred.unchanged.seconds)} | ${percent(hundred.unchanged.seconds, hundred.clean.seconds)} | ${mib(hundred.unchanged.rssBytes)} | ${runs(hundred.unchanged)} |`,
    `| 100k rows, 1 % of the prices changed | ${seconds(hundred.onePercent.seconds)} | ${percent(hundred.onePercent.seconds, hundred.clean.seconds)} | ${mib(hundred.onePercent.rssBytes)} | ${runs(hundred.onePercent)} |`,
    `| 1M rows, clean | ${seconds(million.clean.seconds)} | 100 % | ${mib(million.clean.rssBytes)} | 1 run |`,
    `| 1M rows, one row edited | ${seconds(million.edit.seconds)} | ${percent(million.edit.seconds, million.clean.seconds)} | ${mib(million.edit.rssBytes)} | 1 run |`,
    '',
    '### Where the rebuilds spend their time\n',
  );
  const phases = (sample: Sample) => sample.phases.map(([name, value]) => `${name} ${seconds(value)}`).join(', ');
  lines.push(
    `- 100k clean: ${phases(hundred.clean)}`,
    `- 100k nothing changed: ${phases(hundred.unchanged)}`,
    `- 100k 1 % changed: ${phases(hundred.onePercent)}`,
    `- 1M clean: ${phases(million.clean)}`,
    `- 1M one row edited: ${phases(million.edit)}`,
    '',
    '### Targets\n',
    '| target | measured | verdict |',
    '| --- | --- | --- |',
    `| 100k rows, nothing changed ≤ 15 % of a clean build | ${percent(hundred.unchanged.seconds, hundred.clean.seconds)} | ${verdict(hundred.unchanged.seconds <= 0.15 * hundred.clean.seconds)} |`,
    `| 100k rows, 1 % of the prices changed ≤ 25 % | ${percent(hundred.onePercent.seconds, hundred.clean.seconds)} | ${verdict(hundred.onePercent.seconds <= 0.25 * hundred.clean.seconds)} |`,
    `| 1M rows, one-row edit republished in ≤ 90 s | ${seconds(million.edit.seconds)} | ${verdict(million.edit.seconds <= 90)} |`,
    `| 1M rows, one-row edit in ≤ 2 GiB | ${mib(million.edit.rssBytes)} | ${verdict(million.edit.rssBytes <= 2 * 1024 ** 3)} |`,
    `| \`npm run dev\` shows an edited row within 2 s at 10k rows (median of 3 edits) | ${dev.map(seconds).join(', ')} | ${verdict(median(dev) <= 2)} |`,
  );
  return lines;
}
