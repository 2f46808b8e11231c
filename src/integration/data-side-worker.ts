/** The data side of a build (see data-side.ts) on its own thread, started by `startDataSide`. */
import { parentPort, workerData } from 'node:worker_threads';
import { runDataSideWorker, type DataSideInput } from './data-side.ts';

await runDataSideWorker(workerData as DataSideInput, (message) => parentPort?.postMessage(message));
