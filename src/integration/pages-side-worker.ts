/** Which pages a build writes, and its folder given the others (see pages-side.ts), on a thread of its own, started by `startPagesSide`. */
import { serveThread } from '../threads.ts';
import { preparePagesSide } from './pages-side.ts';

await serveThread(preparePagesSide);
