/**
 * What a build changes in the site it replaces: rows added, removed and changed (by `id`, with the
 * fields), the pages and downloads whose bytes changed, and every URL whose answer changed (the
 * query forms a CDN caches separately included), published as `changes.json` for a CDN purge or a
 * mirror. Also the guard against publishing a truncated export.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MANIFEST_FILE, manifestSchema, type Manifest } from './manifest.ts';
import { htmlPageFile, htmlPagePath, LISTING_PATH, pageFile, pagePath, PUBLISHED } from '../listing/routes.ts';
import { isRecordFile, recordChunks } from '../data/record-store.ts';
import { FIELDS, type CarModel, type FieldName } from '../data/schema.ts';
import { logoUrl } from '../listing/serialise.ts';

export const changesSchema = z
  .object({
    previousDataSha256: z.string().nullable().describe('SHA-256 of the data file of the site this build replaced; null for a first build.'),
    dataSha256: z.string().describe('SHA-256 of the data file of this build.'),
    rows: z.object({
      added: z.array(z.int()).describe('ids of rows that are new.'),
      removed: z.array(z.int()).describe('ids of rows that are gone.'),
      changed: z.array(z.object({ id: z.int(), fields: z.array(z.enum(FIELDS)) })).describe('Rows whose published fields changed, with those fields.'),
    }),
    urls: z.array(z.url()).describe('Every URL whose answer changed, query forms included: what a CDN purge needs.'),
  })
  .meta({ title: 'Changes of the last build', description: 'What the last build changed in the site it replaced.' });

export type Changes = z.infer<typeof changesSchema>;

/** More than this share of the published rows gone stops a build unless ALLOW_SHRINK=1. */
const SHRINK_LIMIT = 0.2;

/** The site a build is about to replace, where there is one. */
export interface PreviousSite {
  dir: string;
  manifest: Manifest;
}

/** What comparing rows needs of the site a build replaces: small enough to hand to a worker thread. */
export interface PublishedSite {
  dir: string;
  dataSha256: string;
  assetsUrl: string;
}

export const publishedSiteOf = ({ dir, manifest }: PreviousSite): PublishedSite => ({ dir, dataSha256: manifest.data.sha256, assetsUrl: manifest.assetsUrl });

export function readPreviousSite(dir: string): PreviousSite | undefined {
  const manifestFile = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestFile) || !existsSync(join(dir, PUBLISHED.allJson.slice(1)))) return undefined;
  return { dir, manifest: manifestSchema.parse(JSON.parse(readFileSync(manifestFile, 'utf8'))) };
}

/**
 * The records a site publishes, a chunk at a time, and how to read a record's logo URL: from the
 * records its build prepared (`recordsFile`, compact, logo as a path) where they are still kept
 * and written by this version, else read back from its `all.json` (logo as a URL). Never a second
 * copy of a million records.
 */
export interface PublishedRecords {
  chunks: () => Iterable<readonly Readonly<Record<string, unknown>>[]>;
  logoUrlOf: (record: Readonly<Record<string, unknown>>) => unknown;
}

export function publishedRecords(site: PublishedSite, recordsFile?: string): PublishedRecords {
  if (recordsFile !== undefined && isRecordFile(recordsFile)) {
    return {
      chunks: () => recordChunks(recordsFile),
      logoUrlOf: (record) => logoUrl(record['logo'] as string | null, site.assetsUrl),
    };
  }
  return {
    chunks: () => [JSON.parse(readFileSync(join(site.dir, PUBLISHED.allJson.slice(1)), 'utf8')) as Record<string, unknown>[]],
    logoUrlOf: (record) => record['logo'],
  };
}

/** A build's rows against the published ones, and how many were published. */
export interface RowComparison {
  rows: Changes['rows'];
  published: number;
  /** Whether every published row is where it was (none added, removed or moved). */
  inPlace: boolean;
  /** Positions (0-based, in the new file) of the rows that changed. */
  changedPositions: number[];
}

/**
 * Rows added, removed and changed (with the fields whose published value changed) against
 * `published` (none: a first build), going through the published records once, a chunk at a time.
 * Added and changed rows come in the new file's order, removed ones in the published order.
 */
export function rowChanges(published: PublishedRecords | undefined, records: readonly CarModel[], assetsUrl: string): RowComparison {
  const indexOf = new Map<number, number>();
  for (const [index, record] of records.entries()) indexOf.set(record.id, index);
  const found = new Uint8Array(records.length);
  const changedFields = new Map<number, FieldName[]>();
  const removed: number[] = [];
  let count = 0;
  let inPlace = true;
  for (const chunk of published?.chunks() ?? []) {
    for (const old of chunk) {
      const index = indexOf.get(old['id'] as number);
      if (index !== count) inPlace = false;
      count += 1;
      if (index === undefined) {
        removed.push(old['id'] as number);
        continue;
      }
      found[index] = 1;
      const record = records[index]!;
      const fields = FIELDS.filter((field) =>
        field === 'logo' ? logoUrl(record.logo, assetsUrl) !== published!.logoUrlOf(old) : record[field] !== old[field],
      );
      if (fields.length > 0) changedFields.set(index, fields);
    }
  }
  const added: number[] = [];
  const changed: Changes['rows']['changed'] = [];
  for (const [index, record] of records.entries()) {
    if (found[index] === 0) added.push(record.id);
    const fields = changedFields.get(index);
    if (fields) changed.push({ id: record.id, fields });
  }
  return { rows: { added, removed, changed }, published: count, inPlace: inPlace && count === records.length, changedPositions: [...changedFields.keys()] };
}

