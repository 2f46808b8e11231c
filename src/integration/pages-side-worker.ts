/** Which pages a build writes, and its folder given the others (see data-side.ts), on a thread of its own, started by `startPagesSide`. */
import { serveThread } from '../threads.ts';
import { preparePagesSide } from './data-side.ts';

await serveThread(preparePagesSide);
