/**
 * The Hugo peer: the same JSON pages and the simpler HTML page in each language, built the way a
 * Hugo user on Debian's Hugo (0.111) builds a paginated listing of a CSV, every step of it timed:
 *
 * 1. This script counts the CSV's records (csv-parse, as the other peers read it) and writes one
 *    content file a listing page a language (the home page is page 1) and one a JSON page, each
 *    holding only its address and its place in the listing: its number, its first and end record,
 *    its neighbours (our page math and route table). Hugo pages over content, not over a data
 *    file, and 0.111 has no content adapter (`_content.gotmpl`, 0.126) nor CSV in its data folder,
 *    so generating the content files first is how a listing of data becomes pages there. Its
 *    paginator instead would need a content file and a page object a record (a million at 1M
 *    rows, where this writes 300,000) and would put the JSON pages under the HTML ones' names.
 * 2. Hugo (`hugo`, installed apart) reads the CSV itself (`resources.Get` and
 *    `transform.Unmarshal`, once a build) and renders every page from it with its templates
 *    (layouts/): the HTML pages in both languages, and the JSON pages byte for byte ours with its
 *    own template functions (`jsonify` without HTML escaping for strings, `printf` for prices).
 *
 * Checked against ours page by page: the same bytes for the bench's generated files in every
 * quoting and line ending, and for names holding quotes, backslashes, `<>&`, U+2028 and U+2029,
 * emoji and line breaks, behind a byte order mark. They differ where Go's CSV reader and csv-parse
 * read differently: Go turns a CR LF inside a quoted field into LF (a line break inside a name of
 * a CRLF file). Whole numbers are written as the CSV writes them (the generated files have no
 * leading zeros), prices from two decimals at most (the data's limit).
 *
 *   PEER_CSV=rows.csv node bench/peers/hugo/build.ts OUTDIR WORKDIR
 *
 * WORKDIR (fresh) receives the content files, Hugo's generated configuration, the CSV (a hard link)
 * and Hugo's caches; OUTDIR the site.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, createReadStream, linkSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse';
import { neighbours, pageNumbers, pageRange } from '../../../src/listing/pagination.ts';
import { htmlPagePath, pageFile, pageLink } from '../../../src/listing/routes.ts';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../../../src/listing/languages.ts';
import { ADDRESSES, PEER_LABELS, peerCsv } from '../listing.ts';

const [outDir, workDir] = process.argv.slice(2);
if (!outDir || !workDir) {
  console.error('usage: PEER_CSV=rows.csv node bench/peers/hugo/build.ts OUTDIR WORKDIR');
  process.exit(2);
}

const csv = peerCsv();
const project = dirname(fileURLToPath(import.meta.url));
const content = join(workDir, 'content');
const assets = join(workDir, 'assets');
/** What Hugo reads the CSV as, under its assets folder. */
const CSV_ASSET = 'rows.csv';

/** The CSV's records: its rows after the header, read as the other peers read them. */
async function recordCount(): Promise<number> {
  let rows = 0;
  for await (const _row of createReadStream(csv).pipe(parse({ bom: true, skip_empty_lines: true }))) rows += 1;
  return Math.max(0, rows - 1);
}

/** A content file's TOML front matter (no body: the templates render everything from the CSV). */
const frontMatter = (fields: Record<string, string | number | string[] | null>) =>
  `+++\n${Object.entries(fields)
    .filter((entry): entry is [string, string | number | string[]] => entry[1] !== null)
    .map(([name, value]) => `${name} = ${JSON.stringify(value)}`)
    .join('\n')}\n+++\n`;

const count = await recordCount();
mkdirSync(join(content, 'api'), { recursive: true });
mkdirSync(join(content, 'page'), { recursive: true });
for (const page of pageNumbers(count)) {
  const { first, end } = pageRange(page, count);
  const { next, previous } = neighbours(page, count);
  const place = { page, first, end, next, previous };
  writeFileSync(
    join(content, 'api', `${page}.md`),
    frontMatter({
      url: `/${pageFile(page)}`,
      outputs: ['json'],
      ...place,
      next_link: next === null ? null : pageLink(ADDRESSES.baseUrl, next),
      previous_link: previous === null ? null : pageLink(ADDRESSES.baseUrl, previous),
    }),
  );
  for (const language of LANGUAGES) {
    // Hugo's home page of each language is page 1; the others are pages of their own at our addresses.
    const file = page === 1 ? `_index.${language}.md` : join('page', `${page}.${language}.md`);
    writeFileSync(join(content, file), frontMatter({ ...(page === 1 ? {} : { url: htmlPagePath(page, language) }), ...place }));
  }
}

mkdirSync(assets, { recursive: true });
try {
  linkSync(csv, join(assets, CSV_ASSET));
} catch (error) {
  // A hard link cannot cross file systems: a copy is the same file to Hugo.
  if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  copyFileSync(csv, join(assets, CSV_ASSET));
}

const generatedConfig = join(workDir, 'hugo.json');
writeFileSync(
  generatedConfig,
  JSON.stringify({
    contentDir: resolve(content),
    assetDir: resolve(assets),
    resourceDir: resolve(workDir, 'resources'),
    defaultContentLanguage: DEFAULT_LANGUAGE,
    languages: Object.fromEntries(
      LANGUAGES.map((language, index) => [
        language,
        { weight: index + 1, languageCode: PEER_LABELS[language].tag, params: { labels: PEER_LABELS[language] } },
      ]),
    ),
    params: { csv: CSV_ASSET, assetsUrl: ADDRESSES.assetsUrl },
  }),
);

const hugo = spawnSync(
  'hugo',
  [
    '--source',
    project,
    '--config',
    `${join(project, 'config.toml')},${resolve(generatedConfig)}`,
    '--destination',
    resolve(outDir),
    '--cacheDir',
    resolve(workDir, 'cache'),
    '--noBuildLock',
    '--quiet',
  ],
  { stdio: 'inherit' },
);
if (hugo.error) {
  const code = (hugo.error as NodeJS.ErrnoException).code;
  console.error(code === 'ENOENT' ? 'hugo is not installed (Debian: apt-get install hugo)' : `hugo could not start: ${hugo.error.message}`);
  process.exit(1);
}
if (hugo.status !== 0) {
  if (hugo.signal) console.error(`hugo was killed by ${hugo.signal}`);
  process.exit(hugo.status ?? 1);
}

// Hugo 0.111 writes a redirect from /en/ to / for a default language at the root whatever the
// settings (`disableDefaultLanguageRedirect` came in 0.140): not a page of the listing, so not kept.
const redirect = join(outDir, DEFAULT_LANGUAGE, 'index.html');
let redirectText: string | undefined;
try {
  redirectText = readFileSync(redirect, 'utf8');
} catch (error) {
  // Not written (a Hugo told not to): nothing to remove.
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
if (redirectText !== undefined) {
  if (!redirectText.includes('http-equiv="refresh"')) throw new Error(`${redirect} is not Hugo's redirect to the default language`);
  rmSync(redirect);
  rmdirSync(dirname(redirect));
}
console.error(`hugo: ${count} rows, ${pageNumbers(count).length} pages`);
