/**
 * The one way to read a data file: a path in; its records, every problem and how it was written
 * out. `npm run check-data`, `npm run check-live`, the build and `npm run dev` (through the
 * preparation cache, src/outputs/preparation.ts) all read through it, an edit validated against the
 * published file included. The file is read as one saved version (src/files/settled-read.ts), taken
 * as text where it is CSV text this reads (load.ts), and validated on every core where it is large
 * (load-threads.ts) or, against an earlier valid version of it, only in the rows that differ (edit.ts).
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { QUIET_MS, readSettled, StillChanging } from '../files/settled-read.ts';
import { loadAgainstEarlier, type EarlierValidation, type RowCounts, type ValidatedAgainstEarlier } from './edit.ts';
import { decodeCsv, type CsvText, type LoadProgress, type LoadResult } from './load.ts';
import { loadTextOnThreads, type SplitOptions } from './load-threads.ts';

interface ReadProgress extends LoadProgress {
  /** Called instead of `onRows` where only the rows that differ from the earlier version were validated. */
  onChangedRows?: (rows: RowCounts) => void;
}

export interface ReadOptions extends Pick<SplitOptions, 'keepRecords'> {
  progress?: ReadProgress | undefined;
  /** Told once where the file is being saved and the read waits until it is still. */
  warn?: ((line: string) => void) | undefined;
  /**
   * How long the file must have been still before it is read as saved. `npm run dev` gives less:
   * its watcher already waited for the writes to stop, and the maintainer waits for the page.
   */
  quietMs?: number | undefined;
  /**
   * Told the SHA-256 of the bytes read, before they are validated: `'known'` where the caller holds
   * their validation already (then they are not validated: the answer has no records), or an
   * earlier, valid version of the file they are likely an edit of (then only the rows that differ
   * from its rows are validated, where that gives what validating the whole file gives).
   */
  against?: (sha256: string) => EarlierValidation | 'known' | undefined;
}

/** What reading a data file found (none of its records where they were not validated: `known`). */
export interface DataFileRead extends LoadResult {
  /** SHA-256 of the bytes read; none where the file could not be read. */
  sha256?: string;
  /** The file as text, and how it is written, where it is text this reads. */
  text?: CsvText;
  /** Where `against` knew the bytes: they were not validated. */
  known?: true;
  /** Where they were validated against an earlier version: which rows differ, and how they stand against its rows. */
  edit?: ValidatedAgainstEarlier;
}

/** Reads, decodes and validates the data file `file` (also the name problems give it). */
export async function readDataFile(file: string, options: ReadOptions = {}): Promise<DataFileRead> {
  const { progress = {}, keepRecords = true, warn = console.error, quietMs = QUIET_MS, against } = options;
  const unread = (rule: string): DataFileRead => ({ records: [], problems: [{ file, line: 0, rule }], rows: 0 });
  const notAFile = dataFileProblem(file);
  if (notAFile !== undefined) return unread(notAFile);
  let bytes: Buffer;
  try {
    bytes = await readSettled(file, warn, quietMs);
  } catch (error) {
    return unread(error instanceof StillChanging ? error.message : cannotBeRead(error));
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const given = against?.(sha256);
  if (given === 'known') return { records: [], problems: [], rows: 0, sha256, known: true };
  const text = decodeCsv(bytes, file);
  if ('problems' in text) return { records: [], problems: text.problems, rows: 0, sha256 };
  const edit = given && loadAgainstEarlier(text, file, given);
  if (edit) {
    progress.onChangedRows?.(edit.counts);
    return { records: keepRecords ? edit.records : [], problems: [], rows: edit.records.length, sha256, text, edit };
  }
  return { ...(await loadTextOnThreads(text, file, progress, { keepRecords })), sha256, text };
}

const cannotBeRead = (error: unknown) => `cannot be read: ${error instanceof Error ? error.message : String(error)}`;

/**
 * Why `path` is not a data file that can be read, said as a maintainer would fix it, or undefined
 * where it is a file: the path names nothing, a folder, a pipe or a device (which a read would wait
 * on for ever), or a file the system will not let us read. Asked before any read of it, so that
 * every command says the same (the check whether the published build is current too).
 */
export function dataFileProblem(path: string): string | undefined {
  try {
    const stats = statSync(path);
    if (stats.isFile()) return undefined;
    if (stats.isDirectory()) return 'is a folder, not a CSV file: set DATA_FILE (or the argument) to the CSV file in it';
    return 'is not a regular file (a pipe, a socket or a device): save the data as a CSV file and name that';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return `does not exist (ENOENT): check DATA_FILE (or the argument), a path from ${process.cwd()}`;
    }
    return cannotBeRead(error);
  }
}
