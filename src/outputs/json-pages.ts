/**
 * The API's page files, written straight from the one serialiser. They are pure bytes of the
 * records (an envelope per page), so they need nothing of Astro's page pipeline: the build writes
 * them on its data thread while Astro renders the HTML pages on the main one, only the pages whose
 * bytes changed (see src/publish/reuse.ts), each hashed as it is written for the manifest.
 * `npm run dev` answers the same paths from the same serialiser through the one request handler
 * (src/serve/dev-server.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CarModel } from '../data/schema.ts';
import { pageFile } from '../listing/routes.ts';
import { serialisePage, type Addresses } from '../listing/serialise.ts';

/** Pages written between two progress reports (and two turns of the event loop). */
const REPORT_EVERY = 5000;

/**
 * Writes the JSON page file of each of `pages` into `siteDir`; returns each one's SHA-256 (hex),
 * by page number. Each is a new file: one already there is an error, never written through (it
 * may be a published file's other name; see reuse.ts, which removes a page it renders again).
 */
export async function writeJsonPages(
  siteDir: string,
  records: readonly CarModel[],
  pages: readonly number[],
  addresses: Addresses,
  onProgress: (written: number) => void = () => undefined,
): Promise<Map<number, string>> {
  const hashes = new Map<number, string>();
  if (pages.length === 0) return hashes;
  mkdirSync(dirname(join(siteDir, pageFile(1))), { recursive: true });
  for (const [index, page] of pages.entries()) {
    const bytes = Buffer.from(serialisePage(records, page, addresses));
    writeFileSync(join(siteDir, pageFile(page)), bytes, { flag: 'wx' });
    hashes.set(page, createHash('sha256').update(bytes).digest('hex'));
    if ((index + 1) % REPORT_EVERY === 0) {
      onProgress(index + 1);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  onProgress(pages.length);
  return hashes;
}
