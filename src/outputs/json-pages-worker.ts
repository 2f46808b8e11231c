/** Writes the JSON pages on a worker thread of its own (`startJsonPages`), noting its progress; answers with `writeJsonPages`'s. */
import { openRecordFile } from '../data/records-file.ts';
import { serveThread } from '../threads.ts';
import { keysOfSummary, writeJsonPages, type JsonPagesInput } from './json-pages.ts';

await serveThread<JsonPagesInput, ReturnType<typeof writeJsonPages>, number>(
  ({ siteDir, recordsFile, count, pages, addresses, keysFromSummary, published }, note) => {
    const records = openRecordFile(recordsFile);
    try {
      const listing = { count, chunks: () => records.chunks(), slice: records.slice };
      const keysOf = keysFromSummary === undefined ? undefined : keysOfSummary(keysFromSummary, addresses);
      return writeJsonPages({ siteDir, listing, pages, addresses, ...(keysOf && { keysOf }), ...(published && { published }) }, note);
    } finally {
      records.close();
    }
  },
);
