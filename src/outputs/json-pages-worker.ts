/**
 * Writes the JSON pages to render on a worker thread of its own (started by `startJsonPages`),
 * while Astro renders the HTML pages on the main one; posts its progress, then each page's hash
 * (and every page's keys, where asked).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { recordChunks } from '../data/record-store.ts';
import { keysOfSummary, writeJsonPages, type JsonPagesInput } from './json-pages.ts';

const { siteDir, recordsFile, count, pages, inPlace, addresses, keysFromSummary } = workerData as JsonPagesInput;
const listing = { count, chunks: () => recordChunks(recordsFile) };
const keysOf = keysFromSummary === undefined ? undefined : keysOfSummary(keysFromSummary, addresses);
const { hashes, keys } = await writeJsonPages({ siteDir, listing, pages, ...(inPlace && { inPlace }), addresses, ...(keysOf && { keysOf }) }, (written) => parentPort?.postMessage({ written }));
parentPort?.postMessage({ hashes: [...hashes], ...(keys && { keys }) });
