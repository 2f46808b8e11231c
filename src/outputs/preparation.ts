/**
 * The preparation cache: each distinct data file validated once into its records
 * (src/data/records-file.ts) and its summary (src/listing/summary.ts), in a folder named after a
 * hash of the file's bytes, the assets address and the code; its downloads are written into the
 * same folder (downloads-cache.ts). An edit of the earlier file (`earlier`) has only its changed
 * rows checked (src/data/edit.ts). A preparation is complete or absent (written aside, then
 * renamed); the last few are kept (`CACHED_PREPARATIONS`).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { serialize } from 'node:v8';
import { z } from 'zod';
import { formatName } from '../data/load.ts';
import { readDataFile, type DataFileRead, type ReadOptions } from '../data/read.ts';
import type { EarlierValidation } from '../data/edit.ts';
import type { Problem } from '../data/problems.ts';
import { checkedJson, fileSha256, readCheckedJson, rememberSha256, wholeFolder } from '../files/checked-files.ts';
import { isRecordFile, openRecordFile, writeRecordFile } from '../data/records-file.ts';
import type { CarModel } from '../data/schema.ts';
import { summaryFrom, summaryOf, type EarlierSummary } from '../listing/summary.ts';
import { ifPresent } from '../files/missing.ts';
import { isRenamedForRemoval, removeInBackground, renamedForRemoval } from '../files/removal.ts';
import { sourceFingerprint } from '../files/source-fingerprint.ts';

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
  dataSha256: z.string(),
  rows: z.int().min(0),
  /** How the file was read, for people ("UTF-8, comma-separated"). */
  format: z.string(),
  /** The fingerprint of the code that validated it: a later file is validated against this one only by the same code. */
  code: z.string(),
  /** SHA-256 of each file written beside it (records, text, earlier.json), checked before any is used (see checked-files.ts). */
  files: z.record(z.string(), z.string()),
});

/** A preparation: its records, without its downloads (downloads-cache.ts); plain data, so a worker thread can hand it over. */
export interface Preparation extends z.infer<typeof preparedSchema> {
  key: string;
  /** The data file as the manifest names it: relative to the project, `/`-separated. */
  dataFile: string;
  recordsFile: string;
  /** The listing's summary (`summaryOf`), V8-serialised. */
  summaryFile: string;
  /** Folder holding the downloads, at their site paths (`all.json`, …), once written (downloads-cache.ts). */
  downloadsDir: string;
  /** Whether this data was validated now (false: an earlier preparation was reused). */
  validated: boolean;
}

/** What preparing gives: the preparation (with the records where they were validated now), or every problem of the data. */
export type PreparationResult = { preparation: Preparation; records?: readonly CarModel[] } | { problems: Problem[] };

/** What to prepare, and where; `progress` and `quietMs` as `readDataFile` takes them. */
export interface PrepareOptions extends Pick<ReadOptions, 'progress' | 'quietMs'> {
  /** The project folder (where `src/` and the lock file are). */
  root: string;
  preparationsDir: string;
  dataFile: string;
  assetsUrl: string;
  /**
   * The key of the earlier preparation (the published site's) the file is likely an edit of: its
   * unchanged rows keep their records (see edit.ts).
   */
  earlier?: string;
  /** Told a line for each cached file found damaged (and not used), and where the data file is being saved. */
  warn?: (line: string) => void;
}

/**
 * The records of `dataFile`, validating it only if no earlier preparation of the same bytes exists
 * (else every problem of the data). When it validated now, the records are returned too (nothing
 * else holds them in memory).
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
  const code = sourceFingerprint(root, 'preparation');
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
    const sha256 = textIsTheFile && name === TEXT_FILE ? dataSha256 : fileSha256(path);
    rememberSha256(path, sha256);
    return sha256;
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
  prune(preparationsDir, key, warn);
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
 * The earlier preparation the one in `dir` was validated against (its key and downloads folder),
 * and the rows that differ from it (see earlier.json above), if it was.
 */
export function readEarlier(dir: string): (z.infer<typeof earlierSchema> & { downloadsDir: string }) | undefined {
  const earlier = readCheckedJson(join(dir, EARLIER_FILE), earlierSchema);
  return earlier && { ...earlier, downloadsDir: join(dirname(dir), earlier.key, DOWNLOADS_DIR) };
}

/**
 * Removes all but the most recently used preparations, and what was left written aside
 * (`<name>.<pid>.tmp`) an hour ago or more: a younger one may be being written, and so may the
 * preparation holding one (its downloads, see downloads-cache.ts), which is kept. Removed in the
 * background (src/files/removal.ts): deleting one takes seconds at 100,000 rows, more at a million.
 */
function prune(preparationsDir: string, keep: string, warn: (line: string) => void): void {
  const staleTemporary = Date.now() - 60 * 60_000;
  const usedAt = (path: string) => ifPresent(() => statSync(path).mtimeMs) ?? 0;
  const beingWritten = (dir: string) =>
    (ifPresent(() => readdirSync(dir)) ?? []).some((name) => name.endsWith('.tmp') && usedAt(join(dir, name)) >= staleTemporary);
  const names = readdirSync(preparationsDir);
  // A removal stopped part way (the process killed) is begun again.
  const doomed = names.filter(isRenamedForRemoval).map((name) => join(preparationsDir, name));
  const entries = names
    .filter((name) => name !== keep && !isRenamedForRemoval(name) && !beingWritten(join(preparationsDir, name)))
    .map((name) => ({ name, used: usedAt(join(preparationsDir, name)) }))
    .sort((a, b) => b.used - a.used);
  for (const [position, { name, used }] of entries.entries()) {
    if (!(name.endsWith('.tmp') ? used < staleTemporary : position >= CACHED_PREPARATIONS)) continue;
    try {
      doomed.push(renamedForRemoval(preparationsDir, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (!KEPT_FOR_LATER.has(code)) throw error;
      // Gone: another process pruned it. Else held open where that forbids a rename (Windows) or not ours to move: said, and left for a later prune.
      if (code !== 'ENOENT')
        warn(
          `${join(preparationsDir, name)}, an old cached preparation, could not be removed (${code}): it stays until a later build can.`,
        );
    }
  }
  if (doomed.length > 0) removeInBackground(doomed);
}

/** Why a preparation to prune is left for a later prune. */
const KEPT_FOR_LATER = new Set(['ENOENT', 'EBUSY', 'EPERM', 'EACCES']);

/** The records file of the preparation named `key`, where it is still cached and whole (see `wholePreparation`). */
export function preparedRecordsFile(preparationsDir: string, key: string): string | undefined {
  const dir = join(preparationsDir, key);
  return wholePreparation(dir, console.error) ? join(dir, RECORDS_FILE) : undefined;
}
