/**
 * The preparation cache: each distinct data file validated once into its records
 * (src/data/records-file.ts), its summary (src/listing/summary.ts) and its downloads (downloads.ts,
 * search-files.ts), in a folder named after a hash of the file's bytes, the assets address and the
 * code. An edit of the earlier file (`earlier`) has only its changed rows checked (src/data/edit.ts)
 * and its downloads copy the unchanged rows' bytes. The records and the downloads are each complete
 * or absent (written aside, then renamed); the last few preparations are kept (`CACHED_PREPARATIONS`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { serialize } from 'node:v8';
import { z } from 'zod';
import { formatName } from '../data/load.ts';
import { readDataFile, type DataFileRead, type ReadProgress } from '../data/read.ts';
import type { EarlierValidation } from '../data/edit.ts';
import type { Problem } from '../data/problems.ts';
import { checkedJson, damagedCacheLine, firstDamaged, readCheckedJson, rememberSha256, writtenFileSha256 } from '../files/checked-files.ts';
import { isRecordFile, openRecordFile, writeRecordFile } from '../data/records-file.ts';
import type { CarModel } from '../data/schema.ts';
import { summaryFrom, summaryOf, type EarlierSummary } from '../listing/summary.ts';
import { runOnThread } from '../threads.ts';
import type { EarlierDownloads, WrittenDownloads } from './downloads.ts';
import { ifPresent } from '../files/missing.ts';

const RECORDS_FILE = 'records.v8';
/** The listing's summary (src/listing/summary.ts), V8-serialised: the pages read it instead of every record. */
const SUMMARY_FILE = 'summary.v8';
/** The file's text as it was validated (UTF-8, no byte-order mark), for the next version to be compared with. */
const TEXT_FILE = 'text.csv';
const PREPARED_FILE = 'prepared.json';
const DOWNLOADS_DIR = 'downloads';
/**
 * In a preparation validated against an earlier one: that one's key, the rows that differ from it,
 * and, where every row is at its earlier position, the fields in which they differ (see edit.ts).
 */
const EARLIER_FILE = 'earlier.json';
const earlierSchema = z.object({ key: z.string(), changed: z.array(z.int().min(0)), changedFields: z.array(z.string()).optional() });
/**
 * Preparations cached besides the one in use: the published build's (an edit is validated against
 * it) and one more, so that a dev server saving an edit beside a build does not prune what the
 * build reads. More would make the cache outgrow the site; one made again costs only a validation.
 */
const CACHED_PREPARATIONS = 2;

const preparedSchema = z.object({
  /** SHA-256 of the data file's bytes. */
  dataSha256: z.string(),
  rows: z.int().min(0),
  /** How the file was read, for people ("UTF-8, comma-separated"). */
  format: z.string(),
  /** The fingerprint of the code that validated it: a later file is validated against this one only by the same code. */
  code: z.string(),
  /** SHA-256 of each file written beside it (records, text, earlier.json), checked before any is used (see checked-files.ts). */
  files: z.record(z.string(), z.string()),
});

/** A preparation: its records, without its downloads (see `withDownloads`); plain data, so a worker thread can hand it over. */
export interface Preparation extends z.infer<typeof preparedSchema> {
  /** The hash that names this preparation. */
  key: string;
  /** The data file as the manifest names it: relative to the project, `/`-separated. */
  dataFile: string;
  /** The records (see records-file.ts). */
  recordsFile: string;
  /** The listing's summary (`summaryOf`), V8-serialised. */
  summaryFile: string;
  /** Folder holding the downloads, at their site paths (`all.json`, …), once `downloads` has settled. */
  downloadsDir: string;
  /** Whether this data was validated now (false: an earlier preparation was reused). */
  validated: boolean;
}

/** What preparing gives: the preparation (with the records where they were validated now), or every problem of the data. */
export type PreparationResult<P extends Preparation = Preparation> =
  { preparation: P; records?: readonly CarModel[] } | { problems: Problem[] };

/**
 * A hash of the project's files under `paths` (folders are read whole) and the lock file: when one
 * changes, what they make may too.
 */
