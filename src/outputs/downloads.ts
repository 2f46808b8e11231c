/**
 * The whole-listing downloads (`all.json`, `all.csv`), streamed so that a million rows never become
 * one string, made once per distinct data file (see downloads-cache.ts).
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { allCsv, allJson } from '../listing/export.ts';
import { readAll, type RecordChunks, type RecordSlices, type RecordText } from '../data/records-file.ts';
import type { CarModel } from '../data/schema.ts';
import { PUBLISHED } from '../listing/routes.ts';
import { ifPresent } from '../files/missing.ts';

/** The downloads, as URL paths of the site: the one list the build, the dev server and the change report use. */
export const DOWNLOADS = [PUBLISHED.allJson, PUBLISHED.allCsv] as const;

/** Beside the downloads: each record's byte length in each, and what else decides their bytes. */
const RECORD_BYTES_FILE = 'record-bytes.v8';

/** What a later preparation needs to copy an unchanged row's bytes from these downloads. */
interface RecordBytes {
  assetsUrl: string;
  /** By URL path: each record's text's length in bytes, in listing order. */
  lengths: Record<string, Uint32Array>;
  /** By URL path: the text after the last record. */
  ends: Record<string, string>;
}

/** An earlier preparation's downloads, and which rows are not the earlier ones at their position. */
export interface EarlierDownloads {
  /** Its downloads folder (complete: see downloads-cache.ts). */
  dir: string;
  /** 0-based positions of the rows whose record differs from the earlier one at that position (or is new). */
  changed: readonly number[];
  /** Where every row is at its earlier position (none added or removed), the fields in which the changed ones differ. */
  changedFields?: readonly string[] | undefined;
}

/** A listing read for its downloads: in order a chunk at a time, or a few records by position. */
export interface DownloadSource extends RecordSlices {
  chunks: () => RecordChunks;
}

/** Records' texts made before they are written: the size of a write, and all a download holds in memory of them. */
const PENDING_RECORDS = 1000;

/** Where each record's text is in an earlier download, for copying runs of unchanged rows. */
interface EarlierText {
  file: string;
  offsets: Float64Array;
  lengths: Uint32Array;
}

/**
 * A download written a record at a time (synchronously: it is written on its own thread), hashed
 * as it goes. A record the caller says is unchanged is copied from the earlier download with the
 * records around it, instead of being made again; every record's length is kept for the next one.
 */
class DownloadFile {
  private readonly fd: number;
  private readonly hash = createHash('sha256');
  private readonly earlierFd: number | undefined;
  readonly lengths: number[] = [];
  /** Text made but not yet written: written a chunk at a time, not a record at a time. */
  private pending: string[] = [];
  /** The unchanged records [first, last] waiting to be copied, if any. */
  private run: [number, number] | undefined;

  private readonly text: RecordText;
  private readonly earlier: EarlierText | undefined;

  constructor(file: string, text: RecordText, earlier?: EarlierText) {
    this.text = text;
    this.earlier = earlier;
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, 'w');
    this.earlierFd = earlier && openSync(earlier.file, 'r');
    this.write(text.start);
  }

  /** Writes the records of a chunk; `unchanged(position)` says whether a record is the earlier one at its position. */
  records(chunk: readonly CarModel[], unchanged: (position: number) => boolean): void {
    for (const record of chunk) {
      const position = this.lengths.length;
      this.add(position, record, unchanged(position));
    }
    this.copyRun();
    this.flush();
  }

  /** Record `position` made of `record`; the records before it not yet written are the earlier download's (it must hold them). */
  changed(position: number, record: CarModel): void {
    this.earlierUntil(position);
    this.add(position, record, false);
  }

  /** The records not yet written up to `count` are the earlier download's (it must hold them): all is written but the file's end. */
  unchangedUntil(count: number): void {
    this.earlierUntil(count);
    this.copyRun();
    this.flush();
  }

  private earlierUntil(end: number): void {
    for (let position = this.lengths.length; position < end; position += 1) this.add(position, undefined, true);
  }

  /** Record `position`: the earlier download's bytes where it is `unchanged` and they are there, else made of `record`. */
  private add(position: number, record: CarModel | undefined, unchanged: boolean): void {
    const { earlier, text } = this;
    if (unchanged && earlier && position < earlier.lengths.length) {
      if (this.run) this.run[1] = position;
      else this.run = [position, position];
      this.lengths.push(earlier.lengths[position]!);
      return;
    }
    if (record === undefined) throw new Error(`record ${position} is neither given nor in the earlier download`);
    this.copyRun();
    const recordText = text.record(record);
    this.pending.push(position === 0 ? recordText : `${text.separator}${recordText}`);
    this.lengths.push(Buffer.byteLength(recordText));
    // Records made one after another (an edit of every price, say) are written a batch at a time, not held to the end.
    if (this.pending.length >= PENDING_RECORDS) this.flush();
  }

  /** Closes the file with the text's end; returns the SHA-256 of what was written. */
  close(): string {
    this.write(this.text.end);
    closeSync(this.fd);
    if (this.earlierFd !== undefined) closeSync(this.earlierFd);
    return this.hash.digest('hex');
  }

  /** Copies the waiting run of unchanged records, separators between them included, from the earlier download. */
  private copyRun(): void {
    if (!this.run || !this.earlier || this.earlierFd === undefined) return;
    const [first, last] = this.run;
    this.run = undefined;
    if (first > 0) this.pending.push(this.text.separator);
    this.flush();
    const from = this.earlier.offsets[first]!;
    const bytes = Buffer.allocUnsafe(this.earlier.offsets[last]! + this.earlier.lengths[last]! - from);
    if (readAll(this.earlierFd, bytes, from) < bytes.length) throw new Error(`${this.earlier.file} is shorter than its record lengths say`);
    this.write(bytes);
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.write(this.pending.join(''));
    this.pending = [];
  }

  private write(bytes: string | Buffer): void {
    this.hash.update(bytes);
    writeFileSync(this.fd, bytes);
  }
}

