/**
 * A published JSON document written as `JSON.stringify(value, null, 2)` writes it, a piece at a
 * time: a clean build of a million rows lists every row, file and URL in its change documents
 * (about 100 MB each) and every file in its manifest (50 MB), and holding each as one string, with
 * the work of making it, was the build's peak memory.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';

/** Text gathered before a write. */
const PIECE_CHARACTERS = 1 << 16;

/** Writes `value` into `file` (a new file, or one replaced) as JSON indented by two spaces, `end` after it; returns the bytes' SHA-256. */
export function writeJsonFile(file: string, value: unknown, end = ''): string {
  const fd = openSync(file, 'w');
  const hash = createHash('sha256');
  let pieces: string[] = [];
  let gathered = 0;
  const flush = () => {
    const bytes = Buffer.from(pieces.join(''));
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
    hash.update(bytes);
    pieces = [];
    gathered = 0;
  };
  const out = (text: string) => {
    pieces.push(text);
    gathered += text.length;
    if (gathered >= PIECE_CHARACTERS) flush();
  };
  const write = (value: unknown, indent: string): void => {
    const json = (value as { toJSON?: () => unknown } | null)?.toJSON;
    if (typeof json === 'function') return write(json.call(value), indent);
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (value.length === 0) return out('[]');
      out('[');
      value.forEach((item: unknown, at) => {
        out(at === 0 ? `\n${inner}` : `,\n${inner}`);
        // As JSON.stringify: what has no JSON form is null in an array, and left out of an object.
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') out('null');
        else write(item, inner);
      });
      return out(`\n${indent}]`);
    }
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value).filter(
        ([, item]) => item !== undefined && typeof item !== 'function' && typeof item !== 'symbol',
      );
      if (entries.length === 0) return out('{}');
      out('{');
      entries.forEach(([key, item], at) => {
        out(`${at === 0 ? '\n' : ',\n'}${inner}${JSON.stringify(key)}: `);
        write(item, inner);
      });
      return out(`\n${indent}}`);
    }
    out(JSON.stringify(value));
  };
  try {
    write(value, '');
    out(end);
    flush();
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
