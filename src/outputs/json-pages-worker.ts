/**
 * Writes the JSON pages to render on a worker thread of its own (started by `startJsonPages`),
 * while Astro renders the HTML pages on the main one; posts its progress, then each page's hash.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { recordChunks } from '../data/record-store.ts';
import { writeJsonPages, type JsonPagesInput } from './json-pages.ts';

const { siteDir, recordsFile, count, pages, addresses } = workerData as JsonPagesInput;
const listing = { count, chunks: () => recordChunks(recordsFile) };
const hashes = await writeJsonPages({ siteDir, listing, pages, addresses }, (written) => parentPort?.postMessage({ written }));
parentPort?.postMessage({ hashes: [...hashes] });
