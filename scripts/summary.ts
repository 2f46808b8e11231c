/** The one-screen report at the end of a build: rows, pages, files and bytes written, time. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pageCount } from '../src/lib/listing.ts';

function tally(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

export function summariseBuild(outDir: string, rows: number, milliseconds: number): string {
  const { files, bytes } = tally(outDir);
  return [
    '',
    `Built ${outDir}/`,
    `  rows          ${rows.toLocaleString('en')}`,
    `  pages         ${pageCount(rows).toLocaleString('en')} (JSON)`,
    `  files         ${files.toLocaleString('en')}`,
    `  bytes         ${(bytes / 1_048_576).toFixed(1)} MiB`,
    `  time          ${(milliseconds / 1000).toFixed(1)} s`,
  ].join('\n');
}
