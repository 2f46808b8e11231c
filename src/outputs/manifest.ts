/**
 * The build manifest (`/manifest.json`): what the built listing holds and a content hash of every
 * published page and download, so a deploy step or a consumer can see what changed since the last
 * build. The preview server reads the page count and base URL it was built with from here.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PAGE_SIZE, pageCount, pageNumbers } from '../listing/pagination.ts';
import { pageFile, pagePath, PUBLISHED } from '../listing/routes.ts';

export const MANIFEST_FILE = PUBLISHED.manifest.slice(1);

export const manifestSchema = z.object({
  count: z.int().min(0),
  pageCount: z.int().min(1),
  pageSize: z.int().min(1),
  baseUrl: z.string(),
  assetsUrl: z.string(),
  builtAt: z.iso.datetime(),
  data: z.object({ file: z.string(), sha256: z.string() }),
  /** URL path → SHA-256 of its bytes, for every page and download. */
  files: z.record(z.string(), z.string()),
});

export type Manifest = z.infer<typeof manifestSchema>;

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
      input.knownPageHash?.(page) ??
      createHash('sha256')
        .update(readFileSync(join(siteDir, pageFile(page))))
        .digest('hex');
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
