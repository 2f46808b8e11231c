/**
 * Writes a preparation's downloads on a worker thread (started by prepared-downloads.ts), reading its
 * records file a chunk at a time: the pages are made on the main thread meanwhile, and this thread
 * never holds more than a chunk of the listing; rows unchanged since an earlier preparation have
 * their bytes copied from its downloads. Posts the downloads' hashes by URL path.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { writeDownloadFiles, type EarlierDownloads } from './downloads.ts';
import { recordChunks } from '../data/record-store.ts';

const { recordsFile, dir, assetsUrl, earlier } = workerData as { recordsFile: string; dir: string; assetsUrl: string; earlier?: EarlierDownloads };
parentPort?.postMessage(writeDownloadFiles(dir, () => recordChunks(recordsFile), assetsUrl, earlier));
