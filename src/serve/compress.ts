/**
 * The preview server's files compressed as a CDN's edge compresses them: brotli or gzip, chosen from
 * the request's Accept-Encoding by the `compression` middleware, for the types that gain from it
 * (HTML, CSS, JavaScript, SVG, JSON, CSV, XML: the pages, their assets and the downloads), with
 * `Vary: Accept-Encoding` on each of them. Only the site's files come here: the listing API's
 * answers are written apart, with exactly the origin's headers (no Content-Encoding, `Vary: Accept`).
 *
 * Around the middleware, what keeps HTTP right:
 * - HEAD is negotiated as GET, so that its headers are GET's (the middleware leaves HEAD alone).
 * - A Range request is answered from the file's own bytes, uncompressed (serve-handler's ranges),
 *   still with `Vary: Accept-Encoding`.
 * - A compressed answer's ETag is weak (`W/"…"`, as nginx does): its bytes are not the file's; and
 *   its `Accept-Ranges` goes, since ranges are only served of the file's bytes.
 * - If-None-Match is compared weakly, as RFC 9110 says, so a compressed answer's ETag revalidates
 *   to 304 (serve-handler compares the header with its strong ETag as a string).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import { SMALLEST_COMPRESSED_BYTES } from './hosts/shared.ts';

// The middleware's default threshold, 1 KiB, would leave out every logo.
const middleware = compression({ threshold: SMALLEST_COMPRESSED_BYTES });

/**
 * The request as the middleware should negotiate it: a HEAD as a GET (it compresses no HEAD
 * answer), and a Range request as accepting only the file's own bytes (it still adds Vary).
 */
function negotiated(request: IncomingMessage): IncomingMessage {
  if (request.method !== 'HEAD' && request.headers.range === undefined) return request;
  const headers = request.headers.range === undefined ? request.headers : { ...request.headers, 'accept-encoding': 'identity' };
  return Object.create(request, { method: { value: 'GET' }, headers: { value: headers } });
}

/**
 * Makes `response` compress what is written to it, if the request accepts it and the type gains
 * from it; call before handing both to serve-handler.
 */
export function compressFiles(request: IncomingMessage, response: ServerResponse): void {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) request.headers['if-none-match'] = ifNoneMatch.replace(/(^|,\s*)W\//g, '$1');
  // Runs after the middleware's own header hook (it wraps writeHead over this one), when the encoding is known.
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (this.getHeader('Content-Encoding') !== undefined) {
      const etag = this.getHeader('ETag');
      if (typeof etag === 'string' && !etag.startsWith('W/')) this.setHeader('ETag', `W/${etag}`);
      this.removeHeader('Accept-Ranges');
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
  middleware(negotiated(request), response, () => undefined);
}
