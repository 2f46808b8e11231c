/** A part of a large data file other than the first, read on a worker thread of its own (see load-threads.ts). */
import { serveThread } from '../threads.ts';
import { readPart } from './load-threads.ts';

await serveThread(readPart);
