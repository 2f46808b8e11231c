/**
 * The live site read over HTTP, as a mirror reads it (docs/api.md): its `manifest.json`, the
 * history its `changes.json` keeps, and its rows from `/all.csv`, checked against the manifest's
 * hash, so that what is compared is one published build.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { changesSchema } from '../listing/documents.ts';
import { PUBLISHED } from '../listing/routes.ts';
import { CHANGES_FILE } from '../outputs/history.ts';
import { MANIFEST_FILE, readManifest } from '../outputs/manifest.ts';
import type { LiveSite } from './live-changes.ts';

/** The live site cannot be read as a published build: the message says what and where. */
export class UnreadableLiveSite extends Error {}

/** How long one request may take before the check gives up on the live site. */
const REQUEST_TIMEOUT_MS = 60_000;
/** How long the download of `all.csv` may take (hundreds of MB at a million rows). */
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

const ALL_CSV = PUBLISHED.allCsv.slice(1);

async function get(url: string, timeout = REQUEST_TIMEOUT_MS): Promise<Response> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(timeout), headers: { 'cache-control': 'no-cache' } });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const why = cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : String(cause);
    throw new UnreadableLiveSite(`${url} cannot be reached (${why})`);
  }
}

async function json(url: string, response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch (error) {
    throw new UnreadableLiveSite(`${url} is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The live site at `liveUrl`, or undefined where it publishes nothing yet (its `manifest.json` answers 404). */
export async function readLiveSite(liveUrl: string): Promise<LiveSite | undefined> {
  const manifestUrl = `${liveUrl}/${MANIFEST_FILE}`;
  const response = await get(manifestUrl);
  if (response.status === 404 || response.status === 410) return undefined;
  if (!response.ok) throw new UnreadableLiveSite(`${manifestUrl} answers ${response.status} ${response.statusText}`);
  const read = readManifest(await json(manifestUrl, response));
  if ('problems' in read)
    throw new UnreadableLiveSite(`${manifestUrl} is not a manifest this check can read:\n${z.prettifyError(read.problems)}`);
  return { manifest: read.manifest, history: await liveHistory(liveUrl, read.manifest.files) };
}

/** The history the live `changes.json` keeps; none where the site has none (or one of the shape before histories). */
async function liveHistory(liveUrl: string, files: Readonly<Record<string, string>>): Promise<LiveSite['history']> {
  if (!(CHANGES_FILE in files)) return [];
  const url = `${liveUrl}/${CHANGES_FILE}`;
  const response = await get(url);
  if (!response.ok) throw new UnreadableLiveSite(`${url} answers ${response.status} ${response.statusText}, though the manifest lists it`);
  const changes = changesSchema.safeParse(await json(url, response));
  // A changes.json of the shape before histories names none: the build starts the history again, as here.
  return changes.success ? changes.data.history : [];
}

/**
 * Downloads the live `all.csv` into `file`, checking its SHA-256 against `sha256` (the live
 * manifest's): a file of another build (the site was published again meanwhile) is refused.
 */
export async function downloadAllCsv(liveUrl: string, sha256: string | undefined, file: string): Promise<void> {
  const url = `${liveUrl}/${ALL_CSV}`;
  if (sha256 === undefined) throw new UnreadableLiveSite(`the live manifest lists no ${ALL_CSV}: its rows cannot be read`);
  const response = await get(url, DOWNLOAD_TIMEOUT_MS);
  if (!response.ok || response.body === null) throw new UnreadableLiveSite(`${url} answers ${response.status} ${response.statusText}`);
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), hashing, createWriteStream(file));
  } catch (error) {
    throw new UnreadableLiveSite(`${url} could not be read to the end (${error instanceof Error ? error.message : String(error)})`);
  }
  if (hash.digest('hex') !== sha256)
    throw new UnreadableLiveSite(`${url} is not the file the live manifest names (it was published again meanwhile?): run the check again`);
}
