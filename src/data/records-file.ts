/**
 * The validated records on disk, as the preparation keeps them: V8-serialised in chunks, each
 * preceded by its length, so that a reader can go through a million records one chunk at a time
 * (comparing with the published build, writing the downloads) and nothing ever holds the whole
 * file as one buffer. A chunk is written as columns, one per field: numbers and booleans in typed
 * arrays, which V8 writes as raw bytes, the rest (names, logos) in arrays: as objects, every record
 * would repeat its thirteen field names, and every build and every edit in `npm run dev` reads the
 * file several times.
 */
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import type { CarModel } from './schema.ts';
import { ifPresent } from '../files/missing.ts';

/** What the file starts with: a file written another way (an older build's) is not read as this. */
const FORMAT = Buffer.from('listing-records/2\n');
/** Records per chunk: a few MB each. */
const CHUNK_RECORDS = 10_000;
/** Each chunk is preceded by its length in bytes, a 32-bit little-endian integer. */
const LENGTH_BYTES = 4;

/** A listing read in order a chunk at a time (never an empty chunk): from a records file, or from records in memory. */
export type RecordChunks = Iterable<readonly CarModel[]>;

/**
 * A text made a record of the listing at a time (a download): what opens it, each record's text,
 * what goes between two records, what closes it. Each record's bytes can so be found again, and
 * copied where the record did not change (see downloads.ts).
 */
export interface RecordText {
  start: string;
  record: (record: CarModel) => string;
  separator: string;
  end: string;
}

/** Records in memory as chunks, for what reads a listing chunk by chunk. */
export function* inChunks(records: readonly CarModel[]): Generator<readonly CarModel[]> {
  for (let start = 0; start < records.length; start += CHUNK_RECORDS) yield records.slice(start, start + CHUNK_RECORDS);
}

/** How a column is kept: numbers as float64 (any JS number exactly, -0 too), booleans as bytes, anything else as it is. */
type ColumnKind = 'number' | 'boolean' | 'value';

/** Records as columns (a chunk of the file; a part of a file read on another thread): `columns[f][r]` is record r's value of `fields[f]`. */
export interface RecordColumns {
  fields: string[];
  kinds: ColumnKind[];
  columns: (Float64Array | Uint8Array | unknown[])[];
  length: number;
}

/** A field's values, and how they are kept: typed where every value has that type. */
function columnOf(
  records: readonly Readonly<Record<string, unknown>>[],
  field: string,
): { kind: ColumnKind; column: Float64Array | Uint8Array | unknown[] } {
  const values: unknown[] = new Array<unknown>(records.length);
  let numbers = true;
  let booleans = true;
  for (let row = 0; row < records.length; row += 1) {
    const value = records[row]![field];
    values[row] = value;
    numbers &&= typeof value === 'number';
    booleans &&= typeof value === 'boolean';
  }
  if (numbers) return { kind: 'number', column: new Float64Array(values as number[]) };
  if (booleans) return { kind: 'boolean', column: new Uint8Array(values as number[]) };
  return { kind: 'value', column: values };
}

/** Records of one shape (the schema's, so every record has the first one's fields, in its order) as columns. */
export function toColumns(records: readonly CarModel[]): RecordColumns {
  const fields = Object.keys(records[0] ?? {});
  const kept = fields.map((field) => columnOf(records as readonly Readonly<Record<string, unknown>>[], field));
  return { fields, kinds: kept.map(({ kind }) => kind), columns: kept.map(({ column }) => column), length: records.length };
}

/**
 * Adds records `from` … `to - 1` of a chunk written by `toColumns` to `records` (returned): objects
 * with the same fields, in the same order, and the same values.
 */
export function addFromColumns({ fields, kinds, columns, length }: RecordColumns, records: CarModel[], from = 0, to = length): CarModel[] {
  for (let row = from; row < to; row += 1) {
    const record: Record<string, unknown> = {};
    for (let field = 0; field < fields.length; field += 1) {
      const value = columns[field]![row];
      record[fields[field]!] = kinds[field] === 'boolean' ? value === 1 : value;
    }
    records.push(record as CarModel);
  }
  return records;
}

