/**
 * The baseline: the published build as this build sees it, what it is compared with and may take
 * from. It is read from the store once (`readPublishedBuild`), and `baselineOf` gives the one
 * immutable value the build's steps are handed (or a `Pick` of it): plain data, so that it can
 * cross to the data side's worker thread.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { PageKeys } from '../listing/page-keys.ts';
import { MANIFEST_FILE, manifestPath, readManifest, type PublishedManifest } from '../outputs/manifest.ts';
import { readRecord, type RenderSet } from './record.ts';
import { publishedBuild } from './store.ts';

/** The published build as read from the store: its folders, its manifest and its record (none where it has no whole one). */
export type PublishedBuild = NonNullable<ReturnType<typeof readPublishedBuild>>;

/**
 * The published build's manifest cannot be read, or is not a manifest: the build cannot tell what
 * is published, so it must not go on as if nothing were (the shrink guard would be off).
 */
export class UnreadableManifest extends Error {}

/**
 * The published build of the site at `outDir`, or undefined where nothing is published (`outDir`
 * shows no build of this store). A published build whose manifest is missing, unreadable or not a
 * manifest is an `UnreadableManifest`, never "nothing published"; a damaged record is said, and
 * the build has none (see record.ts).
 */
export function readPublishedBuild(store: string, outDir: string) {
  const folder = publishedBuild(store, outDir);
  if (!folder) return undefined;
  return { folder, manifest: readPublishedManifest(folder.siteDir, join(outDir, MANIFEST_FILE)), record: readRecord(folder.dir) };
}

/** The manifest of the site in `siteDir`, which the maintainer knows as `shown`. */
function readPublishedManifest(siteDir: string, shown: string): PublishedManifest {
  let text: string;
  try {
    text = readFileSync(manifestPath(siteDir), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnreadableManifest(
      code === 'ENOENT' ? `${shown} is missing from the published site` : `${shown} cannot be read (${code ?? String(error)})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UnreadableManifest(`${shown} is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const read = readManifest(json);
  if ('problems' in read)
    throw new UnreadableManifest(`${shown} is not a manifest this build can read:\n${z.prettifyError(read.problems)}`);
  return read.manifest;
}

/** What a build is compared with and may take from. */
export interface Baseline {
  /** The published site's folder, which pages and unchanged files are taken from. */
  readonly siteDir: string;
  /** SHA-256 of the data file it was built from, and its assets address: the same two, no row changed. */
  readonly dataSha256: string;
  readonly assetsUrl: string;
  /** Its page count, and the SHA-256 of each of its files by path (its manifest's). */
  readonly pageCount: number;
  readonly hashes: Readonly<Record<string, string>>;
  /** Its build's id and the build that last changed its files (none for a site whose manifest names none: version 1). */
  readonly buildId: string | undefined;
  readonly changedBy: string | undefined;
  /** The preparation of its data (see src/outputs/preparation.ts), which an edit is validated against, where its record says. */
  readonly dataKey: string | undefined;
  /** Its page keys, only where the same code and addresses made it: only then may its pages be taken. */
  readonly keys: PageKeys | undefined;
  /** The pages it rendered (the others are the files of the build before it), where its record says. */
  readonly rendered: RenderSet | undefined;
  /** Every file of its site (site paths), where its record says. */
  readonly files: readonly string[] | undefined;
}

/**
 * The baseline of a build whose code and addresses have `fingerprint`, against `published`; none
 * without a published build.
 */
export function baselineOf(published: PublishedBuild | undefined, fingerprint: string): Baseline | undefined {
  if (!published) return undefined;
  const { folder, manifest, record } = published;
  return {
    siteDir: folder.siteDir,
    dataSha256: manifest.data.sha256,
    assetsUrl: manifest.assetsUrl,
    pageCount: manifest.pageCount,
    hashes: manifest.files,
    buildId: manifest.buildId,
    changedBy: manifest.changedBy,
    dataKey: record?.dataKey,
    keys: record?.fingerprint === fingerprint ? record.keys : undefined,
    rendered: record?.rendered,
    files: record?.files,
  };
}
