/**
 * The local preview server: answers the listing API's URLs exactly as the route table says (query
 * strings included, which serve-handler never reads), and hands every other path to serve-handler.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import serveHandler from 'serve-handler';
import { MANIFEST_FILE, manifestSchema, type Manifest } from './manifest.ts';
import { answerListing, isListingPath, pageFile, siteHeaders, type Headers } from './routes.ts';

export interface PreviewOptions {
  /** The built site to serve. */
  outDir: string;
}

/** Longest request target answered; longer ones get 414 (Node itself stops headers past 16 KiB). */
export const MAX_URL_LENGTH = 8192;
const STATIC_METHODS = 'GET, HEAD';

/** The manifest of the site being served, re-read whenever a new build replaced it. */
class ManifestCache {
  private manifest: Manifest | undefined;
  private stamp = '';
  private readonly file: string;

  constructor(outDir: string) {
    this.file = join(outDir, MANIFEST_FILE);
  }

  current(): Manifest | undefined {
    let stamp: string;
    try {
      const stats = statSync(this.file);
      stamp = `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
    } catch {
      return undefined;
    }
    if (stamp !== this.stamp) {
      this.manifest = manifestSchema.parse(JSON.parse(readFileSync(this.file, 'utf8')));
      this.stamp = stamp;
    }
    return this.manifest;
  }
}

function send(response: ServerResponse, method: string, status: number, headers: Headers, body: string | Buffer): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, { ...headers, 'Content-Length': String(bytes.length) });
  response.end(method === 'HEAD' ? undefined : bytes);
}

function sendError(response: ServerResponse, method: string, status: number, detail: string, headers: Headers = {}): void {
  send(response, method, status, { 'Content-Type': 'application/json', ...headers }, JSON.stringify({ detail }));
}

/** The path of a request, decoded, or undefined when it could reach outside the site. */
function safePathname(rawPath: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return undefined;
  if (pathname.split('/').some((segment) => segment === '..' || segment === '.')) return undefined;
  return pathname;
}

/** A strong validator of a response body, so clients and CDNs can revalidate with 304s. */
function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

async function answerListingRequest(
  request: IncomingMessage,
  response: ServerResponse,
  method: string,
  pathname: string,
  query: URLSearchParams,
  outDir: string,
  manifests: ManifestCache,
): Promise<void> {
  const manifest = manifests.current();
  if (!manifest) {
    sendError(response, method, 503, `No built site in ${outDir}/: run npm run build.`);
    return;
  }
  const answer = answerListing({ method, pathname, query }, manifest);
  if (!('page' in answer)) {
    send(response, method, answer.status, answer.headers, answer.body);
    return;
  }
  const body = await readFile(join(outDir, pageFile(answer.page)));
  const etag = etagOf(body);
  if (request.headers['if-none-match'] === etag) {
    response.writeHead(304, { ...answer.headers, ETag: etag });
    response.end();
    return;
  }
  send(response, method, answer.status, { ...answer.headers, ETag: etag }, body);
}

/** Creates (does not start) the preview server for a built site. */
export function createPreviewServer({ outDir }: PreviewOptions): Server {
  const root = resolve(outDir);
  const manifests = new ManifestCache(root);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    if (target.length > MAX_URL_LENGTH) {
      sendError(response, method, 414, 'URI too long.');
      return;
    }
    if (!target.startsWith('/')) {
      sendError(response, method, 400, 'Bad request.');
      return;
    }
    const queryStart = target.indexOf('?');
    const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
    const pathname = safePathname(rawPath);
    if (pathname === undefined) {
      sendError(response, method, 400, 'Bad request.');
      return;
    }
    const query = new URLSearchParams(queryStart === -1 ? '' : target.slice(queryStart + 1));

    if (isListingPath(pathname)) {
      await answerListingRequest(request, response, method, pathname, query, root, manifests);
      return;
    }
    if (method === 'OPTIONS') {
      response.writeHead(204, { Allow: STATIC_METHODS });
      response.end();
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      sendError(response, method, 405, `Method "${method}" not allowed.`, { Allow: STATIC_METHODS });
      return;
    }
    const manifest = manifests.current();
    await serveHandler(request, response, {
      public: root,
      cleanUrls: true,
      directoryListing: false,
      etag: true,
      symlinks: false,
      headers: [
        {
          source: '**',
          headers: Object.entries(siteHeaders(manifest?.assetsUrl)).map(([key, value]) => ({ key, value })),
        },
      ],
    });
  };

  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000 }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) sendError(response, request.method ?? 'GET', 500, 'Server error.');
      else response.destroy();
    });
  });
  // Node answers malformed requests itself (400, or 431 for oversized headers) and goes on serving.
  return server;
}
