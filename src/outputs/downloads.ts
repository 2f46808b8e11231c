/**
 * What the build writes beside the Astro pages, streamed so that a million rows never become one
 * string: the whole-listing downloads (`all.json`, `all.csv`) and the search index, made once per
 * distinct data file (see src/data/prepared.ts).
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { allCsv, allJson } from '../listing/export.ts';
import type { RecordChunks, RecordText } from '../data/record-store.ts';
import type { CarModel } from '../data/schema.ts';
import { PUBLISHED } from '../listing/routes.ts';
import { searchIndexText, searchTablesOf } from './search-index.ts';

/** The downloads, as URL paths of the site: the one list the build, the dev server and the change report use. */
export const DOWNLOADS = [PUBLISHED.allJson, PUBLISHED.allCsv, PUBLISHED.searchIndex] as const;

/** Beside the downloads: each record's byte length in each, and what else decides their bytes. */
const RECORD_BYTES_FILE = 'record-bytes.v8';

/** What a later preparation needs to copy an unchanged row's bytes from these downloads. */
interface RecordBytes {
  assetsUrl: string;
  /** By URL path: each record's text's length in bytes, in listing order. */
  lengths: Record<string, Uint32Array>;
  /** By URL path: the text after the last record (the search index's tables). */
  ends: Record<string, string>;
}

/** An earlier preparation's downloads, and which rows are not the earlier ones at their position. */
export interface EarlierDownloads {
  /** Its downloads folder (complete: see prepared-downloads.ts). */
  dir: string;
  /** 0-based positions of the rows whose record differs from the earlier one at that position (or is new). */
  changed: readonly number[];
}

/** Where each record's text is in an earlier download, for copying runs of unchanged rows. */
interface EarlierText {
  file: string;
  /** Byte offset of each record's text. */
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
    const { earlier, text } = this;
    for (const record of chunk) {
      const position = this.lengths.length;
      if (earlier && position < earlier.lengths.length && unchanged(position)) {
        if (this.run) this.run[1] = position;
        else this.run = [position, position];
        this.lengths.push(earlier.lengths[position]!);
        continue;
      }
      this.copyRun();
      const recordText = text.record(record);
      this.pending.push(position === 0 ? recordText : `${text.separator}${recordText}`);
      this.lengths.push(Buffer.byteLength(recordText));
    }
    this.copyRun();
    this.flush();
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
    for (let read = 0; read < bytes.length; ) {
      const count = readSync(this.earlierFd, bytes, read, bytes.length - read, from + read);
      if (count === 0) throw new Error(`${this.earlier.file} is shorter than its record lengths say`);
      read += count;
    }
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

function readRecordBytes(dir: string): RecordBytes | undefined {
  try {
    return deserialize(readFileSync(join(dir, RECORD_BYTES_FILE))) as RecordBytes;
  } catch {
    return undefined;
  }
}

/**
 * Writes the downloads into `dir` at their site paths, reading the listing (`listing()` gives it
 * from its start) twice: once for `all.json`, `all.csv` and the search index's tables, once for
 * the index's entries, which point into those tables. Rows unchanged since `earlier` (same
 * assets address; for the index, the same tables) have their bytes copied from its downloads.
 * Returns each one's SHA-256 by URL path.
 */
export function writeDownloadFiles(dir: string, listing: () => RecordChunks, assetsUrl: string, earlier?: EarlierDownloads): Record<string, string> {
  const earlierBytes = earlier && readRecordBytes(earlier.dir);
  const from = earlier && earlierBytes?.assetsUrl === assetsUrl ? { dir: earlier.dir, bytes: earlierBytes } : undefined;
  const changed = new Set(earlier?.changed);
  const unchanged = (position: number) => !changed.has(position);
  const open = (path: string, text: RecordText) => new DownloadFile(join(dir, path.slice(1)), text, earlierText(from, path, text));
  const json = allJson(assetsUrl);
  const exports = [
    { path: PUBLISHED.allJson, text: json, file: open(PUBLISHED.allJson, json) },
    { path: PUBLISHED.allCsv, text: allCsv, file: open(PUBLISHED.allCsv, allCsv) },
  ];
  const firstRead = function* () {
    for (const chunk of listing()) {
      for (const { file } of exports) file.records(chunk, unchanged);
      yield* chunk;
    }
  };
  const index = searchIndexText(searchTablesOf(firstRead()));
  const indexFile = open(PUBLISHED.searchIndex, index);
  for (const chunk of listing()) indexFile.records(chunk, unchanged);
  const downloads = [...exports, { path: PUBLISHED.searchIndex, text: index, file: indexFile }];
  const hashes = Object.fromEntries(downloads.map(({ path, file }) => [path, file.close()]));
  const bytes: RecordBytes = {
    assetsUrl,
    lengths: Object.fromEntries(downloads.map(({ path, file }) => [path, Uint32Array.from(file.lengths)])),
    ends: Object.fromEntries(downloads.map(({ path, text }) => [path, text.end])),
  };
  writeFileSync(join(dir, RECORD_BYTES_FILE), serialize(bytes));
  return hashes;
}
