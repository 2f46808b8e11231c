/**
 * CSV bytes to validated records. Reads the whole file, checks its encoding, its header and every
 * row, and returns every problem it finds with the file, line, column and rule, not only the first.
 */
import { readFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { parse, type CsvError, type InfoRecord } from 'csv-parse/sync';
import { FIELDS, rowSchema, type CarModel, type CsvRow, type FieldName } from './schema.ts';
import type { Problem } from './problems.ts';

export interface LoadResult {
  /** The valid records, in file order. Empty when any problem was found. */
  records: CarModel[];
  problems: Problem[];
}

export interface LoadProgress {
  /** Called every `every` rows with the number of rows read so far. */
  onRows?: (rows: number) => void;
  every?: number;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
const LF = 0x0a;
const CR = 0x0d;
/** Lines with invalid bytes named one by one before the report sums up the rest. */
const ENCODING_LINES_NAMED = 20;

const CSV_ERROR_RULES: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED:
    'a quoted field is opened here and never closed: add the closing " (a quote inside a quoted field is written "")',
  CSV_INVALID_CLOSING_QUOTE:
    'text follows the closing quote of a field: a quote inside a quoted field must be doubled ("")',
  CSV_INVALID_OPENING_QUOTE:
    'a quote appears inside an unquoted field: quote the whole field and double the inner quote ("")',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE:
    'text follows the closing quote of a field: a quote inside a quoted field must be doubled ("")',
};

/** Reads and validates a CSV data file. `file` is also the name used in problems. */
export function loadFile(file: string, progress: LoadProgress = {}): LoadResult {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { records: [], problems: [{ file, line: 0, rule: `cannot be read: ${reason}` }] };
  }
  return loadCsv(bytes, file, progress);
}

/** Validates CSV bytes; `file` names them in problems. */
export function loadCsv(input: Uint8Array, file: string, progress: LoadProgress = {}): LoadResult {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const body = hasUtf8Bom(bytes) ? bytes.subarray(UTF8_BOM.length) : bytes;

  const encodingProblems = checkEncoding(body, file);
  if (encodingProblems.length > 0) return { records: [], problems: encodingProblems };
  if (body.every((byte) => byte === LF || byte === CR || byte === 0x20 || byte === 0x09)) {
    return {
      records: [],
      problems: [{ file, line: 0, rule: `is empty: it needs a header row with the ${FIELDS.length} fields ${FIELDS.join(', ')}` }],
    };
  }

  const problems: Problem[] = [];
  const records: CarModel[] = [];
  const lineOfId = new Map<number, number>();
  const lines = new LineCounter(body);
  let columns: FieldName[] | undefined;
  let headerBroken = false;
  const every = progress.every ?? 100_000;
  let rows = 0;

  parse(body, {
    skip_empty_lines: true,
    relax_column_count: true,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      if (!error) return;
      // An unclosed quote runs to the end of the file: name the line where its record starts.
      const line = error.code === 'CSV_QUOTE_NOT_CLOSED' ? lines.startOfNextRecord() : Number(error['lines']);
      problems.push({ file, line, rule: CSV_ERROR_RULES[error.code] ?? error.message });
    },
    on_record: (record: string[], context: InfoRecord) => {
      const line = lines.startOfRecordEndingAt(context.bytes);
      if (columns === undefined && !headerBroken) {
        const header = readHeader(record, file, line);
        if (header.problems.length > 0) {
          problems.push(...header.problems);
          headerBroken = true;
        } else {
          columns = header.columns;
        }
        return null;
      }
      if (columns === undefined) return null;
      rows += 1;
      if (progress.onRows && rows % every === 0) progress.onRows(rows);

      if (record.length !== columns.length) {
        problems.push({
          file,
          line,
          rule: `has ${record.length} field${record.length === 1 ? '' : 's'} but the header has ${columns.length}`,
        });
        return null;
      }
      const row = rowFromRecord(record, columns);
      const result = rowSchema.safeParse(row);
      if (!result.success) {
        for (const issue of result.error.issues) {
          const field = issue.path[0] as FieldName;
          problems.push({ file, line, column: columns.indexOf(field) + 1, field, rule: issue.message, value: row[field] });
        }
        return null;
      }
      const record_ = result.data;
      const firstLine = lineOfId.get(record_.id);
      if (firstLine !== undefined) {
        problems.push({
          file,
          line,
          column: columns.indexOf('id') + 1,
          field: 'id',
          rule: `must be unique: line ${firstLine} has the same id`,
          value: row.id,
        });
        return null;
      }
      lineOfId.set(record_.id, line);
      records.push(record_);
      return null;
    },
  });

  if (columns === undefined && !headerBroken && problems.length === 0) {
    problems.push({ file, line: 1, rule: 'has no header row' });
  }
  problems.sort((a, b) => a.line - b.line || (a.column ?? Infinity) - (b.column ?? Infinity));
  return { records: problems.length > 0 ? [] : records, problems };
}

