/**
 * Writes a preparation's downloads and search index on a worker thread (started by
 * preparation.ts), reading its records file a chunk at a time: the pages are made on the other
 * threads meanwhile; rows unchanged since an earlier preparation have their download bytes copied
 * from its downloads, once this thread has checked them whole (the hashing is this thread's, not
 * the main one's). Answers with what it wrote (`WrittenDownloads`: the search index's files are
 * downloads of the site too).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { serveThread } from '../threads.ts';
import { damagedCacheLine, firstDamaged } from '../data/checked-files.ts';
import { openRecordFile } from '../data/records-file.ts';
import { writeDownloadFiles, type WrittenDownloads } from './downloads.ts';
import { writeSearchFiles } from './search-files.ts';
import type { DownloadsWork } from './preparation.ts';
import { SEARCH_FOLDER } from '../listing/search.ts';

const SEARCH_FILES = SEARCH_FOLDER.slice(1);

await serveThread(({ recordsFile, dir, assetsUrl, earlier }: DownloadsWork): WrittenDownloads => {
  // Only what is copied from is checked: the search index is written whole each time.
  const copiedFrom = earlier && Object.fromEntries(Object.entries(earlier.files).filter(([name]) => !name.startsWith(SEARCH_FILES)));
  const damaged = earlier && copiedFrom && firstDamaged(earlier.dir, copiedFrom);
  if (earlier && damaged !== undefined) {
    console.error(damagedCacheLine(join(earlier.dir, damaged)));
    rmSync(earlier.dir, { recursive: true, force: true });
  }
  const records = openRecordFile(recordsFile);
  try {
    const written = writeDownloadFiles(dir, records, assetsUrl, damaged === undefined ? earlier : undefined);
    const search = writeSearchFiles(dir, records.chunks());
    const searchDownloads = Object.fromEntries(Object.entries(search).map(([file, sha256]) => [`/${file}`, sha256]));
    return { downloads: { ...written.downloads, ...searchDownloads }, files: { ...written.files, ...search } };
  } finally {
    records.close();
  }
});
