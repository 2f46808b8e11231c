/**
 * The build manifest (`/manifest.json`): what the built listing holds and a content hash of every
 * published page and download, so a deploy step or a consumer can see what changed since the last
 * build. The preview server reads the page count and base URL it was built with from here.
 */
import { z } from 'zod';
import { PUBLISHED } from '../listing/routes.ts';

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
