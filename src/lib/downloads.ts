/**
 * What the build writes beside the Astro pages, streamed so that a million rows never become one
 * string: the whole-listing downloads (`all.json`, `all.csv`), the search index, and last the
 * manifest with the SHA-256 of every page and download as written.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Dataset } from './dataset.ts';
import { exportCsvChunks, exportJsonChunks } from './export.ts';
import { PAGE_SIZE, pageCount, pageNumbers } from './listing.ts';
import { MANIFEST_FILE, type Manifest } from './manifest.ts';
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

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes the downloads and the manifest into the built site `siteDir`. */
export async function writeDownloads(siteDir: string, { config, records }: Dataset, builtAt: Date = new Date()): Promise<void> {
  const target = (path: string) => join(siteDir, path.slice(1));
  const files: Record<string, string> = {};
  // Pages are hashed as Astro wrote them. Small files read synchronously: three times faster here
  // than batches of promises, which pay a thread-pool round trip per open, read and close.
  for (const page of pageNumbers(records.length)) {
    files[pagePath(page)] = createHash('sha256').update(readFileSync(join(siteDir, pageFile(page)))).digest('hex');
  }
  files[PUBLISHED.allJson] = await writeChunks(target(PUBLISHED.allJson), exportJsonChunks(records, config.assetsUrl));
  files[PUBLISHED.allCsv] = await writeChunks(target(PUBLISHED.allCsv), exportCsvChunks(records));
  await writeChunks(
    target(PUBLISHED.searchIndex),
    searchIndexJsonChunks(records, (logo) => logoUrl(logo, config.assetsUrl) ?? ''),
  );
  const manifest: Manifest = {
    count: records.length,
    pageCount: pageCount(records.length),
    pageSize: PAGE_SIZE,
    baseUrl: config.baseUrl,
    assetsUrl: config.assetsUrl,
    builtAt: builtAt.toISOString(),
    // Relative to the project (never a path of the build machine): `data/cars.csv`, or `../x.csv`.
    data: { file: relative(process.cwd(), resolve(config.dataFile)).split(sep).join('/'), sha256: await sha256OfFile(config.dataFile) },
    files,
  };
  await writeChunks(join(siteDir, MANIFEST_FILE), [JSON.stringify(manifest, null, 2)]);
}
