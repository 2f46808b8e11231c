/**
 * Ours beside its peers (`npm run bench -- --only=peers`): the same CSV built into the same JSON
 * pages and an HTML page a listing page in each language, with a simpler HTML page than ours, by
 * - Eleventy 3: a paginated template (bench/peers/eleventy), the pages only;
 * - Eleventy 3 + Pagefind: the same build, then Pagefind's index over its HTML pages (`pagefind
 *   --site`, from npm; an index a language, from each page's `lang`), what a user who wants search
 *   adds; the two are timed together;
 * - plain Astro: `getStaticPaths` + `paginate` (bench/peers/astro);
 * - Hugo: Debian's 0.111, its content files written first, then `hugo` (bench/peers/hugo/build.ts).
 * They run in turn, the order reversed every run, so a machine that slows down or speeds up during
 * the run weighs on each alike. Each peer's JSON pages are compared with ours byte for byte and its
 * HTML pages counted before its time counts. Hugo and Pagefind are not Node: their peak memory is
 * GNU time's (`measureProgram`). A peer this machine cannot run (Hugo or GNU time not installed)
 * is left out with a line saying so; one that fails (out of memory, say) is reported failed at
 * that size, its message printed, and the run goes on.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { counted } from '../src/listing/format.ts';
import { pageCount } from '../src/listing/pagination.ts';
import { LANGUAGES } from '../src/listing/languages.ts';
import { pageFile } from '../src/listing/routes.ts';
import {
  buildOf,
  dataFile,
  fresh,
  GNU_TIME,
  measure,
  measureProgram,
  median,
  mib,
  out,
  root,
  runsFor,
  seconds,
  verdict,
  type Sample,
} from './lib.ts';
import { ADDRESSES } from './peers/listing.ts';

/** A program a peer needs beside Node: how to ask whether it is installed, and how to install it. */
interface Tool {
  command: string;
  probe: string[];
  install: string;
}
const HUGO: Tool = { command: 'hugo', probe: ['version'], install: 'Debian: `apt-get install hugo`' };
const TIME: Tool = { command: GNU_TIME, probe: ['--version'], install: "GNU time, Debian's `time` package" };

interface Builder {
  name: string;
  /** What it needs beside Node and the npm packages. */
  tools?: Tool[];
  /** The most ours may take, as a multiple of this peer's time, at `rows` (the targets); none for ours. */
  allowance?: (rows: number) => number;
  /** Builds `file` (of `rows` rows) into a fresh folder; resolves to the sample and the folder. */
  build: (file: string, rows: number) => Promise<{ sample: Sample; site: string }>;
}

/** The peers may take what memory they need: the figure is reported, not capped. */
const PEER_NODE_FLAGS = ['--max-old-space-size=16384'];
/** Pagefind's command line (its package's `bin`), beside the entry of its Node API. */
const PAGEFIND_CLI = fileURLToPath(new URL('runner/bin.cjs', import.meta.resolve('pagefind')));
/** Ahead of the peer at every size. */
const AHEAD = () => 1;

const eleventy = async (file: string, site: string) => ({
  sample: await measure('bench/peers/eleventy/build.ts', [site], { PEER_CSV: file }, PEER_NODE_FLAGS),
  site,
});

const BUILDERS: Builder[] = [
  {
    name: 'ours',
    build: async (file, rows) => ({
      sample: await buildOf(file, rows, { BASE_URL: ADDRESSES.baseUrl, ASSETS_URL: ADDRESSES.assetsUrl })(),
      site: join(out, `site-${rows}`),
    }),
  },
  {
    name: 'Eleventy 3',
    // Pages only, no search, no downloads: ahead of it from 100k rows, within 1.5× of it below.
    allowance: (rows) => (rows >= 100_000 ? 1 : 1.5),
    build: (file, rows) => eleventy(file, fresh(join(out, `peer-eleventy-${rows}`))),
  },
  {
    name: 'Eleventy 3 + Pagefind',
    tools: [TIME],
    allowance: AHEAD,
    build: async (file, rows) => {
      const pages = await eleventy(file, fresh(join(out, `peer-eleventy-pagefind-${rows}`)));
      const search = await measureProgram(process.execPath, [PAGEFIND_CLI, '--site', pages.site]);
      const sample = {
        seconds: pages.sample.seconds + search.seconds,
        rssBytes: Math.max(pages.sample.rssBytes, search.rssBytes),
        phases: [],
      };
      return { sample, site: pages.site };
    },
  },
  {
    name: 'plain Astro',
    allowance: AHEAD,
    build: async (file, rows) => {
      const site = fresh(join(out, `peer-astro-${rows}`));
      const cache = fresh(join(out, `peer-astro-cache-${rows}`));
      const env = { PEER_CSV: file, PEER_OUT: site, PEER_CACHE: cache, ASTRO_TELEMETRY_DISABLED: '1' };
      const sample = await measure(
        'node_modules/astro/bin/astro.mjs',
        ['build', '--silent', '--root', 'bench/peers/astro'],
        env,
        PEER_NODE_FLAGS,
      );
      return { sample, site };
    },
  },
  {
    name: 'Hugo',
    tools: [HUGO, TIME],
    allowance: AHEAD,
    build: async (file, rows) => {
      const site = fresh(join(out, `peer-hugo-${rows}`));
      const work = fresh(join(out, `peer-hugo-work-${rows}`));
      const script = join(root, 'bench/peers/hugo/build.ts');
      return { sample: await measureProgram(process.execPath, [script, site, work], { PEER_CSV: file }), site };
    },
  },
];

