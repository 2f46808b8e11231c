/**
 * Cached files that are checked before use. Everything a build takes from a cache (prepared records
 * and text, downloads, page keys, host files) was hashed when it was written, and is taken again
 * only if its bytes still have that hash: a disk error, a sync tool or a half-restored CI cache
 * then costs a rebuild of that cache, never a wrong byte published. A damaged file is said in one
 * line (`damagedCacheLine`) and treated as absent.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { z } from 'zod';
import { ifPresent } from './missing.ts';

const BLOCK = 1 << 20;
/** One block for every file hashed (on this thread): a build hashes tens of thousands of pages. */
let block: Buffer | undefined;

/** SHA-256 (hex) of a file's bytes, read a block at a time (a million-row file is hundreds of MB). */
export function fileSha256(path: string): string {
  const hash = createHash('sha256');
  block ??= Buffer.allocUnsafe(BLOCK);
  const fd = openSync(path, 'r');
  try {
    for (let read = readSync(fd, block, 0, BLOCK, null); read > 0; read = readSync(fd, block, 0, BLOCK, null))
      hash.update(block.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * The hashes of files this process wrote or already found whole, by what their inode says (a write
 * changes its times, a folder renamed into place does not): each is read once per process, once
 * per build, and a dev server's next edit does not read again what its last one wrote.
 */
const known = new Map<string, string>();
const stamp = (path: string) => {
  const stats = statSync(path, { bigint: true });
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
};

/** Remembers for `firstDamaged` the SHA-256 of a file this process has just written (and will not write again). */
export function rememberSha256(path: string, sha256: string): void {
  known.set(stamp(path), sha256);
}

/**
 * The first of `files` (name → SHA-256 recorded when it was written, under `dir`) whose bytes do
 * not have their hash now (or that is gone), or undefined when all are whole.
 */
export function firstDamaged(dir: string, files: Readonly<Record<string, string>>): string | undefined {
  for (const [name, sha256] of Object.entries(files)) {
    const path = `${dir}/${name}`;
    // Gone is damaged too: the set is not whole.
    const now = ifPresent(() => stamp(path));
    if (now === undefined) return name;
    if (known.get(now) === sha256) continue;
    if (ifPresent(() => fileSha256(path)) !== sha256) return name;
    known.set(now, sha256);
  }
  return undefined;
}

/** Bytes that carry their own SHA-256 ahead of them: for a cached file whose hash has nowhere else to live. */
export function withHash(bytes: Uint8Array): Buffer {
  return Buffer.concat([createHash('sha256').update(bytes).digest(), bytes]);
}

/** The bytes `withHash` wrapped, if they still have their hash. */
export function withoutHash(file: Buffer): Buffer | undefined {
  if (file.length < 32) return undefined;
  const body = file.subarray(32);
  return createHash('sha256').update(body).digest().equals(file.subarray(0, 32)) ? body : undefined;
}

/** JSON with its own hash, for the cached files that are JSON. */
export const checkedJson = (value: unknown): Buffer => withHash(Buffer.from(JSON.stringify(value)));

/** What `decode` answers for bytes that are whole but written by another version: no value, and not damaged. */
export const OTHER_VERSION = Symbol('another version');

/**
 * What `decode` makes of the bytes a `withHash` file wrapped, if the file is there, still has its
 * hash and `decode` accepts it (undefined: it does not); else undefined (`damaged` is told when a
 * file is there but not whole, or `decode` refuses it, but not for OTHER_VERSION).
 */
export function readChecked<T>(
  path: string,
  decode: (body: Buffer) => T | typeof OTHER_VERSION | undefined,
  damaged?: (path: string) => void,
): T | undefined {
  const file = ifPresent(() => readFileSync(path));
  if (file === undefined) return undefined;
  const body = withoutHash(file);
  const value = body && decode(body);
  if (value === OTHER_VERSION) return undefined;
  if (value === undefined) damaged?.(path);
  return value;
}

/** `text` as JSON that fits `schema`; undefined where it is not JSON or does not fit. */
export function jsonOf<T>(text: string, schema: z.ZodType<T>): T | undefined {
  try {
    return schema.safeParse(JSON.parse(text)).data;
  } catch {
    // Not JSON: no value, as for JSON of another shape (the caller says what that means).
    return undefined;
  }
}

/** The value of a `checkedJson` file that fits `schema` (see `readChecked`). */
export function readCheckedJson<T>(path: string, schema: z.ZodType<T>, damaged?: (path: string) => void): T | undefined {
  return readChecked(path, (body) => jsonOf(body.toString('utf8'), schema), damaged);
}

/** The one line a build says of a damaged cache file. */
export function damagedCacheLine(path: string): string {
  const shown = relative(process.cwd(), path);
  const name = shown.startsWith(`..${sep}`) ? path : shown;
  return `  ${name} is damaged (its bytes are not those written and hashed): made again, not used.`;
}

/**
 * The checked `file` of the folder `dir` (a `checkedJson` file listing the folder's files and
 * their hashes), if it is there and every file it lists still has its hash; a damaged folder is
 * said, removed and not used (whoever needs it makes it again).
 */
export function wholeFolder<T extends { files: Record<string, string> }>(
  dir: string,
  file: string,
  schema: z.ZodType<T>,
  warn: (line: string) => void = console.error,
): T | undefined {
  const checked = readCheckedJson(join(dir, file), schema, (path) => removeDamaged(dir, path, warn));
  const bad = checked && firstDamaged(dir, checked.files);
  if (bad === undefined) return checked;
  removeDamaged(dir, join(dir, bad), warn);
  return undefined;
}

/** Says that `path` is damaged, and removes the folder `dir` it is in. */
export function removeDamaged(dir: string, path: string, warn: (line: string) => void = console.error): void {
  warn(damagedCacheLine(path));
  rmSync(dir, { recursive: true, force: true });
}
