/** Raw HTTP for tests: node:http sends the request target as written (fetch would normalise `..`). */
import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body's bytes as sent (compressed ones not decoded). */
  bytes: Buffer;
}

/** Sends `method target` exactly as given and reads the whole response. */
export function rawRequest(origin: string, method: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolveResponse, reject) => {
    const outgoing = request({ hostname, port, method, path: target, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolveResponse({ status: response.statusCode ?? 0, headers: response.headers, body: bytes.toString('utf8'), bytes });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Writes raw bytes to the server and returns the status line it answers with. */
export function rawExchange(origin: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolveLine, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n')) {
        socket.destroy();
        resolveLine(received.slice(0, received.indexOf('\r\n')));
      }
    });
    socket.on('error', reject);
    socket.on('end', () => resolveLine(received.split('\r\n')[0] ?? ''));
  });
}
