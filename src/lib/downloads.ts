/**
 * What the build writes beside the Astro pages, streamed so that a million rows never become one
 * string: the whole-listing downloads (`all.json`, `all.csv`) and the search index, made once per
 * distinct data file (see `data-cache.ts`), and last the manifest with the SHA-256 of every page
 * and download as published.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { allCsv, allJson } from './export.ts';
import { PAGE_SIZE, pageCount, pageNumbers } from './listing.ts';
import { MANIFEST_FILE, type Manifest } from './manifest.ts';
import { piecesOf, type RecordChunks } from './record-file.ts';
import { pageFile, pagePath, PUBLISHED } from './routes.ts';
import { searchIndexText, searchTablesOf } from './search-index.ts';
import { logoUrl } from './serialise.ts';

/** A download written in pieces (synchronously: it is written on its own thread), hashed as it goes. */
class DownloadFile {
  private readonly fd: number;
  private readonly hash = createHash('sha256');

  constructor(file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, 'w');
  }

  write(text: string): void {
    this.hash.update(text);
    writeFileSync(this.fd, text);
  }

  /** Closes the file; returns the SHA-256 of what was written. */
  close(): string {
    closeSync(this.fd);
    return this.hash.digest('hex');
  }
}

/**
 * Writes the downloads into `dir` at their site paths, reading the listing (`listing()` gives it
 * from its start) twice: once for `all.json`, `all.csv` and the search index's tables, once for
 * the index's entries, which point into those tables. Returns each one's SHA-256 by URL path.
 */
export function writeDownloadFiles(dir: string, listing: () => RecordChunks, assetsUrl: string): Record<string, string> {
  const open = (path: string) => new DownloadFile(join(dir, path.slice(1)));
  const exports = [
    { file: open(PUBLISHED.allJson), text: allJson(assetsUrl) },
    { file: open(PUBLISHED.allCsv), text: allCsv },
  ];
  for (const { file, text } of exports) file.write(text.start);
  const firstRead = function* () {
    let first = true;
    for (const chunk of listing()) {
      for (const { file, text } of exports) file.write(text.chunk(chunk, first));
      first = false;
      yield* chunk;
    }
  };
  const index = searchIndexText(searchTablesOf(firstRead(), (logo) => logoUrl(logo, assetsUrl) ?? ''));
  for (const { file, text } of exports) file.write(text.end);
  const indexFile = open(PUBLISHED.searchIndex);
  for (const piece of piecesOf(index, listing())) indexFile.write(piece);
  return {
    [PUBLISHED.allJson]: exports[0]!.file.close(),
    [PUBLISHED.allCsv]: exports[1]!.file.close(),
    [PUBLISHED.searchIndex]: indexFile.close(),
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
