/**
 * A published JSON document written as `JSON.stringify(value, null, 2)` writes it, a piece at a
 * time: a clean build of a million rows lists every row, file and URL in its change documents
 * (about 100 MB each) and every file in its manifest (50 MB), and holding each as one string, with
 * the work of making it, would be the build's peak memory.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';

/** Text gathered before a write. */
const PIECE_CHARACTERS = 1 << 16;

/**
 * Writes `value` into `file` (a new file, or one replaced) as JSON.stringify(value, null, 2) would,
 * `end` after it; returns the bytes' SHA-256. Where it fails (a BigInt, a cycle), no file is left.
 */
export function writeJsonFile(file: string, value: unknown, end = ''): string {
  const fd = openSync(file, 'w');
  const hash = createHash('sha256');
  let pieces: string[] = [];
  let gathered = 0;
  const flush = () => {
    const bytes = Buffer.from(pieces.join(''));
    writeFileSync(fd, bytes);
    hash.update(bytes);
    pieces = [];
    gathered = 0;
  };
  const out = (text: string) => {
    pieces.push(text);
    gathered += text.length;
    if (gathered >= PIECE_CHARACTERS) flush();
  };
  /** A value as JSON.stringify takes it: its `toJSON(key)`, a boxed primitive unboxed; undefined where it has no JSON form. */
  const resolved = (key: string, value: unknown): unknown => {
    const hasMethods = (value !== null && typeof value === 'object') || typeof value === 'function' || typeof value === 'bigint';
    const toJSON = hasMethods ? (value as { toJSON?: (key: string) => unknown }).toJSON : undefined;
    const given = typeof toJSON === 'function' ? toJSON.call(value, key) : value;
    if (given instanceof Number || given instanceof String || given instanceof Boolean) return given.valueOf();
    return typeof given === 'function' || typeof given === 'symbol' ? undefined : given;
  };
  const write = (value: unknown, indent: string): void => {
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (value.length === 0) return out('[]');
      out('[');
      // By index, as JSON.stringify: a hole is null.
      for (let at = 0; at < value.length; at += 1) {
        out(at === 0 ? `\n${inner}` : `,\n${inner}`);
        const item = resolved(String(at), value[at]);
        if (item === undefined) out('null');
        else write(item, inner);
      }
      return out(`\n${indent}]`);
    }
    if (value !== null && typeof value === 'object') {
      const entries = Object.keys(value).flatMap((key) => {
        const item = resolved(key, (value as Record<string, unknown>)[key]);
        return item === undefined ? [] : [[key, item] as const];
      });
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
    const top = resolved('', value);
    if (top === undefined) throw new TypeError(`${file}: the value has no JSON form`);
    write(top, '');
    out(end);
    flush();
  } catch (error) {
    // No part of a document is left behind: the file is removed whole, then the error goes on.
    closeSync(fd);
    rmSync(file, { force: true });
    throw error;
  }
  closeSync(fd);
  return hash.digest('hex');
}
