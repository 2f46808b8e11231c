/**
 * CSV bytes to validated records: checks the text's encoding, its header and every row, and returns
 * every problem it finds with the file, line, column and rule, not only the first. A data file is
 * read through read.ts, which gives it the bytes.
 */
import { isUtf8 } from 'node:buffer';
import { parse, type CsvError, type InfoRecord } from 'csv-parse/sync';
import { FIELDS, rowParser, type CarModel, type CsvRow, type FieldName } from './schema.ts';
import type { Problem } from './problems.ts';
import { CR, LF, lineBreaksOf, lineCounter, recordDelimiterOf } from './lines.ts';

export interface LoadResult {
  /** The valid records, in file order: none where any row has a problem (all in `problems`, in the order of the file), or they were not wanted. */
  records: CarModel[];
  problems: Problem[];
  /** Rows read, blank ones aside: as many as `records` where there is no problem, unless the records were not kept (load-threads.ts). */
  rows: number;
}

/** The separators spreadsheets write: comma, semicolon (many locales' default), tab ("Text" exports). */
const SEPARATORS = { ',': 'comma', ';': 'semicolon', '\t': 'tab' } as const;
type Separator = keyof typeof SEPARATORS;

export interface CsvFormat {
  encoding: 'UTF-8' | 'UTF-8 with BOM' | 'UTF-16LE' | 'UTF-16BE';
  separator: Separator;
}

/** How a file is written, for people: "UTF-8, comma-separated". */
export const formatName = ({ encoding, separator }: CsvFormat): string => `${encoding}, ${SEPARATORS[separator]}-separated`;

export interface LoadProgress {
  /** Called every `every` rows with the number of rows read so far. */
  onRows?: (rows: number) => void;
  every?: number;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
/** Lines with invalid bytes named in the problem before it sums up the rest. */
const ENCODING_LINES_NAMED = 5;

/** A quote problem found on a later line of a row whose line leaves a quoted field open. */
const QUOTE_LEFT_OPEN_RULE =
  'a quoted field opens on this line and its quotes do not pair up where the row should end: close the quote on this line, ' +
  'or double each quote inside the field ("")';

const CSV_ERROR_RULES: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is opened here and never closed: add the closing " (a quote inside a quoted field is written "")',
  CSV_INVALID_CLOSING_QUOTE: 'text follows the closing quote of a field: a quote inside a quoted field must be doubled ("")',
  INVALID_OPENING_QUOTE: 'a quote appears inside an unquoted field: quote the whole field and double the inner quote ("")',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE:
    'text follows the closing quote of a field: a quote inside a quoted field must be doubled ("")',
};

/** A CSV file as text: UTF-8 without a byte-order mark, and how it was written. */
export interface CsvText {
  body: Buffer;
  format: CsvFormat;
}

/** The file's text, or the problem that it is not text this reads (a legacy encoding, binary, empty, a Git LFS pointer). */
export function decodeCsv(input: Uint8Array, file: string): CsvText | { problems: Problem[] } {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const pointer = lfsPointerProblem(bytes);
  if (pointer !== undefined) return { problems: [{ file, line: 0, rule: pointer }] };
  const decoded = decodeText(bytes, file);
  if ('problems' in decoded) return decoded;
  const { body, encoding } = decoded;
  if (body.every((byte) => byte === LF || byte === CR || byte === 0x20 || byte === 0x09))
    return { problems: [{ file, line: 0, rule: `is empty: it needs a header row with the ${FIELDS.length} fields ${FIELDS.join(', ')}` }] };
  return { body, format: { encoding, separator: separatorOf(body) } };
}

/** Validates a CSV file's text (see `decodeCsv`). */
export function loadText(text: CsvText, file: string, progress: LoadProgress = {}): LoadResult {
  return resultOf(readRows(text, file, progress));
}

/** What reading a file's rows found, before its problems decide what is kept (see `resultOf`). */
export interface RowsRead {
  /** Every valid record, in file order, also where other rows have problems. */
  records: CarModel[];
  /** In the order they were found. */
  problems: Problem[];
  /** Each valid record's id, and the line its row starts on. */
  lineOfId: Map<number, number>;
  /** Rows read, blank ones aside. */
  rows: number;
  /** Whether csv-parse found text it cannot read as CSV (a quote out of place, or never closed). */
  unreadable: boolean;
}

/** The records where no row has a problem, else none; the problems in the order of the file. */
export function resultOf({ records, problems, rows }: Pick<RowsRead, 'records' | 'problems' | 'rows'>): LoadResult {
  problems.sort((a, b) => a.line - b.line || (a.column ?? Infinity) - (b.column ?? Infinity));
  return { records: problems.length > 0 ? [] : records, problems, rows };
}

