/**
 * What the build writes beside the Astro pages, streamed so that a million rows never become one
 * string: the whole-listing downloads (`all.json`, `all.csv`), the search index, and last the
 * manifest with the SHA-256 of every page and download as written.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Dataset } from './dataset.ts';
import { exportCsvChunks, exportJsonChunks } from './export.ts';
import { PAGE_SIZE, pageCount, pageNumbers } from './listing.ts';
import { MANIFEST_FILE, type Manifest } from './manifest.ts';
import { pageFile, pagePath, PUBLISHED } from './routes.ts';
import { searchIndexJsonChunks } from './search.ts';
import { logoUrl } from './serialise.ts';

/** Writes `chunks` to `file` and returns the SHA-256 of what was written. */
async function writeChunks(file: string, chunks: Iterable<string>): Promise<string> {
  mkdirSync(dirname(file), { recursive: true });
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  for (const chunk of chunks) {
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((drain) => out.once('drain', () => drain()));
  }
  await new Promise<void>((done, fail) => out.end(() => done()).once('error', fail));
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
  // Pages are hashed as Astro wrote them, a few hundred at a time.
  const pages = pageNumbers(records.length);
  for (let start = 0; start < pages.length; start += 256) {
    const batch = pages.slice(start, start + 256);
    const hashes = await Promise.all(
      batch.map(async (page) => createHash('sha256').update(await readFile(join(siteDir, pageFile(page)))).digest('hex')),
    );
    batch.forEach((page, index) => (files[pagePath(page)] = hashes[index]!));
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
    data: { file: config.dataFile, sha256: await sha256OfFile(config.dataFile) },
    files,
  };
  await writeChunks(join(siteDir, MANIFEST_FILE), [JSON.stringify(manifest, null, 2)]);
}
