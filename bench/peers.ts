/**
 * Ours beside its peers (`npm run bench -- --only=peers`): the same CSV built into the same JSON
 * pages and an HTML page a listing page in each language, by plain Astro (`getStaticPaths` +
 * `paginate`, bench/peers/astro) and by Eleventy 3 (a paginated template, bench/peers/eleventy),
 * with a simpler HTML page than ours. The three run in turn, the order reversed every run, so a
 * machine that slows down or speeds up during the run weighs on each alike. Each peer's JSON pages
 * are compared with ours byte for byte before its time counts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { counted } from '../src/listing/format.ts';
import { pageCount } from '../src/listing/pagination.ts';
import { LANGUAGES } from '../src/listing/languages.ts';
import { pageFile } from '../src/listing/routes.ts';
import { buildOf, dataFile, fresh, measure, median, mib, out, runsFor, seconds, verdict, type Sample } from './lib.ts';
import { ADDRESSES } from './peers/listing.ts';

interface Builder {
  name: string;
  /** Builds `file` (of `rows` rows) into a fresh folder; resolves to the sample and the folder. */
  build: (file: string, rows: number) => Promise<{ sample: Sample; site: string }>;
}

/** The peers may take what memory they need: the figure is reported, not capped. */
const PEER_NODE_FLAGS = ['--max-old-space-size=16384'];

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
    build: async (file, rows) => {
      const site = fresh(join(out, `peer-eleventy-${rows}`));
      return { sample: await measure('bench/peers/eleventy/build.ts', [site], { PEER_CSV: file }, PEER_NODE_FLAGS), site };
    },
  },
  {
    name: 'plain Astro',
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
];

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

export async function peersSection(sizes: readonly number[]): Promise<string[]> {
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench -- --only=peers\`: clean builds of the same CSV into the same JSON pages ` +
      `(byte for byte, checked) and an HTML page a listing page in ${LANGUAGES.length} languages. Ours is \`npm run build\` (npm's start-up included, ` +
      'and everything else it publishes: downloads, search index, manifest, host files); the peers write the pages only, with a simpler HTML page ' +
      '(a table and two links). Medians of the runs, the order of the three reversed every run; 1 run at 1M rows.',
    '',
    '| rows | ours | Eleventy 3 | plain Astro | ours ÷ Eleventy | ours ÷ plain Astro | peak RSS (ours, Eleventy, Astro) | ahead of both (target) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const rows of sizes) {
    const file = await dataFile(rows);
    const samples = new Map<string, Sample[]>(BUILDERS.map(({ name }) => [name, []]));
    for (let run = 0; run < runsFor(rows); run += 1) {
      const order = run % 2 === 0 ? BUILDERS : [...BUILDERS].reverse();
      const sites = new Map<string, string>();
      for (const builder of order) {
        const { sample, site } = await builder.build(file, rows);
        console.error(`${counted(rows)} rows, ${builder.name}: ${seconds(sample.seconds)} (${mib(sample.rssBytes)})`);
        samples.get(builder.name)!.push(sample);
        sites.set(builder.name, site);
      }
      for (const [name, site] of sites) if (name !== 'ours') assertSameJob(name, site, sites.get('ours')!, rows);
    }
    const [ours, eleventy, astro] = BUILDERS.map(({ name }) => {
      const all = samples.get(name)!;
      return { seconds: median(all.map((sample) => sample.seconds)), rssBytes: median(all.map((sample) => sample.rssBytes)) };
    }) as [Pick<Sample, 'seconds' | 'rssBytes'>, Pick<Sample, 'seconds' | 'rssBytes'>, Pick<Sample, 'seconds' | 'rssBytes'>];
    const ahead = ours.seconds < eleventy.seconds && ours.seconds < astro.seconds;
    lines.push(
      `| ${counted(rows)} | ${seconds(ours.seconds)} | ${seconds(eleventy.seconds)} | ${seconds(astro.seconds)} | ` +
        `${(ours.seconds / eleventy.seconds).toFixed(2)}× | ${(ours.seconds / astro.seconds).toFixed(2)}× | ` +
        `${mib(ours.rssBytes)}, ${mib(eleventy.rssBytes)}, ${mib(astro.rssBytes)} | ${verdict(ahead)} |`,
    );
  }
  return lines;
}
