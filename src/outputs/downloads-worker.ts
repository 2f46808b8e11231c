/**
 * Writes a preparation's downloads and search index on a worker thread (started by preparation.ts)
 * while the pages are made on the others, checking whole here, not on the main thread, the earlier
 * downloads it copies unchanged rows from. Answers with what it wrote (the search index's files are
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
  const copiedFrom = Object.entries(earlier?.files ?? {}).filter(([name]) => !name.startsWith(SEARCH_FILES));
  const damaged = earlier && firstDamaged(earlier.dir, Object.fromEntries(copiedFrom));
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
