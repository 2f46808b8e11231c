/** The data side of a build (see data-side.ts) on its own thread, started by `startDataSide`. */
import { parentPort, workerData } from 'node:worker_threads';
import { runDataSideInputer, type DataSideInput } from './data-side.ts';

await runDataSideInputer(workerData as DataSideInput, (message) => parentPort?.postMessage(message));
