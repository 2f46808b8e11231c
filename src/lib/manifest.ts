/**
 * The build manifest (`/manifest.json`): what the built listing holds and a content hash of every
 * published file, so a deploy step or a consumer can see what changed since the last build. The
 * preview server reads the page count and base URL it was built with from here.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Dataset } from './dataset.ts';
import { exportCsv, exportJson } from './export.ts';
import { PAGE_SIZE, pageCount, pageNumbers } from './listing.ts';
import { pagePath, PUBLISHED } from './routes.ts';
import { serialisePage } from './serialise.ts';

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

const sha256 = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');

export function buildManifest({ config, records }: Dataset, builtAt: Date = new Date()): Manifest {
  const files: Record<string, string> = {};
  for (const page of pageNumbers(records.length)) files[pagePath(page)] = sha256(serialisePage(records, page, config));
  files[PUBLISHED.allJson] = sha256(exportJson(records, config.assetsUrl));
  files[PUBLISHED.allCsv] = sha256(exportCsv(records));
  return {
    count: records.length,
    pageCount: pageCount(records.length),
    pageSize: PAGE_SIZE,
    baseUrl: config.baseUrl,
    assetsUrl: config.assetsUrl,
    builtAt: builtAt.toISOString(),
    data: { file: config.dataFile, sha256: sha256(readFileSync(config.dataFile)) },
    files,
  };
}