export function writeRecordFile(file: string, records: readonly CarModel[]): void {
  const fd = openSync(file, 'w');
  try {
    writeFileSync(fd, FORMAT);
    for (const records_ of inChunks(records)) {
      const chunk = serialize(toColumns(records_));
      const length = Buffer.alloc(LENGTH_BYTES);
      length.writeUInt32LE(chunk.length);
      writeFileSync(fd, length);
      writeFileSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
}

/** The records of `file`, a chunk at a time, in order. */
export function* recordChunks(file: string): Generator<CarModel[]> {
  const opened = openRecordFile(file);
  try {
    yield* opened.chunks();
  } finally {
    opened.close();
  }
}

/** Records read by position: an open records file, or an array. */
export interface RecordSlices {
  slice: (start: number, end: number) => readonly CarModel[];
}

/**
 * A records file held open: its chunks can be read (again) even once the file is removed, as
 * another process pruning a cache may do meanwhile.
 */
export type OpenRecordFile = ReturnType<typeof openRecordFile>;

export function openRecordFile(file: string) {
  const fd = openSync(file, 'r');
  if (!startsWithFormat(fd)) {
    closeSync(fd);
    throw new Error(`${file} is not a records file of this version`);
  }
  /** Where each chunk's length is, found once by stepping over the chunks (100 of them at a million records). */
  let spans: ChunkSpan[] | undefined;
  let kept: { index: number; chunk: RecordColumns } | undefined;
  function chunkAt(index: number): RecordColumns | undefined {
    if (kept?.index === index) return kept.chunk;
    spans ??= [...chunkSpans(fd, file)];
    const span = spans[index];
    if (span === undefined) return undefined;
    const chunk = readChunk(fd, file, span);
    // Every chunk but the last holds exactly CHUNK_RECORDS records: `slice` counts on it.
    if (chunk.length !== CHUNK_RECORDS && index !== spans.length - 1) throw new Error(`${file} is not a records file of this version`);
    kept = { index, chunk };
    return chunk;
  }

  return {
    chunks: function* () {
      for (const chunk of columnChunks(fd, file)) yield addFromColumns(chunk, []);
    },
    /** Every record, in order (into one array, with no array per chunk). */
    all: () => {
      const records: CarModel[] = [];
      for (const chunk of columnChunks(fd, file)) addFromColumns(chunk, records);
      return records;
    },
    /**
     * Records `start` … `end - 1` (fewer past the end), reading only the chunks that hold them; the
     * last chunk read is kept, as consecutive slices (a build's pages, in order) mostly fall in one.
     */
    slice: (start: number, end: number) => {
      const records: CarModel[] = [];
      for (let index = Math.floor(start / CHUNK_RECORDS); records.length < end - start; index += 1) {
        const chunk = chunkAt(index);
        if (chunk === undefined) break;
        const first = index * CHUNK_RECORDS;
        addFromColumns(chunk, records, Math.max(start - first, 0), Math.min(end - first, chunk.length));
      }
      return records;
    },
    close: () => closeSync(fd),
  };
}

/** Where a chunk is: the position of its length, and its size in bytes after that. */
interface ChunkSpan {
  position: number;
  size: number;
}

/** Each chunk's span, in order, read from the lengths alone. */
function* chunkSpans(fd: number, file: string): Generator<ChunkSpan> {
  const length = Buffer.alloc(LENGTH_BYTES);
  let position = FORMAT.length;
  for (;;) {
    const read = readAll(fd, length, position);
    if (read === 0) return;
    if (read < LENGTH_BYTES) throw new Error(`${file} is cut short`);
    const size = length.readUInt32LE(0);
    yield { position, size };
    position += LENGTH_BYTES + size;
  }
}

function readChunk(fd: number, file: string, { position, size }: ChunkSpan): RecordColumns {
  const chunk = Buffer.allocUnsafe(size);
  if (readAll(fd, chunk, position + LENGTH_BYTES) < size) throw new Error(`${file} is cut short`);
  return deserialize(chunk) as RecordColumns;
}

function* columnChunks(fd: number, file: string): Generator<RecordColumns> {
  for (const span of chunkSpans(fd, file)) yield readChunk(fd, file, span);
}

/** Whether `file` exists and is a records file this code reads. */
export function isRecordFile(file: string): boolean {
  const fd = ifPresent(() => openSync(file, 'r'));
  if (fd === undefined) return false;
  try {
    return startsWithFormat(fd);
  } finally {
    closeSync(fd);
  }
}

function startsWithFormat(fd: number): boolean {
  const start = Buffer.alloc(FORMAT.length);
  return readAll(fd, start, 0) === FORMAT.length && start.equals(FORMAT);
}

export function readRecordFile(file: string): CarModel[] {
  const opened = openRecordFile(file);
  try {
    return opened.all();
  } finally {
    opened.close();
  }
}

/** Reads into all of `buffer` from `position`, short only at the end of the file; returns the bytes read. */
export function readAll(fd: number, buffer: Buffer, position: number): number {
  let total = 0;
  while (total < buffer.length) {
    const read = readSync(fd, buffer, total, buffer.length - total, position + total);
    if (read === 0) break;
    total += read;
  }
  return total;
}
