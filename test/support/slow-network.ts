/**
 * A slow connection in front of a running server: each HTML response reaches the browser in small
 * pieces with a pause between them, as on a phone's network, so the browser parses it, and may
 * paint it, part by part. Everything else passes through whole. Requests and headers are passed on
 * as they are, except that the body is asked for uncompressed, so that a piece is a known share of
 * the page.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface SlowNetwork {
  /** Where the browser is sent, e.g. http://127.0.0.1:40125 */
  origin: string;
  stop(): Promise<void>;
}

/** Headers that describe the connection or the body's framing, which this hop sets itself. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

function passedOn(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_HEADERS.has(name)));
}

export async function startSlowNetwork(
  upstream: string,
  { pieceBytes = 1024, pauseMs = 40 }: { pieceBytes?: number; pauseMs?: number } = {},
): Promise<SlowNetwork> {
  const target = new URL(upstream);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...passedOn(incoming.headers), host: target.host, 'accept-encoding': 'identity' },
      },
      async (response) => {
        outgoing.writeHead(response.statusCode ?? 502, passedOn(response.headers));
        if (!String(response.headers['content-type']).startsWith('text/html')) {
          response.pipe(outgoing);
          return;
        }
        const pieces: Buffer[] = [];
        for await (const piece of response) pieces.push(piece as Buffer);
        const body = Buffer.concat(pieces);
        for (let start = 0; start < body.length; start += pieceBytes) {
          if (outgoing.destroyed) return;
          outgoing.write(body.subarray(start, start + pieceBytes));
          await sleep(pauseMs);
        }
        outgoing.end();
      },
    );
    forwarded.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
