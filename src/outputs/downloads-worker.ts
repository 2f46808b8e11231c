/**
 * Writes a preparation's downloads and search index on a worker thread (started by downloads-cache.ts)
 * while the pages are made on the others, checking whole here, not on the main thread, the earlier
 * downloads it copies unchanged rows from. Answers with what it wrote (the search index's files are
 * downloads of the site too), and which files it took from the earlier index without reading them.
 */
import { join } from 'node:path';
import { serveThread } from '../threads.ts';
import { firstDamaged, removeDamaged } from '../files/checked-files.ts';
import { openRecordFile } from '../data/records-file.ts';
import { writeDownloadFiles, type WrittenDownloads } from './downloads.ts';
import { SLICES_FILE, writeSearchFiles } from './search-files.ts';
import type { DownloadsWork } from './downloads-cache.ts';
import { SEARCH_FOLDER } from '../listing/search.ts';

const SEARCH_FILES = SEARCH_FOLDER.slice(1);

await serveThread(({ recordsFile, dir, assetsUrl, earlier }: DownloadsWork): WrittenDownloads => {
  // What is copied from is checked now; the search index's files taken from the earlier index are
  // not read (hundreds of thousands at a million rows): the preparation records them as unread,
  // and they are checked before any is copied into a site (src/publish/downloads-placed.ts).
  const copiedFrom = Object.entries(earlier?.files ?? {}).filter(([name]) => !name.startsWith(SEARCH_FILES));
  const damaged = earlier && firstDamaged(earlier.dir, Object.fromEntries(copiedFrom));
  if (earlier && damaged !== undefined) removeDamaged(earlier.dir, join(earlier.dir, damaged));
  const whole = damaged === undefined ? earlier : undefined;
  const records = openRecordFile(recordsFile);
  try {
    const written = writeDownloadFiles(dir, records, assetsUrl, whole);
    // Only an edit in place (no row moved: see preparation.ts) takes files from the earlier index.
    const search = writeSearchFiles(
      dir,
      records.chunks(),
      whole?.changedFields && whole.files[SLICES_FILE] !== undefined
        ? { dir: whole.dir, files: whole.files, changed: whole.changed }
        : undefined,
    );
    const searchDownloads = Object.entries(search.files).filter(([file]) => file.startsWith(SEARCH_FILES));
    return {
      downloads: { ...written.downloads, ...Object.fromEntries(searchDownloads.map(([file, sha256]) => [`/${file}`, sha256])) },
      files: { ...written.files, ...search.files },
      unread: search.reused,
    };
  } finally {
    records.close();
  }
});
