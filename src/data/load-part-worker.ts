/** The second half of a large data file, read on a worker thread of its own (see load-threads.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { readPart, type PartInput } from './load-threads.ts';

parentPort?.postMessage(readPart(workerData as PartInput));