/** The tool's answer to its probe, or undefined where it is not installed; any other failure to start is thrown. */
function probe({ command, probe: args }: Tool): string | undefined {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return undefined;
  if (result.error) throw result.error;
  // BSD time, where /usr/bin/time is not GNU's, knows no --version: not the tool the bench needs.
  return result.status === 0 ? `${result.stdout}${result.stderr}` : undefined;
}

/** Why `builder` cannot run on this machine, or undefined where it can. */
function missingFor(builder: Builder): string | undefined {
  const missing = (builder.tools ?? []).filter((tool) => probe(tool) === undefined);
  return missing.length === 0
    ? undefined
    : missing.map(({ command, install }) => `\`${command}\` is not installed (${install})`).join(', ');
}

/** Stops the run if a peer's JSON pages differ from ours or it wrote fewer HTML pages: then it did not do the same job. */
function assertSameJob(builder: string, site: string, ours: string, rows: number): void {
  const last = pageCount(rows);
  for (const page of new Set([1, Math.ceil(last / 2), last])) {
    if (!readFileSync(join(site, pageFile(page))).equals(readFileSync(join(ours, pageFile(page)))))
      throw new Error(`${builder}: JSON page ${page} differs from ours at ${rows} rows`);
  }
  // Each names its HTML pages its own way (plain Astro's paginate writes /2/, ours /page/2/): counted, not named.
  const htmlPages = readdirSync(site, { recursive: true }).filter((path) => String(path).endsWith('.html')).length;
  if (htmlPages !== last * LANGUAGES.length)
    throw new Error(`${builder}: ${htmlPages} HTML pages at ${rows} rows, not ${last * LANGUAGES.length}`);
}

/** A builder's medians at one size, or why it has none. */
type Outcome = { seconds: number; rssBytes: number } | { failed: string };

/** The target's cell: met where ours is within every measured peer's allowance; the peers behind which it is not, and those not measured, named. */
function targetCell(rows: number, ours: number, outcomes: Map<string, Outcome | undefined>): string {
  const behind: string[] = [];
  const unmeasured: string[] = [];
  for (const { name, allowance } of BUILDERS) {
    const outcome = outcomes.get(name);
    if (!allowance) continue;
    if (outcome === undefined || 'failed' in outcome) unmeasured.push(name);
    else if (!(ours < outcome.seconds * allowance(rows))) behind.push(name);
  }
  return (
    `${verdict(behind.length === 0)}${behind.length > 0 ? ` (${behind.join(', ')})` : ''}` +
    `${unmeasured.length > 0 ? `; not measured: ${unmeasured.join(', ')}` : ''}`
  );
}

