/**
 * The build manifest (`/manifest.json`): what the built listing holds, so the preview server knows
 * the page count and base URL it was built with, and a deploy step can see what changed.
 */
import { z } from 'zod';
import type { Dataset } from './dataset.ts';
import { pageCount } from './listing.ts';

export const MANIFEST_FILE = 'manifest.json';

export const manifestSchema = z.object({
  count: z.number().int().min(0),
  pageCount: z.number().int().min(1),
  baseUrl: z.string(),
  assetsUrl: z.string(),
});

export type Manifest = z.infer<typeof manifestSchema>;

export function buildManifest({ config, records }: Dataset): Manifest {
  return {
    count: records.length,
    pageCount: pageCount(records.length),
    baseUrl: config.baseUrl,
    assetsUrl: config.assetsUrl,
  };
}
