/**
 * Writes the JSON pages to render on a worker thread of its own (started by `startJsonPages`),
 * while Astro renders the HTML pages on the main one; posts its progress, then each page's hash
 * (and every page's keys, where asked).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openRecordFile } from '../data/record-store.ts';
import { keysOfSummary, writeJsonPages, type JsonPagesInput } from './json-pages.ts';

const { siteDir, recordsFile, count, pages, addresses, keysFromSummary } = workerData as JsonPagesInput;
const records = openRecordFile(recordsFile);
const listing = { count, chunks: () => records.chunks(), slice: records.slice };
const keysOf = keysFromSummary === undefined ? undefined : keysOfSummary(keysFromSummary, addresses);
const { hashes, keys } = writeJsonPages({ siteDir, listing, pages, addresses, ...(keysOf && { keysOf }) }, (written) =>
  parentPort?.postMessage({ written }),
);
records.close();
parentPort?.postMessage({ hashes: [...hashes], ...(keys && { keys }) });