export async function peersSection(sizes: readonly number[]): Promise<string[]> {
  const missing = new Map(BUILDERS.map((builder) => [builder.name, missingFor(builder)]));
  for (const [name, why] of missing) if (why) console.error(`peers: ${name} left out: ${why}`);
  const builders = BUILDERS.filter(({ name }) => missing.get(name) === undefined);
  const hugoVersion = missing.get('Hugo') ? undefined : /hugo v(\S+?)[+ ]/.exec(probe(HUGO) ?? '')?.[1];
  const peers = BUILDERS.filter(({ allowance }) => allowance);
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench -- --only=peers\`: clean builds of the same CSV into the same JSON pages ` +
      `(byte for byte, checked) and an HTML page a listing page in ${LANGUAGES.length} languages. Ours is \`npm run build\` (npm's start-up included, ` +
      'and everything else it publishes: downloads, search index, manifest, host files); the peers write the pages only, with a simpler HTML page ' +
      "(a table and two links), Eleventy 3 + Pagefind adds Pagefind's search index over them (the two timed together). " +
      `Hugo is Debian's${hugoVersion ? ` ${hugoVersion}` : ''}, its content files (one a page) written first by a Node script, timed with it. ` +
      `Medians of the runs, the order of the ${BUILDERS.length} reversed every run; 1 run at 1M rows. Peak RSS: the build's report for ours, ` +
      "Node's for Eleventy and Astro, GNU time's for Hugo (with the Node script before it) and Pagefind (the larger of Eleventy's and its). " +
      'Target: ahead of plain Astro, Hugo and Eleventy 3 + Pagefind at every size; ahead of plain Eleventy 3 from 100k rows, within 1.5× of it below.',
    ...[...missing].flatMap(([name, why]) => (why ? ['', `Left out: ${name}, as ${why}.`] : [])),
    '',
    `| rows | ${BUILDERS.map(({ name }) => name).join(' | ')} | ${peers.map(({ name }) => `ours ÷ ${name}`).join(' | ')} | ` +
      `peak RSS (${BUILDERS.map(({ name }) => name).join(', ')}) | target met |`,
    `| ---: | ${BUILDERS.map(() => '---:').join(' | ')} | ${peers.map(() => '---:').join(' | ')} | --- | --- |`,
  ];
  const failureNotes: string[] = [];
  for (const rows of sizes) {
    const file = await dataFile(rows);
    const samples = new Map<string, Sample[]>(builders.map(({ name }) => [name, []]));
    const failures = new Map<string, string>();
    for (let run = 0; run < runsFor(rows); run += 1) {
      const order = run % 2 === 0 ? builders : [...builders].reverse();
      const sites = new Map<string, string>();
      for (const builder of order) {
        if (failures.has(builder.name)) continue;
        let built: { sample: Sample; site: string };
        try {
          built = await builder.build(file, rows);
        } catch (error) {
          // Ours failing stops the run; a peer failing (out of memory at 1M rows, say) is its result at this size, in the table.
          if (!builder.allowance) throw error;
          failures.set(builder.name, (error as Error).message);
          console.error(`${counted(rows)} rows, ${builder.name} failed: ${(error as Error).message}`);
          continue;
        }
        const { sample, site } = built;
        console.error(`${counted(rows)} rows, ${builder.name}: ${seconds(sample.seconds)} (${mib(sample.rssBytes)})`);
        samples.get(builder.name)!.push(sample);
        sites.set(builder.name, site);
      }
      for (const [name, site] of sites) if (name !== 'ours') assertSameJob(name, site, sites.get('ours')!, rows);
    }
    const outcomes = new Map<string, Outcome | undefined>(
      BUILDERS.map(({ name }) => {
        const failed = failures.get(name);
        const all = samples.get(name);
        if (failed !== undefined) return [name, { failed }];
        if (all === undefined) return [name, undefined];
        return [name, { seconds: median(all.map((sample) => sample.seconds)), rssBytes: median(all.map((sample) => sample.rssBytes)) }];
      }),
    );
    const ours = outcomes.get('ours') as { seconds: number; rssBytes: number };
    const cell = (outcome: Outcome | undefined, show: (measured: { seconds: number; rssBytes: number }) => string) =>
      outcome === undefined ? 'left out' : 'failed' in outcome ? 'failed' : show(outcome);
    lines.push(
      `| ${counted(rows)} | ${BUILDERS.map(({ name }) => cell(outcomes.get(name), (measured) => seconds(measured.seconds))).join(' | ')} | ` +
        `${peers.map(({ name }) => cell(outcomes.get(name), (measured) => `${(ours.seconds / measured.seconds).toFixed(2)}×`)).join(' | ')} | ` +
        `${BUILDERS.map(({ name }) => cell(outcomes.get(name), (measured) => mib(measured.rssBytes))).join(', ')} | ` +
        `${targetCell(rows, ours.seconds, outcomes)} |`,
    );
    for (const [name, message] of failures) failureNotes.push('', `${name} failed at ${counted(rows)} rows: ${message}`);
  }
  return [...lines, ...failureNotes];
}
