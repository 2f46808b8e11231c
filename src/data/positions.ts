/**
 * Where a row's field begins in the file as an editor shows it: its line and its column in
 * characters. A problem names the line its row starts on and the field's number; a field of a row
 * with a quoted line break may begin on a later line. Workflow annotations point there.
 */
import type { CsvText } from './load.ts';
import { CR, LF, QUOTE } from './lines.ts';

export interface TextPosition {
  /** 1-based. */
  line: number;
  /** 1-based, in characters (code points). */
  column: number;
}

/** A UTF-8 byte that continues a character rather than beginning one. */
const continues = (byte: number) => (byte & 0xc0) === 0x80;

/** The length of the line break at `at` (CR LF, LF or a CR alone, each one line, as editors and the problems count them), 0 where there is none. */
const lineBreakAt = (body: Buffer, at: number): number => (body[at] === LF ? 1 : body[at] !== CR ? 0 : body[at + 1] === LF ? 2 : 1);

/** Where each line of a file begins, found once a file (a check of many problems asks for many). */
const lineStarts = new WeakMap<Buffer, number[]>();
function lineStartsOf(body: Buffer): number[] {
  let starts = lineStarts.get(body);
  if (starts === undefined) {
    starts = [0];
    for (let at = 0; at < body.length; at += 1) {
      const length = lineBreakAt(body, at);
      if (length === 0) continue;
      at += length - 1;
      starts.push(at + 1);
    }
    lineStarts.set(body, starts);
  }
  return starts;
}

/**
 * Where field `field` (1-based) of the row starting on line `line` begins, or undefined where the
 * file has no such line or the row no such field.
 */
export function fieldPosition({ body, format }: CsvText, line: number, field: number): TextPosition | undefined {
  const offset = lineStartsOf(body)[line - 1];
  if (offset === undefined || offset >= body.length) return undefined;
  const separator = format.separator.charCodeAt(0);
  let position = { line, column: 1 };
  let index = 1;
  let inQuotes = false;
  let fieldStart = true;
  for (let at = offset; at < body.length; at += 1) {
    if (index === field && fieldStart) return position;
    const byte = body[at]!;
    if (inQuotes) {
      if (byte === QUOTE && body[at + 1] === QUOTE) {
        at += 1;
        position = { ...position, column: position.column + 2 };
      } else if (byte === QUOTE) {
        inQuotes = false;
        position = { ...position, column: position.column + 1 };
      } else if (lineBreakAt(body, at) > 0) {
        at += lineBreakAt(body, at) - 1;
        position = { line: position.line + 1, column: 1 };
      } else if (!continues(byte)) position = { ...position, column: position.column + 1 };
      continue;
    }
    if (byte === LF || byte === CR) return undefined;
    if (byte === QUOTE && fieldStart) inQuotes = true;
    fieldStart = byte === separator;
    if (fieldStart) index += 1;
    if (!continues(byte)) position = { ...position, column: position.column + 1 };
  }
  return index === field && fieldStart ? position : undefined;
}
