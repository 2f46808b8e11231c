/**
 * What the build writes beside the Astro pages, streamed so that a million rows never become one
 * string: the whole-listing downloads (`all.json`, `all.csv`) and the search index, made once per
 * distinct data file (see `data-cache.ts`), and last the manifest with the SHA-256 of every page
 * and download as published.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { exportCsvChunks, exportJsonChunks } from './export.ts';
import { PAGE_SIZE, pageCount, pageNumbers } from './listing.ts';
import { MANIFEST_FILE, type Manifest } from './manifest.ts';
import type { RecordChunks } from './record-file.ts';
import { pageFile, pagePath, PUBLISHED } from './routes.ts';
import { searchIndexJsonChunks } from './search-index.ts';
import { logoUrl } from './serialise.ts';

/** Writes `chunks` to `file` and returns the SHA-256 of what was written. */
async function writeChunks(file: string, chunks: Iterable<string>): Promise<string> {
  mkdirSync(dirname(file), { recursive: true });
  const hash = createHash('sha256');
  const hashed = function* () {
    for (const chunk of chunks) {
      hash.update(chunk);
      yield chunk;
    }
  };
  await pipeline(Readable.from(hashed()), createWriteStream(file));
  return hash.digest('hex');
}

/**
 * Writes the downloads into `dir` at their site paths, reading the listing a chunk at a time
 * (`listing()` gives it from its start); returns each one's SHA-256 by URL path.
 */
export async function writeDownloadFiles(dir: string, listing: () => RecordChunks, assetsUrl: string): Promise<Record<string, string>> {
  const target = (path: string) => join(dir, path.slice(1));
  return {
    [PUBLISHED.allJson]: await writeChunks(target(PUBLISHED.allJson), exportJsonChunks(listing(), assetsUrl)),
    [PUBLISHED.allCsv]: await writeChunks(target(PUBLISHED.allCsv), exportCsvChunks(listing())),
    [PUBLISHED.searchIndex]: await writeChunks(
      target(PUBLISHED.searchIndex),
      searchIndexJsonChunks(listing, (logo) => logoUrl(logo, assetsUrl) ?? ''),
    ),
  };
}

export interface ManifestInput {
  count: number;
  baseUrl: string;
  assetsUrl: string;
  data: Manifest['data'];
  /** The downloads' hashes by URL path; the manifest lists all.json and all.csv. */
  downloads: Record<string, string>;
  /** A page's hash where it is known without reading the file (its bytes did not change). */
  knownPageHash?: (page: number) => string | undefined;
  builtAt?: Date;
}

/** The manifest of the built site `siteDir`, its pages hashed as Astro wrote them. */
export function manifestOf(siteDir: string, input: ManifestInput): Manifest {
  const files: Record<string, string> = {};
  // Small files read synchronously: three times faster here than batches of promises, which pay a
  // thread-pool round trip per open, read and close.
  for (const page of pageNumbers(input.count)) {
    files[pagePath(page)] =
      input.knownPageHash?.(page) ?? createHash('sha256').update(readFileSync(join(siteDir, pageFile(page)))).digest('hex');
  }
  for (const path of [PUBLISHED.allJson, PUBLISHED.allCsv]) {
    const hash = input.downloads[path];
    if (hash !== undefined) files[path] = hash;
  }
  return {
    count: input.count,
    pageCount: pageCount(input.count),
    pageSize: PAGE_SIZE,
    baseUrl: input.baseUrl,
    assetsUrl: input.assetsUrl,
    builtAt: (input.builtAt ?? new Date()).toISOString(),
    data: input.data,
    files,
  };
}

export const manifestJson = (manifest: Manifest): string => JSON.stringify(manifest, null, 2);

export const manifestPath = (siteDir: string): string => join(siteDir, MANIFEST_FILE);