export function sourceFingerprint(root: string, paths: readonly string[]): string {
  const hash = createHash('sha256');
  const files = paths.flatMap((path) => {
    const full = join(root, path);
    if (!existsSync(full)) return [];
    if (!statSync(full).isDirectory()) return [full];
    return readdirSync(full, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  });
  for (const file of [...files.sort(), join(root, 'package-lock.json')]) {
    if (!existsSync(file)) continue;
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export interface PrepareOptions {
  /** The project folder (where `src/` and the lock file are). */
  root: string;
  /** Where preparations are cached. */
  preparationsDir: string;
  dataFile: string;
  assetsUrl: string;
  progress?: ReadProgress;
  /**
   * The key of the earlier preparation (the published site's) the file is likely an edit of: its
   * unchanged rows keep their records (see edit.ts).
   */
  earlier?: string;
  /** Told a line for each cached file found damaged (and not used), and where the data file is being saved. */
  warn?: (line: string) => void;
  /** How long the data file must have been still before it is read as saved (src/data/read.ts). */
  quietMs?: number;
}

/**
 * The records of `dataFile`, validating it only if no earlier preparation of the same bytes exists
 * (else every problem of the data). When it validated now, the records are returned too (nothing
 * else holds them in memory). The downloads are `withDownloads`'s.
 */
export async function prepareRecords({
  root,
  preparationsDir,
  dataFile,
  assetsUrl,
  progress,
  earlier,
  warn = console.error,
  quietMs,
}: PrepareOptions): Promise<PreparationResult> {
  const code = sourceFingerprint(root, ['src/files', 'src/data', 'src/listing', 'src/outputs']);
  const keyOf = (dataSha256: string) => createHash('sha256').update(`${dataSha256}\0${assetsUrl}\0${code}`).digest('hex').slice(0, 32);
  // What the read's `against` found in the cache for the bytes it read.
  const found: { existing?: z.infer<typeof preparedSchema> | undefined; earlier?: EarlierVersion | undefined } = {};
  let earlierSummary: EarlierSummary | undefined;
  let read: DataFileRead;
  try {
    read = await readDataFile(dataFile, {
      progress,
      warn,
      quietMs,
      against: (dataSha256) => {
        const key = keyOf(dataSha256);
        found.existing = wholePreparation(join(preparationsDir, key), warn);
        if (found.existing) return 'known';
        if (earlier !== undefined && earlier !== key) found.earlier = earlierValidation(join(preparationsDir, earlier), code, warn);
        return found.earlier;
      },
    });
    if (found.earlier && read.edit?.changedFields)
      earlierSummary = { summary: summaryFrom(found.earlier.summary), changedFields: new Set(read.edit.changedFields) };
  } finally {
    found.earlier?.close();
  }
  const { records, problems, sha256: dataSha256, text, edit } = read;
  if (dataSha256 === undefined || problems.length > 0) return { problems };
  const key = keyOf(dataSha256);
  const dir = join(preparationsDir, key);
  const located = (prepared: z.infer<typeof preparedSchema>, validated: boolean): Preparation => ({
    ...prepared,
    key,
    dataFile: relative(process.cwd(), resolve(dataFile)).split(sep).join('/'),
    recordsFile: join(dir, RECORDS_FILE),
    summaryFile: join(dir, SUMMARY_FILE),
    downloadsDir: join(dir, DOWNLOADS_DIR),
    validated,
  });
  if (found.existing) {
    // Touched, so that pruning keeps the preparations used most recently.
    const now = new Date();
    utimesSync(dir, now, now);
    return { preparation: located(found.existing, false) };
  }
  if (text === undefined) throw new Error(`${dataFile} was validated without its text`);
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeRecordFile(join(staging, RECORDS_FILE), records);
  writeFileSync(join(staging, SUMMARY_FILE), serialize(summaryOf(records, earlierSummary)));
  writeFileSync(join(staging, TEXT_FILE), text.body);
  // The downloads copy the unchanged rows' bytes from the earlier preparation's, by position: only
  // where no row moved (a row inserted or deleted before others moves them), and not where most
  // rows changed (little to copy, and a long list).
  if (edit && earlier !== undefined && edit.inPlace && edit.changed.length <= records.length / 2) {
    writeFileSync(join(staging, EARLIER_FILE), checkedJson({ key: earlier, changed: edit.changed, changedFields: edit.changedFields }));
  }
  const written = readdirSync(staging);
  // The text is the data file's own bytes where it is UTF-8 without a byte-order mark (decodeCsv):
  // its hash is the one already made of them, not read back (120 MB at a million rows).
  const textIsTheFile = text.format.encoding === 'UTF-8';
  const sha256Of = (name: string) => {
    const path = join(staging, name);
    if (!(textIsTheFile && name === TEXT_FILE)) return writtenFileSha256(path);
    rememberSha256(path, dataSha256);
    return dataSha256;
  };
  const files = Object.fromEntries(written.map((name) => [name, sha256Of(name)]));
  const prepared = {
    dataSha256,
    rows: records.length,
    format: formatName(text.format),
    code,
    files,
  };
  // Written last, with its own hash: a preparation without a whole prepared.json is no preparation.
  writeFileSync(join(staging, PREPARED_FILE), checkedJson(prepared));
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  prune(preparationsDir, key);
  return { preparation: located(prepared, true), records };
}

/**
 * The preparation in `dir` as an earlier version to validate against, if the same code made it and
 * it is all there and whole: its text read, its records held open (`close` them), so that another
 * process pruning the cache meanwhile (a dev server beside the build) cannot take them away.
 */
type EarlierVersion = EarlierValidation & { summary: Buffer; close: () => void };

function earlierValidation(dir: string, code: string, warn: (line: string) => void): EarlierVersion | undefined {
  const prepared = wholePreparation(dir, warn);
  const recordsFile = join(dir, RECORDS_FILE);
  if (prepared?.code !== code || !isRecordFile(recordsFile)) return undefined;
  // Touched, as a preparation taken whole is: pruning keeps the preparations used most recently.
  const now = new Date();
  utimesSync(dir, now, now);
  // Pruned meanwhile by another process (a dev server beside the build): validated whole instead.
  const records = ifPresent(() => openRecordFile(recordsFile));
  if (records === undefined) return undefined;
  const [body, summary] = [ifPresent(() => readFileSync(join(dir, TEXT_FILE))), ifPresent(() => readFileSync(join(dir, SUMMARY_FILE)))];
  if (body === undefined || summary === undefined) {
    records.close();
    return undefined;
  }
  return { body, summary, rows: prepared.rows, records: records.chunks, close: records.close };
}

/** The preparation in `dir`, if it is complete and whole (see `wholeFolder`). */
function wholePreparation(dir: string, warn: (line: string) => void): z.infer<typeof preparedSchema> | undefined {
  return wholeFolder(dir, PREPARED_FILE, preparedSchema, warn);
}

/**
 * The checked `file` of the folder `dir`, if it is there and every file it lists still has the hash
 * it was written with; a damaged folder is said, removed and not used (it is made again where needed).
 */
function wholeFolder<T extends { files: Record<string, string> }>(
  dir: string,
  file: string,
  schema: z.ZodType<T>,
  warn: (line: string) => void,
): T | undefined {
  const checked = readCheckedJson(join(dir, file), schema, (path) => damaged(dir, path, warn));
  const bad = checked && firstDamaged(dir, checked.files);
  if (bad === undefined) return checked;
  damaged(dir, join(dir, bad), warn);
  return undefined;
}

/** Says that `path` is damaged, and removes the folder `dir` it is in. */
function damaged(dir: string, path: string, warn: (line: string) => void = console.error): void {
  warn(damagedCacheLine(path));
  rmSync(dir, { recursive: true, force: true });
}

/** The earlier preparation the one in `dir` was validated against, and the rows that differ from it (see earlier.json above), if it was. */
export function readEarlier(dir: string): z.infer<typeof earlierSchema> | undefined {
  return readCheckedJson(join(dir, EARLIER_FILE), earlierSchema);
}

/** Removes all but the most recently used preparations (and any left half-written). */
function prune(preparationsDir: string, keep: string): void {
  const entries = readdirSync(preparationsDir)
    // Never one whose downloads are being written.
    .filter((name) => name !== keep && !pendingDownloads.has(join(preparationsDir, name)))
    .map((name) => ({ name, used: statSync(join(preparationsDir, name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  const staleTemporary = Date.now() - 60 * 60_000;
  for (const [position, { name, used }] of entries.entries()) {
    const temporary = name.endsWith('.tmp');
    if (temporary ? used < staleTemporary : position >= CACHED_PREPARATIONS) {
      rmSync(join(preparationsDir, name), { recursive: true, force: true });
      // A dev server prepares every save: what it knew of a pruned one goes with it.
      unreadDownloads.delete(join(preparationsDir, name, DOWNLOADS_DIR));
    }
  }
}

/** The records file of the preparation named `key`, where it is still cached and whole (see `wholePreparation`). */
export function preparedRecordsFile(preparationsDir: string, key: string): string | undefined {
  const dir = join(preparationsDir, key);
  return wholePreparation(dir, console.error) ? join(dir, RECORDS_FILE) : undefined;
}

/** Written last in the downloads folder, with its own hash: the downloads' hashes by URL path, and every other file's. */
const HASHES_FILE = 'hashes.json';
const hashesSchema = z.object({
  /** URL path of each download → SHA-256 of its bytes (the manifest's). */
  downloads: z.record(z.string(), z.string()),
  /** Every file of the folder (downloads included) → SHA-256, checked before any is used. */
  files: z.record(z.string(), z.string()),
});

/** A preparation with its downloads under way. */
export interface PreparationWithDownloads extends Preparation {
  /** The downloads' hashes by URL path, once they are written (a worker thread writes them). */
  downloads: Promise<Record<string, string>>;
}

/** `prepareRecords`, with the downloads (`withDownloads`). */
export async function prepareData(options: PrepareOptions): Promise<PreparationResult<PreparationWithDownloads>> {
  const result = await prepareRecords(options);
  return 'problems' in result ? result : { ...result, preparation: withDownloads(result.preparation, options.assetsUrl) };
}

/**
 * The preparation with its downloads: `cached`, or read when complete, else written by a worker
 * thread once `begin` settles (a build lets them begin as Astro begins to render: before, the worker
 * would compete with Astro's own start for the machine's cores).
 */
export function withDownloads(
  preparation: Preparation,
  assetsUrl: string,
  cached?: Record<string, string>,
  begin: Promise<void> = Promise.resolve(),
): PreparationWithDownloads {
  const whole = cached ?? cachedDownloads(preparation);
  return { ...preparation, downloads: whole ? Promise.resolve(whole) : writtenDownloads(preparation, assetsUrl, begin) };
}

/**
 * The hashes of a preparation's downloads where they are cached and whole (each file checked now),
 * else undefined: a build's data side checks them on its thread, while Astro starts on the main one
 * (`withDownloads` then takes them as they are).
 */
export function cachedDownloads({ downloadsDir }: Preparation): Record<string, string> | undefined {
  return wholeFolder(downloadsDir, HASHES_FILE, hashesSchema, console.error)?.downloads;
}

/** Downloads being written, by preparation folder: one worker each. */
const pendingDownloads = new Map<string, Promise<Record<string, string>>>();

/**
 * Removes the downloads of the preparation whose downloads folder is `downloadsDir`, and those of
 * the preparation it was validated against, whose files its unread ones are (the same inodes): a
 * damaged one is then in neither, and the next build writes them anew.
 */
export function removeDownloads(downloadsDir: string): void {
  const dir = dirname(downloadsDir);
  const earlier = readEarlier(dir);
  if (earlier) rmSync(join(dirname(dir), earlier.key, DOWNLOADS_DIR), { recursive: true, force: true });
  rmSync(downloadsDir, { recursive: true, force: true });
  unreadDownloads.delete(downloadsDir);
}

/** By downloads folder: the files its worker took from the earlier preparation's without reading them (see downloads-worker.ts). */
const unreadDownloads = new Map<string, ReadonlySet<string>>();

/**
 * The files of `downloadsDir` written by this process unread (taken from an earlier preparation's):
 * their hash is the one recorded there, so any copied out of the cache is checked first. A folder
 * found cached was checked whole as it was found (`cachedDownloads`).
 */
export const unreadIn = (downloadsDir: string): ReadonlySet<string> => unreadDownloads.get(downloadsDir) ?? new Set();

/** The downloads of `preparation` (not written yet, cut short or damaged), written by a worker thread beside, renamed when complete. */
function writtenDownloads(
  { downloadsDir: target, recordsFile }: Preparation,
  assetsUrl: string,
  begin: Promise<void>,
): Promise<Record<string, string>> {
  const dir = dirname(target);
  const pending = pendingDownloads.get(dir);
  if (pending) return pending;
  const staging = `${target}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const work: DownloadsWork = { recordsFile, dir: staging, assetsUrl, earlier: earlierDownloads(dir) };
  const written = begin
    .then(() => runOnThread<WrittenDownloads>('downloads', new URL('./downloads-worker.ts', import.meta.url), work).answer)
    .then(({ downloads, files, unread = [] }) => {
      // Hashed by the worker as it wrote them: remembered, not read again. Those it took unread
      // from the earlier preparation are read when first used (`firstDamaged`).
      const notRead = new Set(unread);
      for (const [name, sha256] of Object.entries(files)) if (!notRead.has(name)) rememberSha256(join(staging, name), sha256);
      writeFileSync(join(staging, HASHES_FILE), checkedJson({ downloads, files }));
      rmSync(target, { recursive: true, force: true });
      renameSync(staging, target);
      unreadDownloads.set(target, notRead);
      return downloads;
    });
  pendingDownloads.set(dir, written);
  // Settled either way it is no longer pending; a failure is the awaiting caller's to report.
  written.finally(() => pendingDownloads.delete(dir)).catch(() => undefined);
  return written;
}

/** What the downloads worker is given: the records, where to write, and the earlier downloads it may copy from once it has checked them. */
export interface DownloadsWork {
  recordsFile: string;
  dir: string;
  assetsUrl: string;
  earlier: (EarlierDownloads & { files: Record<string, string> }) | undefined;
}

/**
 * The downloads of the preparation that of `dir` was validated against, where they are complete
 * (their bytes are copied), with every file's hash: the worker checks them (hundreds of MB at a
 * million rows) on its own thread.
 */
function earlierDownloads(dir: string): DownloadsWork['earlier'] {
  const earlier = readEarlier(dir);
  if (!earlier) return undefined;
  const downloads = join(dirname(dir), earlier.key, DOWNLOADS_DIR);
  const hashes = readCheckedJson(join(downloads, HASHES_FILE), hashesSchema, (path) => damaged(downloads, path));
  return hashes && { dir: downloads, changed: earlier.changed, changedFields: earlier.changedFields, files: hashes.files };
}