function hasUtf8Bom(bytes: Buffer): boolean {
  return UTF8_BOM.every((byte, index) => bytes[index] === byte);
}

/** Names UTF-16 files and the lines of legacy encodings (Big5, TIS-620, …) that are not UTF-8. */
function checkEncoding(body: Buffer, file: string): Problem[] {
  const utf16 = (body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff);
  if (utf16 || body.includes(0)) {
    return [
      {
        file,
        line: 0,
        rule: `is ${utf16 ? 'UTF-16' : 'binary or UTF-16 (it contains NUL bytes)'}, not UTF-8 text: save it as "CSV UTF-8"`,
      },
    ];
  }
  if (isUtf8(body)) return [];

  const badLines: number[] = [];
  let start = 0;
  for (let line = 1; start <= body.length; line += 1) {
    const end = body.indexOf(LF, start);
    const stop = end === -1 ? body.length : end;
    if (!isUtf8(body.subarray(start, stop))) badLines.push(line);
    if (end === -1) break;
    start = end + 1;
  }
  const rule =
    'is not valid UTF-8 text (it looks like a legacy encoding such as Big5, GBK or TIS-620): save the file as "CSV UTF-8"';
  const problems: Problem[] = badLines.slice(0, ENCODING_LINES_NAMED).map((line) => ({ file, line, rule }));
  if (badLines.length > ENCODING_LINES_NAMED) {
    problems.push({
      file,
      line: 0,
      rule: `has ${badLines.length - ENCODING_LINES_NAMED} more lines that are not valid UTF-8 (lines ${badLines[ENCODING_LINES_NAMED]} to ${badLines.at(-1)})`,
    });
  }
  return problems;
}

function readHeader(record: string[], file: string, line: number): { columns: FieldName[]; problems: Problem[] } {
  const names = record.map((name) => name.trim());
  const problems: Problem[] = [];
  const known = new Set<string>(FIELDS);
  names.forEach((name, index) => {
    if (!known.has(name)) {
      const suggestion = closestField(name);
      problems.push({
        file,
        line,
        column: index + 1,
        rule: `unknown column${suggestion ? `: did you mean "${suggestion}"?` : ''} (the header must name the ${FIELDS.length} fields ${FIELDS.join(', ')})`,
        value: name,
      });
    } else if (names.indexOf(name) !== index) {
      problems.push({ file, line, column: index + 1, field: name, rule: 'column appears twice in the header', value: name });
    }
  });
  for (const field of FIELDS) {
    if (!names.includes(field)) problems.push({ file, line, field, rule: 'column is missing from the header' });
  }
  return { columns: names as FieldName[], problems };
}

/** The field a misspelt header name most likely meant, if one is close. */
function closestField(name: string): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(3, Math.floor(lower.length / 4)) + 1;
  for (const field of FIELDS) {
    const distance = editDistance(lower, field);
    if (distance < bestDistance) {
      best = field;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function rowFromRecord(record: string[], columns: readonly FieldName[]): CsvRow {
  const row = {} as Record<FieldName, string>;
  for (let index = 0; index < columns.length; index += 1) row[columns[index]!] = record[index]!;
  return row;
}

/**
 * Line numbers from byte offsets. csv-parse's own line count goes wrong on CRLF inside quoted
 * fields, so the start line of each record is counted here, once over the file.
 */
class LineCounter {
  private offset = 0;
  private line = 1;
  private readonly bytes: Buffer;

  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  /** The line the next record starts on, past any blank lines, without moving on. */
  startOfNextRecord(end = this.bytes.length): number {
    this.skipBlankLines(end);
    return this.line;
  }

  /** The line a record starts on, given the offset where it (and its line break) ends. */
  startOfRecordEndingAt(end: number): number {
    const start = this.startOfNextRecord(end);
    const { bytes } = this;
    for (let next = bytes.indexOf(LF, this.offset); next !== -1 && next < end; next = bytes.indexOf(LF, next + 1)) {
      this.line += 1;
    }
    this.offset = end;
    return start;
  }

  /** Blank lines before a record belong to no record. */
  private skipBlankLines(end: number): void {
    const { bytes } = this;
    while (this.offset < end && (bytes[this.offset] === LF || bytes[this.offset] === CR)) {
      if (bytes[this.offset] === LF) this.line += 1;
      this.offset += 1;
    }
  }
}
