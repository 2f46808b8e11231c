/** The part of the `compression` middleware (expressjs/compression, no types of its own) the preview server uses. */
declare module 'compression' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Options {
    /** Smallest body compressed, in bytes (default 1 KiB). */
    threshold?: number;
  }

  export default function compression(options?: Options): (request: IncomingMessage, response: ServerResponse, next: () => void) => void;
}