/** How load-threads.ts reads a half of a file. */
export interface ReadOptions {
  /** Told where a good header row ends as soon as it is read (the other half's thread starts there). */
  onHeader?: (headerEnd: number) => void;
  /** Lines before the text's rows that it leaves out: added to every line number (the rows of a file's second half). */
  lineShift?: number;
}

/** Thrown out of csv-parse to read on from the line after a row it cannot read past. */
const RESUME = Symbol('resume after the line');

/** Reads and checks every row of a CSV file's text. */
export function readRows(
  { body, format }: CsvText,
  file: string,
  progress: LoadProgress = {},
  { onHeader, lineShift = 0 }: ReadOptions = {},
): RowsRead {
  const problems: Problem[] = [];
  const records: CarModel[] = [];
  const lineOfId = new Map<number, number>();
  let columns: FieldName[] | undefined;
  /** Header cells in all, with the empty ones a spreadsheet leaves after the last named column. */
  let headerWidth = 0;
  let headerBroken = false;
  let unreadable = false;
  const every = progress.every ?? 100_000;
  let rows = 0;
  const parseRow = rowParser();
  /** Where the text read now begins, and the lines before it: moved on past a row csv-parse cannot read on from. */
  let start = 0;
  let shift = lineShift;
  const breaks = lineBreaksOf(body);
  const recordDelimiter = recordDelimiterOf(body);

  for (;;) {
    const text = start === 0 ? body : body.subarray(start);
    const lines = lineCounter(text, shift, breaks);
    let resumeAfterLine: number | undefined;
    try {
      parse(text, {
        delimiter: format.separator,
        // The whole file's, also where reading resumes on a line after a line break inside a field.
        record_delimiter: recordDelimiter,
        skip_empty_lines: true,
        relax_column_count: true,
        skip_records_with_error: true,
        on_skip: (error: CsvError | undefined) => {
          if (!error) return;
          unreadable = true;
          // A quote out of place is the row's where it starts (csv-parse may find it lines later, where a
          // quote left open meets the next one): named there, in words that fit that line.
          const line = lines.startOfNextRecord();
          const rule = quoteRule(lines.textOfLine(line), error, format.separator);
          // csv-parse reports a stray quote once for every quote in the row: name the row once.
          const last = problems.at(-1);
          if (last?.line !== line || last.rule !== rule) problems.push({ file, line, rule });
          // What csv-parse reads after it depends on where the quotes it paired up were: the rows below
          // are read anew from the next line, so that each is read as written and every problem is found.
          if (columns !== undefined) {
            resumeAfterLine = line;
            throw RESUME;
          }
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
              headerWidth = record.length;
              onHeader?.(context.bytes);
            }
            return null;
          }
          if (columns === undefined) return null;
          // A row of empty cells is what a spreadsheet writes for a blank row: a blank line.
          if (record.every((cell) => cell === '')) return null;
          rows += 1;
          if (progress.onRows && rows % every === 0) progress.onRows(rows);

          const shapeProblems = checkRowShape(record, columns.length, headerWidth);
          if (shapeProblems.length > 0) {
            problems.push(...shapeProblems.map((problem) => ({ file, line, ...problem })));
            return null;
          }
          const row = rowFromRecord(record, columns);
          const result = parseRow(row);
          if (!result.success) {
            for (const issue of result.error.issues) {
              const field = issue.path[0] as FieldName;
              problems.push({ file, line, column: columns.indexOf(field) + 1, field, rule: issue.message, value: row[field] });
            }
            return null;
          }
          const model = result.data;
          const firstLine = lineOfId.get(model.id);
          if (firstLine !== undefined) {
            const rule = `must be unique: line ${firstLine} has the same id`;
            problems.push({ file, line, column: columns.indexOf('id') + 1, field: 'id', rule, value: row.id });
            return null;
          }
          lineOfId.set(model.id, line);
          records.push(model);
          return null;
        },
      });
    } catch (error) {
      // Thrown by on_skip above to read on from the next line; anything else is csv-parse's own failure.
      if (error !== RESUME) throw error;
    }
    if (resumeAfterLine === undefined) break;
    const resumeAt = lines.offsetAfterLine(resumeAfterLine);
    if (resumeAt >= text.length) break;
    start += resumeAt;
    shift = resumeAfterLine;
  }

  if (columns === undefined && !headerBroken && problems.length === 0) problems.push({ file, line: 1, rule: 'has no header row' });
  return { records, problems, lineOfId, rows, unreadable };
}

