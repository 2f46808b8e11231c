/**
 * Writes a preparation's downloads on a worker thread, so that a build's pages (on the main thread)
 * and its whole-listing files (here) are made at the same time on two cores. Started by
 * `data-cache.ts`; posts the downloads' hashes by URL path.
 */
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { writeDownloadFiles } from './downloads.ts';
import type { CarModel } from './schema.ts';

const { recordsFile, dir, assetsUrl } = workerData as { recordsFile: string; dir: string; assetsUrl: string };
const records = deserialize(readFileSync(recordsFile)) as CarModel[];
parentPort?.postMessage(await writeDownloadFiles(dir, records, assetsUrl));
