/**
 * Lines and line breaks of a CSV file's bytes: its record delimiter as csv-parse finds it, and line
 * numbers from byte offsets, counted as editors count them, for the problems load.ts names.
 */

export const LF = 0x0a;
export const CR = 0x0d;
export const QUOTE = 0x22;

/** A file's record delimiter, as csv-parse discovers it: its first line break outside quotes (CR LF before LF). */
export function recordDelimiterOf(body: Buffer): '\n' | '\r\n' | '\r' {
  let quoted = false;
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index];
    if (byte === QUOTE) quoted = !quoted;
    else if (!quoted && byte === LF) return '\n';
    else if (!quoted && byte === CR) return body[index + 1] === LF ? '\r\n' : '\r';
  }
  // No line break outside quotes: one record, whatever the delimiter.
  return '\n';
}

/** Which line break bytes a file holds (where it has none of one, no search for it runs), and which one ends its records. */
export interface LineBreaks {
  lf: boolean;
  cr: boolean;
  /** The last byte of the record delimiter: each record ends in one, so a search for it never runs far past a record. */
  ending: number;
}

export const lineBreaksOf = (body: Buffer): LineBreaks => ({
  lf: body.includes(LF),
  cr: body.includes(CR),
  ending: recordDelimiterOf(body) === '\r' ? CR : LF,
});

/**
 * Line breaks in `bytes` from `start` to `end`, as an editor counts them: CR LF, LF, and a CR alone
 * each end a line (a file's rows end in one kind, but a field may hold another: Excel writes LF
 * inside a cell of a CR LF file).
 */
function breaksBetween(bytes: Buffer, start: number, end: number, { lf, cr, ending }: LineBreaks): number {
  /** Where `byte` is from `at` on, before `end`: the other kind than the records' is searched within the range alone (a file with one far on). */
  const find = (byte: number, at: number) => {
    const found = byte === ending ? bytes.indexOf(byte, at) : bytes.subarray(at, end).indexOf(byte);
    return found === -1 ? -1 : byte === ending ? found : at + found;
  };
  let count = 0;
  if (lf) for (let at = find(LF, start); at !== -1 && at < end; at = find(LF, at + 1)) count += 1;
  if (cr) for (let at = find(CR, start); at !== -1 && at < end; at = find(CR, at + 1)) if (bytes[at + 1] !== LF) count += 1;
  return count;
}

/** Line breaks in `body` from `start` to `end` (`breaksBetween`). */
export const lineBreaksIn = (body: Buffer, start: number, end: number): number => breaksBetween(body, start, end, lineBreaksOf(body));

/** Where the line that holds `offset` ends (its line break's first byte), and where the next begins: read a byte at a time, as far as the line goes. */
function lineEndAfter(bytes: Buffer, offset: number): { end: number; next: number } {
  let at = offset;
  while (at < bytes.length && bytes[at] !== LF && bytes[at] !== CR) at += 1;
  if (at >= bytes.length) return { end: bytes.length, next: bytes.length };
  return { end: at, next: bytes[at] === CR && bytes[at + 1] === LF ? at + 2 : at + 1 };
}

/**
 * Line numbers from byte offsets, counted here once over the file (`breaksBetween`: csv-parse's own
 * count goes wrong on CR LF inside quoted fields). `shift`: lines before `bytes` that they leave out.
 */
export function lineCounter(bytes: Buffer, shift: number, breaks: LineBreaks) {
  let offset = 0;
  let line = 1 + shift;
  /** The line the next record starts on, past any blank lines (which belong to no record). */
  const startOfNextRecord = (end = bytes.length): number => {
    while (offset < end && (bytes[offset] === LF || bytes[offset] === CR)) {
      if (bytes[offset] === LF || bytes[offset + 1] !== LF) line += 1;
      offset += 1;
    }
    return line;
  };
  /** The line a record starts on, given the offset where it (and its line break) ends. */
  const startOfRecordEndingAt = (end: number): number => {
    const start = startOfNextRecord(end);
    line += breaksBetween(bytes, offset, end, breaks);
    offset = end;
    return start;
  };
  /** The offset where line `target` + 1 begins (the length where there is none), counted on from the last record. */
  const offsetAfterLine = (target: number): number => {
    let at = offset;
    for (let current = line; current <= target && at < bytes.length; current += 1) at = lineEndAfter(bytes, at).next;
    return Math.min(at, bytes.length);
  };
  /** The text of line `target` (from the last record on), without its line break. */
  const textOfLine = (target: number): Buffer => {
    const start = offsetAfterLine(target - 1);
    return bytes.subarray(start, lineEndAfter(bytes, start).end);
  };
  return { startOfNextRecord, startOfRecordEndingAt, offsetAfterLine, textOfLine };
}