/**
 * A row's cells against the header: as many as it names, plus any number of empty ones after them
 * (spreadsheets write them for columns that were ever touched). A value past the named columns is a
 * problem: in a column the header leaves unnamed, or past the header's end.
 */
function checkRowShape(record: readonly string[], named: number, headerWidth: number): Omit<Problem, 'file' | 'line'>[] {
  if (record.length < named) {
    return [{ rule: `has ${record.length} field${record.length === 1 ? '' : 's'} but the header has ${named}` }];
  }
  const extra = record.slice(named);
  if (extra.every((cell) => cell === '')) return [];
  if (record.length > headerWidth) return [{ rule: `has ${record.length} fields but the header has ${headerWidth}` }];
  const rule = 'has a value in a column the header does not name: name the column or clear the cell';
  return extra.flatMap((cell, index) => (cell === '' ? [] : [{ column: named + index + 1, rule, value: cell }]));
}

/**
 * The separator the header row is written with: the one that splits it into the most known field
 * names. The header decides, since a name or logo in a data row may hold any of them; a tie (or a
 * header with no known name) is read with commas, so the usual header problems are reported.
 */
function separatorOf(body: Buffer): Separator {
  let start = 0;
  while (body[start] === LF || body[start] === CR) start += 1;
  const end = body.indexOf(LF, start);
  const headerLine = body.subarray(start, end === -1 ? body.length : end);
  const known = new Set<string>(FIELDS);
  let best: Separator = ',';
  let bestCount = 0;
  for (const separator of Object.keys(SEPARATORS) as Separator[]) {
    let cells: string[] = [];
    try {
      cells = parse(headerLine, { delimiter: separator, relax_column_count: true, relax_quotes: true, to_line: 1 })[0] ?? [];
    } catch {
      // A header this separator cannot read has no known names under it.
    }
    const count = cells.filter((cell) => known.has(cell.trim())).length;
    if (count > bestCount) {
      best = separator;
      bestCount = count;
    }
  }
  return best;
}

/** How a Git LFS pointer file begins (its specification's first line); such a file is under 1,024 bytes. */
const LFS_POINTER_START = 'version https://git-lfs.github.com/spec/';
const LFS_POINTER_MAX_BYTES = 1024;

/**
 * A file kept in Git LFS and checked out without it is a pointer of three lines naming the real
 * file: said as what it is, with the fix, rather than as a CSV with a bad header.
 */
function lfsPointerProblem(bytes: Buffer): string | undefined {
  if (bytes.length >= LFS_POINTER_MAX_BYTES || !bytes.toString('latin1', 0, LFS_POINTER_START.length).startsWith(LFS_POINTER_START))
    return undefined;
  const size = /^size (\d+)$/m.exec(bytes.toString('utf8'))?.[1];
  const named = size === undefined ? 'the file it names' : `the file of ${Number(size).toLocaleString('en')} bytes it names`;
  return (
    `is a Git LFS pointer, not the CSV: ${named} was not fetched. Run "git lfs pull" ` +
    '(in GitHub Actions, actions/checkout with "lfs: true"; on a host\'s own Git build, turn its Git LFS support on: docs/deploy.md)'
  );
}

type Decoded = { body: Buffer; encoding: CsvFormat['encoding'] } | { problems: Problem[] };

/**
 * The file as UTF-8 bytes without a byte-order mark. UTF-16 (Excel's "Unicode Text") is read: its
 * byte-order mark, or the zero bytes of the ASCII header, say which byte order. Legacy encodings
 * (Big5, GBK, TIS-620, …) cannot be told apart reliably, so they are refused in one problem.
 */
function decodeText(bytes: Buffer, file: string): Decoded {
  if (UTF8_BOM.every((byte, index) => bytes[index] === byte)) {
    const body = bytes.subarray(UTF8_BOM.length);
    return isUtf8(body) ? { body, encoding: 'UTF-8 with BOM' } : { problems: legacyEncodingProblems(body, file) };
  }
  const utf16 = utf16Order(bytes);
  if (utf16) {
    const withoutBom = utf16.bom ? bytes.subarray(2) : bytes;
    try {
      const text = new TextDecoder(utf16.encoding === 'UTF-16LE' ? 'utf-16le' : 'utf-16be', { fatal: true }).decode(withoutBom);
      return { body: Buffer.from(text, 'utf8'), encoding: utf16.encoding };
    } catch {
      // TextDecoder's fatal mode throws at the first bad sequence: the file's problem, reported.
      return { problems: [{ file, line: 0, rule: `is not valid ${utf16.encoding} text: export it as "CSV UTF-8"` }] };
    }
  }
  if (bytes.includes(0))
    return { problems: [{ file, line: 0, rule: 'is binary, not text (it contains NUL bytes): export the sheet as "CSV UTF-8"' }] };
  return isUtf8(bytes) ? { body: bytes, encoding: 'UTF-8' } : { problems: legacyEncodingProblems(bytes, file) };
}

