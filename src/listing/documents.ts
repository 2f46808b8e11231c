/**
 * The documents a build publishes about itself, part of the listing's contract (each published as a
 * JSON Schema and described in the OpenAPI document): `manifest.json`, what the build holds, every
 * file with its SHA-256; and the change documents, what each build changed, chained by build id:
 * `history/<build id>.json` for every build that changed anything, and `changes.json`, the latest
 * of them with the history a mirror follows.
 */
import { z } from 'zod';
import { FIELDS } from '../data/schema.ts';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const buildId = z.string().regex(/^[0-9a-z]+-[0-9a-f]+$/);

/** The shape of `manifest.json` this code writes; a manifest of another version is read by `readManifest`. */
export const MANIFEST_VERSION = 2;

export const manifestSchema = z.object({
  version: z.literal(MANIFEST_VERSION).describe('The shape of this document.'),
  buildId: buildId.describe('The build that made this site: every build has its own, and they sort by time.'),
  builtAt: z.iso.datetime().describe('When that build finished.'),
  changedBy: buildId.describe(
    "The build that last changed a file of the site other than manifest.json: this build's own where it changed any. " +
      'A mirror at this build holds every file below; `changes.json` leads a mirror at an earlier one here.',
  ),
  count: z.int().min(0).describe('Entries in the listing.'),
  pageCount: z.int().min(1).describe('Pages of the listing (at least 1: an empty listing has one empty page).'),
  pageSize: z.int().min(1).describe('Entries on a full page.'),
  baseUrl: z.string().describe('The base URL the pages link with.'),
  assetsUrl: z.string().describe('The address logo URLs start with.'),
  data: z.object({ file: z.string(), sha256 }).describe('The data file the listing was built from, and the SHA-256 of its bytes.'),
  files: z
    .record(z.string(), sha256)
    .describe(
      'Every file of the site a host serves, but manifest.json itself, by its path in the site (no leading slash): the SHA-256 (hex) of its bytes. ' +
        "The hosts' own configuration files (_headers, .htaccess, vercel.json, …) are not listed.",
    ),
});

export type Manifest = z.infer<typeof manifestSchema>;

const rowChangesSchema = z.object({
  added: z.array(z.int()).describe('ids of rows that are new.'),
  removed: z.array(z.int()).describe('ids of rows that are gone.'),
  changed: z
    .array(z.object({ id: z.int(), fields: z.array(z.enum(FIELDS)) }))
    .describe('Rows whose published fields changed, with those fields.'),
});

export const changeDocumentSchema = z.object({
  buildId: buildId.describe('The build that made these changes.'),
  previousBuildId: buildId
    .nullable()
    .describe(
      'The `changedBy` of the site this build replaced: a mirror at that build applies these changes; null for a first build (or one over a site that named none).',
    ),
  builtAt: z.iso.datetime(),
  dataSha256: sha256.describe('SHA-256 of the data file of this build.'),
  previousDataSha256: sha256.nullable().describe('SHA-256 of the data file of the site this build replaced; null for a first build.'),
  rows: rowChangesSchema,
  files: z
    .object({
      changed: z
        .array(z.string())
        .describe('Paths (as in the manifest) of the files that are new or whose bytes changed, manifest.json aside.'),
      removed: z.array(z.string()).describe('Paths of the files that are gone.'),
    })
    .describe('What a mirror at `previousBuildId` fetches and removes to hold this build (manifest.json is always fetched).'),
  urls: z.array(z.url()).describe('Every URL whose answer changed, query forms included: what a CDN purge needs.'),
});

export type ChangeDocument = z.infer<typeof changeDocumentSchema>;

const historyEntrySchema = z.object({
  buildId,
  previousBuildId: buildId.nullable(),
  builtAt: z.iso.datetime(),
  file: z.string().describe('The path of its change document in the site: history/<build id>.json.'),
});

export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const changesSchema = changeDocumentSchema.extend({
  history: z
    .array(historyEntrySchema)
    .describe(
      'The builds that changed anything, newest first, this one included, as far back as the site keeps them: ' +
        'a mirror at any of their previousBuildId (or buildId) follows them to this build; one not found here resyncs from the manifest.',
    ),
});

export type Changes = z.infer<typeof changesSchema>;
export type RowChanges = z.infer<typeof rowChangesSchema>;
