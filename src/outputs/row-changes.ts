/**
 * Rows added, removed and changed (by `id`, with the fields) between the published site and a new
 * build, reading the published records a chunk at a time: never a second copy of a million records.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { isRecordFile, recordChunks, type RecordSlices } from '../data/records-file.ts';
import { FIELDS, type CarModel, type FieldName } from '../data/schema.ts';
import type { RowChanges } from '../listing/documents.ts';
import { PUBLISHED } from '../listing/routes.ts';
import { counted } from '../listing/format.ts';
import { logoUrl } from '../listing/serialise.ts';

/**
 * The records a site publishes, a chunk at a time, and how to read a record's logo URL: from the
 * records its build prepared (`recordsFile`, compact, logo as a path) where they are still cached
 * and written by this version, else read back from its `all.json` (logo as a URL).
 */
export interface PublishedRecords {
  chunks: () => Iterable<readonly Readonly<Record<string, unknown>>[]>;
  logoUrlOf: (record: Readonly<Record<string, unknown>>) => unknown;
}

/** The published rows cannot be read: neither the records of the published build nor its `all.json`. */
export class UnreadablePublishedRows extends Error {}

/**
 * `baseline` is the build's (src/publish/baseline.ts): the site it replaces, whose `all.json` the
 * maintainer knows as `shownAllJson`.
 */
export function publishedRecords(
  baseline: { siteDir: string; assetsUrl: string },
  recordsFile: string | undefined,
  shownAllJson: string,
): PublishedRecords {
  if (recordsFile !== undefined && isRecordFile(recordsFile)) {
    return {
      chunks: () => recordChunks(recordsFile),
      logoUrlOf: (record) => logoUrl(record['logo'] as string | null, baseline.assetsUrl),
    };
  }
  return {
    chunks: () => allJsonChunks(join(baseline.siteDir, PUBLISHED.allJson.slice(1)), shownAllJson),
    logoUrlOf: (record) => record['logo'],
  };
}

/** How much of a published `all.json` is read at once, and how many of its records are parsed together. */
const ALL_JSON_BLOCK_BYTES = 4 << 20;
const ALL_JSON_CHUNK_RECORDS = 10_000;

const [OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE, QUOTE, BACKSLASH, COMMA] = [0x5b, 0x5d, 0x7b, 0x7d, 0x22, 0x5c, 0x2c] as const;
const isJsonSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** A byte a JSON value can begin with (an object, array, string, number, true, false, null). */
const beginsJsonValue = (byte: number) => '{["-0123456789tfn'.includes(String.fromCharCode(byte));

/**
 * The records of a published `all.json` (which the maintainer knows as `shown`), a chunk at a
 * time: at a million rows the file is hundreds of MB, which as one string and one array would be
 * the peak of a build whose published records are not cached. The array's elements are found
 * by their brackets outside strings (a byte at a time: UTF-8 puts no ASCII byte inside a
 * character), and the bytes of each chunk of them, from its first element's `{` to its last's `}`,
 * are parsed by one `JSON.parse`, so that what is not JSON is said as `JSON.parse` says it.
 */
