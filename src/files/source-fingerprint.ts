/**
 * Hashes of the project's own files, and the one place that names what each covers: where a file
 * of a scope (or the lock file) changes, what that code makes may change too, and nothing kept of
 * it is taken.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The project's files (folders read whole) each fingerprint covers, besides the lock file. */
const SOURCE_SCOPES = {
  /** The code that reads and prepares a data file: part of a preparation's name (src/outputs/preparation.ts). */
  preparation: ['src/files', 'src/data', 'src/listing', 'src/outputs'],
  /** The code that makes the pages: a page is taken from the published build only where it is the same (src/integration/build.ts). */
  pages: ['src', 'astro.config.mjs'],
  /** Everything a build is made of: the published build is current only where it is the same (src/publish/current.ts). */
  build: ['src', 'public', 'astro.config.mjs', 'tsconfig.json', 'package.json'],
} as const;

/** A hash of the files of the project at `root` that `scope` covers, and its lock file. */
export function sourceFingerprint(root: string, scope: keyof typeof SOURCE_SCOPES): string {
  const hash = createHash('sha256');
  const files = SOURCE_SCOPES[scope].flatMap((path) => {
    const full = join(root, path);
    if (!existsSync(full)) return [];
    if (!statSync(full).isDirectory()) return [full];
    return readdirSync(full, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  });
  for (const file of [...files.sort(), join(root, 'package-lock.json')]) {
    if (!existsSync(file)) continue;
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}