/** The message that stops a build removing too many published rows, or undefined when it may go on. */
export function shrinkRefusal({ rows, published }: RowComparison, outDir: string): string | undefined {
  if (published === 0) return undefined;
  const removed = rows.removed.length;
  if (removed / published <= SHRINK_LIMIT) return undefined;
  const share = ((removed / published) * 100).toFixed(0);
  return (
    `This build would remove ${removed.toLocaleString('en')} of the ${published.toLocaleString('en')} published rows (${share} %), ` +
    `more than ${SHRINK_LIMIT * 100} %: is the export cut short? Nothing was built; ${outDir}/ is unchanged. ` +
    'If those rows are really gone, build again with ALLOW_SHRINK=1.'
  );
}

/** No row added, removed or changed. */
export const NO_ROW_CHANGES: Changes['rows'] = { added: [], removed: [], changed: [] };

/** Every URL that answers with page `page` of the listing, as a CDN keys them. */
function pageUrls(page: number, last: boolean): string[] {
  const queries = [`page=${page}`, `format=api&page=${page}`, `page=${page}&format=api`, `format=json&page=${page}`, `page=${page}&format=json`];
  if (page === 1) queries.push('', 'format=api', 'format=json');
  if (last) queries.push('page=last', 'format=api&page=last');
  return [pagePath(page), `/${pageFile(page)}`, ...queries.map((query) => (query ? `${LISTING_PATH}?${query}` : LISTING_PATH)), htmlPagePath(page)];
}

interface BuiltSite {
  manifest: Manifest;
  rows: Changes['rows'];
  /** Site paths (`index.html`, `all.json`) of the new site's files that are new or whose bytes changed. */
  changedFiles: ReadonlySet<string>;
}

/** What this build changes, against the site it replaces (everything, for a first build). */
export function changesOf(previous: PreviousSite | undefined, built: BuiltSite): Changes & { pages: { json: number; html: number }; downloads: string[] } {
  const { manifest } = built;
  const oldPages = previous?.manifest.pageCount ?? 0;
  const pages = Math.max(oldPages, manifest.pageCount);
  const urls = new Set<string>();
  let json = 0;
  let html = 0;
  for (let page = 1; page <= pages; page += 1) {
    const jsonChanged = previous?.manifest.files[pagePath(page)] !== manifest.files[pagePath(page)];
    // A page that is gone changed too (the host now answers 404).
    const htmlChanged = !previous || page > manifest.pageCount || built.changedFiles.has(htmlPageFile(page));
    // `page=last` moves when the page count does.
    const lastMoved = oldPages !== manifest.pageCount && (page === oldPages || page === manifest.pageCount);
    if (jsonChanged) json += 1;
    if (htmlChanged) html += 1;
    if (jsonChanged || lastMoved) for (const url of pageUrls(page, page === manifest.pageCount || page === oldPages)) if (url !== htmlPagePath(page)) urls.add(url);
    if (htmlChanged) urls.add(htmlPagePath(page));
  }
  const downloads = [PUBLISHED.allJson, PUBLISHED.allCsv, PUBLISHED.searchIndex].filter((path) => !previous || built.changedFiles.has(path.slice(1)));
  for (const path of downloads) urls.add(path);
  return {
    previousDataSha256: previous?.manifest.data.sha256 ?? null,
    dataSha256: manifest.data.sha256,
    rows: built.rows,
    urls: [...urls].map((path) => `${manifest.baseUrl}${path}`),
    pages: { json, html },
    downloads,
  };
}

/** `changes.json`, as published: the schema's fields only. */
export function changesJson({ previousDataSha256, dataSha256, rows, urls }: Changes): string {
  return `${JSON.stringify({ previousDataSha256, dataSha256, rows, urls }, null, 2)}\n`;
}

/** The closing report's line: `+2 −1 ~3 rows; 3 JSON and 26 HTML pages; downloads /all.json, /all.csv`. */
export function summariseChanges(changes: ReturnType<typeof changesOf>): string {
  const { added, removed, changed } = changes.rows;
  const downloads = changes.downloads.length > 0 ? changes.downloads.join(', ') : 'none';
  const count = (value: number) => value.toLocaleString('en');
  return `+${count(added.length)} −${count(removed.length)} ~${count(changed.length)} rows; ${count(changes.pages.json)} JSON and ${count(changes.pages.html)} HTML pages; downloads ${downloads}`;
}
