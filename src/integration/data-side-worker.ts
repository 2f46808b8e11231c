/**
 * The data side of a build (see build-data.ts) on its own thread, started by `startBuildData`:
 * posts the preparation as soon as its records are written, then what it found.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { prepareBuildData, type BuildDataInput, type BuildDataMessage } from './data-side.ts';

const post = (message: BuildDataMessage) => parentPort?.postMessage(message);
post(await prepareBuildData(workerData as BuildDataInput, (prepared) => post({ kind: 'records', prepared })));
