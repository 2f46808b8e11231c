/** The data side of a build (see data-side.ts) on its own thread, started by `startDataSide`. */
import { serveThread } from '../threads.ts';
import { prepareDataSide } from './data-side.ts';

await serveThread(prepareDataSide);
