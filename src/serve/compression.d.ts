/** The part of the `compression` middleware (expressjs/compression, no types of its own) the preview server uses. */
declare module 'compression' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  type Filter = (request: IncomingMessage, response: ServerResponse) => boolean;

  interface Options {
    /** Whether to compress a response (by default: its Content-Type is compressible). */
    filter?: Filter;
    /** Smallest body compressed, in bytes (default 1 KiB). */
    threshold?: number;
  }

  function compression(options?: Options): (request: IncomingMessage, response: ServerResponse, next: () => void) => void;
  namespace compression {
    /** The default filter: a compressible Content-Type. */
    const filter: Filter;
  }
  export default compression;
}
