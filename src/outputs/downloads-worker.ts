/**
 * Writes a preparation's downloads on a worker thread (started by preparation.ts), reading its
 * records file a chunk at a time: the pages are made on the main thread meanwhile, and this thread
 * never holds more than a chunk of the listing; rows unchanged since an earlier preparation have
 * their bytes copied from its downloads, once this thread has checked them whole (the hashing is
 * this thread's, not the main one's). Answers with what it wrote (`WrittenDownloads`).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { serveThread } from '../threads.ts';
import { damagedCacheLine, firstDamaged } from '../data/checked-files.ts';
import { openRecordFile } from '../data/records-file.ts';
import { writeDownloadFiles } from './downloads.ts';
import type { DownloadsWork } from './preparation.ts';

await serveThread(({ recordsFile, dir, assetsUrl, earlier }: DownloadsWork) => {
  const damaged = earlier && firstDamaged(earlier.dir, earlier.files);
  if (earlier && damaged !== undefined) {
    console.error(damagedCacheLine(join(earlier.dir, damaged)));
    rmSync(earlier.dir, { recursive: true, force: true });
  }
  const records = openRecordFile(recordsFile);
  try {
    return writeDownloadFiles(dir, records, assetsUrl, damaged === undefined ? earlier : undefined);
  } finally {
    records.close();
  }
});