/** Where each record's text is in the earlier download at `path`, if it can be copied from (same assets address, same end). */
function earlierText(earlier: { dir: string; bytes: RecordBytes } | undefined, path: string, text: RecordText): EarlierText | undefined {
  const lengths = earlier?.bytes.lengths[path];
  if (!earlier || !lengths || earlier.bytes.ends[path] !== text.end) return undefined;
  const offsets = new Float64Array(lengths.length);
  let offset = Buffer.byteLength(text.start);
  const separator = Buffer.byteLength(text.separator);
  for (let index = 0; index < lengths.length; index += 1) {
    if (index > 0) offset += separator;
    offsets[index] = offset;
    offset += lengths[index]!;
  }
  return { file: join(earlier.dir, path.slice(1)), offsets, lengths };
}

/**
 * Writes the downloads into `dir` at their site paths. Rows unchanged since `earlier` (same assets
 * address) have their bytes copied from its downloads. Where every row is at its earlier position
 * (an edit in place) and every download can be copied from, only the changed rows are read and
 * made; else the whole listing is read once. Returns each one's SHA-256 by URL path, and every
 * file's written by name (hashed as they were written, not read again).
 */
export function writeDownloadFiles(dir: string, listing: DownloadSource, assetsUrl: string, earlier?: EarlierDownloads): WrittenDownloads {
  // The earlier downloads' row lengths (checked whole with them), where they were written.
  const earlierBytes = earlier && ifPresent(() => deserialize(readFileSync(join(earlier.dir, RECORD_BYTES_FILE))) as RecordBytes);
  const from = earlier && earlierBytes?.assetsUrl === assetsUrl ? { dir: earlier.dir, bytes: earlierBytes } : undefined;
  const texts: [string, RecordText][] = [
    [PUBLISHED.allJson, allJson(assetsUrl)],
    [PUBLISHED.allCsv, allCsv],
  ];
  const downloads = texts.map(([path, text]) => ({ path, text, copiedFrom: earlierText(from, path, text) }));
  const count = from?.bytes.lengths[PUBLISHED.allJson]?.length;
  const patched = downloads.every(({ copiedFrom }) => copiedFrom !== undefined && copiedFrom.lengths.length === count);
  const files = downloads.map(({ path, text, copiedFrom }) => new DownloadFile(join(dir, path.slice(1)), text, copiedFrom));
  if (earlier?.changedFields && patched) {
    // Written side by side, a changed record at a time: however many changed, none is held longer
    // than its own writing. Positions ascend: each chunk of the records file is read once.
    for (const position of earlier.changed) {
      const [record] = listing.slice(position, position + 1);
      if (record === undefined) throw new Error(`the listing has no record ${position}, which its edit says changed`);
      for (const file of files) file.changed(position, record);
    }
    for (const file of files) file.unchangedUntil(count ?? 0);
  } else {
    const changed = new Set(earlier?.changed);
    const unchanged = (position: number) => !changed.has(position);
    for (const chunk of listing.chunks()) for (const file of files) file.records(chunk, unchanged);
  }
  const hashes = Object.fromEntries(downloads.map(({ path }, at) => [path, files[at]!.close()]));
  const bytes: RecordBytes = {
    assetsUrl,
    lengths: Object.fromEntries(downloads.map(({ path }, at) => [path, Uint32Array.from(files[at]!.lengths)])),
    ends: Object.fromEntries(downloads.map(({ path, text }) => [path, text.end])),
  };
  const bytesFile = serialize(bytes);
  writeFileSync(join(dir, RECORD_BYTES_FILE), bytesFile);
  const written = Object.fromEntries(downloads.map(({ path }) => [path.slice(1), hashes[path]!]));
  return { downloads: hashes, files: { ...written, [RECORD_BYTES_FILE]: createHash('sha256').update(bytesFile).digest('hex') } };
}

/** What `writeDownloadFiles` wrote: each download's SHA-256 by URL path, and every file's (downloads too) by name. */
export interface WrittenDownloads {
  downloads: Record<string, string>;
  files: Record<string, string>;
  /** Files (by name) taken from an earlier preparation's without being read: their hash is the one recorded there, not checked now. */
  unread?: string[];
}