/** UTF-16's byte order, from a byte-order mark or from the header's first (ASCII) character. */
function utf16Order(bytes: Buffer): { encoding: 'UTF-16LE' | 'UTF-16BE'; bom: boolean } | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'UTF-16LE', bom: true };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'UTF-16BE', bom: true };
  const ascii = (byte: number | undefined) => byte !== undefined && byte > 0 && byte < 0x80;
  if (bytes.length % 2 !== 0) return undefined;
  if (ascii(bytes[0]) && bytes[1] === 0 && ascii(bytes[2]) && bytes[3] === 0) return { encoding: 'UTF-16LE', bom: false };
  if (bytes[0] === 0 && ascii(bytes[1]) && bytes[2] === 0 && ascii(bytes[3])) return { encoding: 'UTF-16BE', bom: false };
  return undefined;
}

/** One problem for a file in a legacy encoding, naming its first bad lines. */
function legacyEncodingProblems(body: Buffer, file: string): Problem[] {
  const badLines: number[] = [];
  let start = 0;
  for (let line = 1; start <= body.length; line += 1) {
    const end = body.indexOf(LF, start);
    const stop = end === -1 ? body.length : end;
    if (!isUtf8(body.subarray(start, stop))) badLines.push(line);
    if (end === -1) break;
    start = end + 1;
  }
  const named = badLines.slice(0, ENCODING_LINES_NAMED).join(', ');
  const more = badLines.length > ENCODING_LINES_NAMED ? `, … ${badLines.at(-1)}` : '';
  const lines = badLines.length === 1 ? `line ${named} has` : `${badLines.length} lines (${named}${more}) have`;
  const rule =
    `is not UTF-8 text: ${lines} bytes that UTF-8 does not allow; it looks like a legacy encoding such as ` +
    'Windows-1252 (what a Western Excel saves as plain "CSV"), Big5, Big5-HKSCS, GBK or TIS-620: export the sheet as "CSV UTF-8" (Excel: CSV UTF-8; LibreOffice: character set Unicode (UTF-8))';
  return [{ file, line: badLines[0] ?? 0, rule }];
}

/**
 * The header's field names, in column order. Empty cells after the last name are columns a
 * spreadsheet wrote but nobody named: they are left out (their cells are checked row by row).
 */
function readHeader(record: string[], file: string, line: number): { columns: FieldName[]; problems: Problem[] } {
  const names = record.map((name) => name.trim());
  while (names.length > 0 && names.at(-1) === '') names.pop();
  const problems: Problem[] = [];
  const known = new Set<string>(FIELDS);
  names.forEach((name, index) => {
    if (name === '') {
      problems.push({ file, line, column: index + 1, rule: 'column has no name: name it with one of the fields, or delete it' });
    } else if (!known.has(name)) {
      const suggestion = closestField(name);
      const hint = suggestion ? `: did you mean "${suggestion}"?` : '';
      const rule = `unknown column${hint} (the header must name the ${FIELDS.length} fields ${FIELDS.join(', ')})`;
      problems.push({ file, line, column: index + 1, rule, value: name });
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
 * The rule of a quote out of place in the row that starts on `line`: what is wrong with the line's
 * own quotes, as csv-parse reads the line alone; where they leave a quoted field open, which
 * csv-parse found closed wrongly on a later line, that; else csv-parse's error for the row.
 */
function quoteRule(line: Buffer, error: CsvError, separator: Separator): string {
  let own: string | undefined;
  try {
    parse(line, { delimiter: separator, relax_column_count: true });
  } catch (lineError) {
    // csv-parse's error for this line alone is the answer sought: what is wrong with its own quotes.
    own = (lineError as CsvError).code;
  }
  if (own === 'CSV_QUOTE_NOT_CLOSED' && error.code !== 'CSV_QUOTE_NOT_CLOSED') return QUOTE_LEFT_OPEN_RULE;
  const code = own === undefined || own === 'CSV_QUOTE_NOT_CLOSED' ? error.code : own;
  return CSV_ERROR_RULES[code] ?? error.message;
}
