/**
 * Data files a test file writes, in a temporary folder of its own (removed after its tests), each
 * saved a minute ago: a read waits for a file saved just now to be still (src/files/settled-read.ts).
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function dataFiles(): { dir: string; save: (content: string | Uint8Array, name?: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'data-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const save = (content: string | Uint8Array, name = 'cars.csv') => {
    const path = join(dir, name);
    writeFileSync(path, content);
    const savedAgo = new Date(Date.now() - 60_000);
    utimesSync(path, savedAgo, savedAgo);
    return path;
  };
  return { dir, save };
}
