/**
 * The build manifest (`/manifest.json`, its schema in src/listing/documents.ts): the build's id,
 * what the listing holds, and the SHA-256 of every file of the site, by its path, so a deploy step,
 * a mirror or a CDN can see what changed and check what it fetched. The preview server reads the
 * page count, the base URL and the pages' hashes (their ETags) from it. A manifest of the earlier
 * shape (version 1: no build id, pages and downloads only, keyed by URL path) is still read, so that
 * the first build after an upgrade compares with the site before it.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { MANIFEST_VERSION, manifestSchema, type Manifest } from '../listing/documents.ts';
import { PAGE_SIZE, pageCount } from '../listing/pagination.ts';
import { PAGE_FILE_EXTENSION, PAGE_PATH_PREFIX, PUBLISHED } from '../listing/routes.ts';

export type { Manifest } from '../listing/documents.ts';

export const MANIFEST_FILE = PUBLISHED.manifest.slice(1);

export interface ManifestInput extends Pick<Manifest, 'buildId' | 'changedBy' | 'count' | 'baseUrl' | 'assetsUrl' | 'data'> {
  /** Every file of the site but the manifest, by path: its SHA-256. */
  files: ReadonlyMap<string, string>;
  builtAt?: Date;
}

export function manifestOf(input: ManifestInput): Manifest {
  const files: Record<string, string> = {};
  for (const path of [...input.files.keys()].sort()) files[path] = input.files.get(path)!;
  return {
    version: MANIFEST_VERSION,
    buildId: input.buildId,
    builtAt: (input.builtAt ?? new Date()).toISOString(),
    changedBy: input.changedBy,
    count: input.count,
    pageCount: pageCount(input.count),
    pageSize: PAGE_SIZE,
    baseUrl: input.baseUrl,
    assetsUrl: input.assetsUrl,
    data: input.data,
    files,
  };
}

export const manifestJson = (manifest: Manifest): string => JSON.stringify(manifest, null, 2);

export const manifestPath = (siteDir: string): string => join(siteDir, MANIFEST_FILE);

/** A manifest as read from a published site: of this version, or of version 1, which names no build. */
export type PublishedManifest = Omit<Manifest, 'version' | 'buildId' | 'changedBy'> & Partial<Pick<Manifest, 'buildId' | 'changedBy'>>;

/** Version 1: no version, no build id; the hashes of the pages and the downloads alone, by URL path. */
const versionOneSchema = manifestSchema.omit({ version: true, buildId: true, changedBy: true });

/** The file a version 1 manifest's URL path names: `/all.json` is `all.json`, a page's path its `.json` file. */
const fileOfUrlPath = (path: string) => `${path.slice(1)}${path.startsWith(PAGE_PATH_PREFIX) ? PAGE_FILE_EXTENSION : ''}`;

/** A published manifest's JSON, of either version; the problems of this version's schema where it is neither. */
export function readManifest(json: unknown): { manifest: PublishedManifest } | { problems: z.ZodError } {
  const current = manifestSchema.safeParse(json);
  if (current.success) return { manifest: current.data };
  const isVersionOne = typeof json === 'object' && json !== null && !('version' in json);
  const old = isVersionOne ? versionOneSchema.safeParse(json) : undefined;
  if (!old?.success) return { problems: current.error };
  const files = Object.fromEntries(Object.entries(old.data.files).map(([path, hash]) => [fileOfUrlPath(path), hash]));
  return { manifest: { ...old.data, files } };
}