export function* allJsonChunks(file: string, shown: string, blockBytes = ALL_JSON_BLOCK_BYTES): Generator<Record<string, unknown>[]> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnreadablePublishedRows(
      code === 'ENOENT' ? `${shown} is missing from the published site` : `${shown} cannot be read (${code ?? String(error)})`,
    );
  }
  const notJson = (why: string) => new UnreadablePublishedRows(`${shown} is not JSON (${why})`);
  try {
    const block = Buffer.allocUnsafe(blockBytes);
    /** Where the reading is: before the list, before its first element, after an element, after a comma, in an element, after the list. */
    let place = 'before' as 'before' | 'first' | 'element-done' | 'comma' | 'element' | 'after';
    let depth = 0;
    let inString = false;
    let escaped = false;
    /** The file's bytes before this block. */
    let offset = 0;
    /** The chunk under way: where it begins in the file, its elements so far, its bytes from earlier blocks. */
    let chunk = { from: 0, elements: 0, earlier: [] as Buffer[] };
    const parsed = (bytes: Buffer) => publishedRecordsOf(Buffer.concat([...chunk.earlier, bytes]), chunk.elements, shown, chunk.from);
    for (;;) {
      let length: number;
      try {
        length = readSync(fd, block, 0, blockBytes, null);
      } catch (error) {
        throw new UnreadablePublishedRows(`${shown} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
      if (length === 0) break;
      /** Where the chunk under way begins in this block (0 where it began in an earlier one). */
      let chunkStart = 0;
      for (let at = 0; at < length; at += 1) {
        const byte = block[at]!;
        if (place === 'element') {
          if (inString) {
            if (escaped) escaped = false;
            else if (byte === BACKSLASH) escaped = true;
            else if (byte === QUOTE) inString = false;
          } else if (byte === QUOTE) inString = true;
          else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1;
          else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && --depth === 0) {
            place = 'element-done';
            chunk.elements += 1;
            if (chunk.elements === ALL_JSON_CHUNK_RECORDS) {
              yield parsed(block.subarray(chunkStart, at + 1));
              chunk = { from: 0, elements: 0, earlier: [] };
            }
          }
          continue;
        }
        if (isJsonSpace(byte)) continue;
        const valueExpected = place === 'before' || place === 'first' || place === 'comma';
        if (place === 'before' && byte === OPEN_BRACKET) place = 'first';
        else if (place === 'element-done' && byte === COMMA) place = 'comma';
        else if ((place === 'first' || place === 'element-done') && byte === CLOSE_BRACKET) {
          // The chunk under way ends with the list (the bytes after its last element are spaces).
          if (chunk.elements > 0) yield parsed(block.subarray(chunkStart, at));
          chunk = { from: 0, elements: 0, earlier: [] };
          place = 'after';
        } else if ((place === 'first' || place === 'comma') && byte === OPEN_BRACE) {
          if (chunk.elements === 0) [chunk.from, chunkStart] = [offset + at, at];
          place = 'element';
          depth = 1;
        } else if (valueExpected && beginsJsonValue(byte)) {
          // JSON, perhaps, but not a list of records: another value where the list or a record belongs.
          throw new UnreadablePublishedRows(`${shown} is not a list of records with their ids`);
        } else throw notJson(`unexpected ${JSON.stringify(String.fromCharCode(byte))} at byte ${offset + at}`);
      }
      // The chunk's bytes in this block are kept (copied: the block is read into again).
      if (chunk.elements > 0 || place === 'element') chunk.earlier.push(Buffer.from(block.subarray(chunkStart, length)));
      offset += length;
    }
    if (place !== 'after') throw notJson(`it ends at byte ${offset}, before its list does`);
  } finally {
    closeSync(fd);
  }
}

/** The `count` records whose JSON text, commas between them, is `bytes`, of the `all.json` the maintainer knows as `shown`, from its byte `from`. */
function publishedRecordsOf(bytes: Buffer, count: number, shown: string, from: number): Record<string, unknown>[] {
  let records: unknown[];
  try {
    records = JSON.parse(`[${bytes.toString('utf8')}]`) as unknown[];
  } catch (error) {
    // JSON.parse counts from the chunk's text, not the file: the chunk's place in the file is said.
    const why = error instanceof Error ? error.message : String(error);
    throw new UnreadablePublishedRows(`${shown} is not JSON (in the ${counted(count)} records from byte ${from}: ${why})`);
  }
  if (!records.every((record) => typeof record === 'object' && record !== null && Number.isSafeInteger((record as { id?: unknown }).id))) {
    throw new UnreadablePublishedRows(`${shown} is not a list of records with their ids`);
  }
  return records as Record<string, unknown>[];
}

/** A build's rows against the published ones, and how many were published. */
export interface RowComparison {
  rows: RowChanges;
  published: number;
  /** Whether every published row is where it was (none added, removed or moved). */
  inPlace: boolean;
  /** Positions (0-based, in the new file) of the rows that changed. */
  changedPositions: number[];
}

/**
 * Rows added, removed and changed (with the fields whose published value changed) against
 * `published` (none: a first build), going through the published records once, a chunk at a time.
 * Added and changed rows come in the new file's order, removed ones in the published order.
 */
export function rowChanges(published: PublishedRecords | undefined, records: readonly CarModel[], assetsUrl: string): RowComparison {
  const indexOf = new Map<number, number>();
  for (const [index, record] of records.entries()) indexOf.set(record.id, index);
  const found = new Uint8Array(records.length);
  const changedFields = new Map<number, FieldName[]>();
  const removed: number[] = [];
  let count = 0;
  let inPlace = true;
  for (const chunk of published?.chunks() ?? []) {
    for (const old of chunk) {
      const index = indexOf.get(old['id'] as number);
      if (index !== count) inPlace = false;
      count += 1;
      if (index === undefined) {
        removed.push(old['id'] as number);
        continue;
      }
      found[index] = 1;
      const fields = changedFieldsOf(records[index]!, old, assetsUrl, published!);
      if (fields.length > 0) changedFields.set(index, fields);
    }
  }
  const added: number[] = [];
  const changed: RowChanges['changed'] = [];
  for (const [index, record] of records.entries()) {
    if (found[index] === 0) added.push(record.id);
    const fields = changedFields.get(index);
    if (fields) changed.push({ id: record.id, fields });
  }
  return {
    rows: { added, removed, changed },
    published: count,
    inPlace: inPlace && count === records.length,
    changedPositions: [...changedFields.keys()],
  };
}

/** The fields of `record` whose published value (`old`'s) was another. */
function changedFieldsOf(
  record: CarModel,
  old: Readonly<Record<string, unknown>>,
  assetsUrl: string,
  published: Pick<PublishedRecords, 'logoUrlOf'>,
): FieldName[] {
  return FIELDS.filter((field) =>
    field === 'logo' ? logoUrl(record.logo, assetsUrl) !== published.logoUrlOf(old) : record[field] !== old[field],
  );
}

/**
 * `rowChanges` where the new file (`count` rows) is known to be an edit in place of the published
 * one: `candidates` (ascending) the only positions whose text differs (src/data/edit.ts). Only
 * those positions are read, from each side. Undefined where the published rows are not as many,
 * or an edited row's `id` changed (a row replaced, not edited): then only `rowChanges` can tell
 * what was added and removed.
 */
export function rowChangesAt(
  published: RecordSlices & Pick<PublishedRecords, 'logoUrlOf'>,
  records: RecordSlices,
  count: number,
  candidates: readonly number[],
  assetsUrl: string,
): RowComparison | undefined {
  if (!holdsExactly(published, count)) return undefined;
  const changed: RowChanges['changed'] = [];
  const changedPositions: number[] = [];
  for (const position of candidates) {
    const [old] = published.slice(position, position + 1);
    const [record] = records.slice(position, position + 1);
    if (old === undefined || record === undefined || old.id !== record.id) return undefined;
    const fields = changedFieldsOf(record, old, assetsUrl, published);
    if (fields.length === 0) continue;
    changed.push({ id: record.id, fields });
    changedPositions.push(position);
  }
  return { rows: { added: [], removed: [], changed }, published: count, inPlace: true, changedPositions };
}

/** Whether `records` hold `count` records, no more and no fewer (none added or removed at the end), reading at most the last one. */
function holdsExactly(records: RecordSlices, count: number): boolean {
  const last = records.slice(Math.max(count - 1, 0), count + 1);
  return count === 0 ? last.length === 0 : last.length === 1;
}

export const NO_ROW_CHANGES: RowChanges = { added: [], removed: [], changed: [] };
