/**
 * A mirror of a published listing: brings a folder to the exact bytes of the site, using only what
 * the site publishes (docs/api.md, "Mirroring"): `manifest.json` (the build, every file and its
 * SHA-256), `changes.json` (the history of the builds that changed anything) and each build's
 * change document. It fetches only the files the builds it missed changed, checks every file it
 * fetches against the manifest's SHA-256, and resyncs from the manifest alone where the history no
 * longer reaches back to the build it holds. Node's own modules only: copy it into your project.
 *
 *   node client/mirror.ts https://cars.example.com ./mirror
 *
 * The folder's own `manifest.json` says which build it holds; it is written last, so a sync cut
 * short (a killed process, a failed fetch) is taken up again by the next one.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

interface Manifest {
  buildId: string;
  changedBy: string;
  files: Record<string, string>;
}

interface HistoryEntry {
  buildId: string;
  previousBuildId: string | null;
  file: string;
}

interface ChangeDocument {
  files: { changed: string[]; removed: string[] };
}

export interface SyncResult {
  /** The build the folder now holds. */
  buildId: string;
  /** Site paths fetched (manifest.json last), and removed. */
  fetched: string[];
  removed: string[];
  /** Whether the folder was compared file by file with the manifest (no history to follow from where it was). */
  resynced: boolean;
}

export interface SyncOptions {
  /** Told each step, for people. */
  log?: (line: string) => void;
  /** How many times to start again when the site publishes a new build during a sync. */
  attempts?: number;
}

const MANIFEST = 'manifest.json';
const CHANGES = 'changes.json';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A file of the site changed under the sync: another build was published meanwhile. */
class PublishedMeanwhile extends Error {}

/** GETs `path` of the site as bytes; `build` names the build it must be of (a cache keys it apart from other builds'). */
async function get(site: string, path: string, build?: string): Promise<Uint8Array> {
  const url = new URL(path, `${site}/`);
  if (build !== undefined) url.searchParams.set('build', build);
  const response = await fetch(url, { headers: { 'Cache-Control': 'no-cache' } });
  if (!response.ok) throw new Error(`GET ${url.href}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

function asManifest(bytes: Uint8Array, from: string): Manifest {
  const value = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<Manifest>;
  if (typeof value.buildId !== 'string' || typeof value.changedBy !== 'string' || typeof value.files !== 'object' || value.files === null) {
    throw new Error(`${from} is not a manifest with a build id (a site built before build ids: mirror its files by hand)`);
  }
  return value as Manifest;
}

/** The manifest the folder holds, if any. */
function localManifest(folder: string): Manifest | undefined {
  try {
    return asManifest(readFileSync(join(folder, MANIFEST)), join(folder, MANIFEST));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes `bytes` at `path` in `folder` in one step (aside, then renamed). */
function writeWhole(folder: string, path: string, bytes: Uint8Array): void {
  const file = join(folder, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.mirror-tmp`, bytes);
  renameSync(`${file}.mirror-tmp`, file);
}

/** Every file under `folder`, as site paths. */
function filesIn(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/**
 * The change documents from the build `from` to the build `to`, oldest first, by the history of
 * `changes.json`; undefined where the history does not reach back to `from`.
 */
async function pathFrom(site: string, from: string, to: string, build: string): Promise<HistoryEntry[] | undefined> {
  const { history } = JSON.parse(Buffer.from(await get(site, CHANGES, build)).toString('utf8')) as { history: HistoryEntry[] };
  const byBuild = new Map(history.map((entry) => [entry.buildId, entry]));
  const path: HistoryEntry[] = [];
  for (let at: string | null = to; at !== from;) {
    const entry: HistoryEntry | undefined = at === null ? undefined : byBuild.get(at);
    if (entry === undefined) return undefined;
    path.unshift(entry);
    at = entry.previousBuildId;
  }
  return path;
}

async function syncOnce(site: string, folder: string, log: (line: string) => void): Promise<SyncResult> {
  const manifestBytes = await get(site, MANIFEST);
  const manifest = asManifest(manifestBytes, `${site}/${MANIFEST}`);
  const held = localManifest(folder);
  const fetched: string[] = [];
  const removed: string[] = [];
  const fetchFile = async (path: string) => {
    const bytes = await get(site, path, manifest.buildId);
    if (sha256(bytes) !== manifest.files[path]) throw new PublishedMeanwhile(`${path}: its bytes are not the manifest's`);
    writeWhole(folder, path, bytes);
    fetched.push(path);
  };
  const removeFile = (path: string) => {
    rmSync(join(folder, path), { force: true });
    removed.push(path);
  };

  let touched: Set<string> | undefined;
  if (held !== undefined && held.changedBy !== manifest.changedBy) {
    const path = await pathFrom(site, held.changedBy, manifest.changedBy, manifest.buildId);
    if (path === undefined) log(`The history of ${site} no longer reaches back to build ${held.changedBy}: resyncing from the manifest.`);
    else {
      touched = new Set();
      for (const entry of path) {
        const document = JSON.parse(Buffer.from(await get(site, entry.file, manifest.buildId)).toString('utf8')) as ChangeDocument;
        for (const file of [...document.files.changed, ...document.files.removed]) touched.add(file);
      }
      log(
        `Following ${path.length} build${path.length === 1 ? '' : 's'} from ${held.changedBy} to ${manifest.changedBy}: ${touched.size} files.`,
      );
    }
  } else if (held !== undefined) touched = new Set();

  if (touched !== undefined) {
    for (const path of [...touched].sort()) {
      if (path in manifest.files) await fetchFile(path);
      else removeFile(path);
    }
  } else {
    // No history to follow: every file whose bytes are not the manifest's is fetched, every other file removed.
    const present = new Set(held === undefined ? [] : filesIn(folder));
    for (const [path, hash] of Object.entries(manifest.files)) {
      if (present.has(path) && sha256(readFileSync(join(folder, path))) === hash) continue;
      await fetchFile(path);
    }
    for (const path of present) if (path !== MANIFEST && !(path in manifest.files)) removeFile(path);
  }
  // Still the build this sync began with? Then it is the folder's, with the manifest written last.
  if (asManifest(await get(site, MANIFEST), `${site}/${MANIFEST}`).buildId !== manifest.buildId)
    throw new PublishedMeanwhile('a new build was published');
  writeWhole(folder, MANIFEST, manifestBytes);
  fetched.push(MANIFEST);
  return { buildId: manifest.buildId, fetched, removed, resynced: touched === undefined };
}

/** Brings `folder` to the published site at `site` (its base URL); see the module's comment. */
export async function syncMirror(
  site: string,
  folder: string,
  { log = () => undefined, attempts = 3 }: SyncOptions = {},
): Promise<SyncResult> {
  mkdirSync(folder, { recursive: true });
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await syncOnce(site.replace(/\/+$/, ''), folder, log);
    } catch (error) {
      if (!(error instanceof PublishedMeanwhile) || attempt >= attempts) throw error;
      log(`${error.message} while syncing: starting again.`);
      // A cache may serve the build before for a moment after a publication.
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

if (import.meta.main) {
  const [site, folder] = process.argv.slice(2);
  if (site === undefined || folder === undefined) {
    console.error('usage: node client/mirror.ts <site URL> <folder>');
    process.exit(2);
  }
  try {
    const result = await syncMirror(site, folder, { log: (line) => console.error(line) });
    console.log(
      `${folder}: build ${result.buildId}; ${result.fetched.length} files fetched, ${result.removed.length} removed${result.resynced ? ' (resynced)' : ''}`,
    );
  } catch (error) {
    console.error(`The mirror did not sync: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
