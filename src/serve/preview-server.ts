/**
 * The local preview server: answers the listing API's URLs exactly as the route table says (query
 * strings included, which serve-handler never reads), sends page 1 by its number to the home page
 * (FIRST_PAGE_REDIRECTS), and hands every other path to serve-handler, compressed as a CDN would
 * (`compress.ts`), the fingerprinted assets marked immutable.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, relative, resolve, sep } from 'node:path';
import { LRUCache } from 'lru-cache';
import serveHandler from 'serve-handler';
import { MANIFEST_FILE, readManifest, type PublishedManifest } from '../outputs/manifest.ts';
import { compressFiles } from './compress.ts';
import { listingReply, type ListingReply } from './handler.ts';
import {
  FILE_HEADER_RULES,
  FIRST_PAGE_REDIRECT_STATUS,
  headerList,
  isListingPath,
  pageFile,
  redirectLocation,
  siteHeaders,
  staticMethodAnswer,
} from '../listing/routes.ts';
import { ifPresent } from '../files/missing.ts';

/** Longest request target answered; longer ones get 414 (Node itself stops headers past 16 KiB). */
const MAX_URL_LENGTH = 8192;

/** How long a read manifest is trusted before the file is looked at again for a newer build. */
const MANIFEST_RECHECK_MS = 500;
/** Page files kept in memory, at most this many bytes (the most recently used stay). */
const PAGE_CACHE_BYTES = 64 * 1024 * 1024;

/** serve-handler's header rules: the site headers on every file it serves, and the fingerprinted files' own. */
type HeaderRules = { source: string; headers: { key: string; value: string }[] }[];

const headerRules = (assetsUrl: string | undefined): HeaderRules => [
  { source: '**', headers: headerList(siteHeaders(assetsUrl)) },
  ...FILE_HEADER_RULES.map(({ match, headers }) => ({
    source: 'exact' in match ? match.exact.slice(1) : `${match.folder.slice(1)}**`,
    headers: headerList(headers),
  })),
];

/**
 * The site being served: its manifest, re-read whenever a new build replaced it, and the page
 * files most recently served, dropped with the manifest they belong to.
 */
class SiteState {
  private manifest: PublishedManifest | undefined;
  private stamp = '';
  private checkedAt = 0;
  private readonly pages = new LRUCache<number, Buffer>({ maxSize: PAGE_CACHE_BYTES, sizeCalculation: (body) => body.length });
  private staticHeaders: HeaderRules = headerRules(undefined);
  private readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  current(): PublishedManifest | undefined {
    const now = Date.now();
    if (this.manifest && now - this.checkedAt < MANIFEST_RECHECK_MS) return this.manifest;
    this.checkedAt = now;
    const file = join(this.root, MANIFEST_FILE);
    const stats = ifPresent(() => statSync(file));
    if (stats === undefined) {
      this.manifest = undefined;
      return undefined;
    }
    const stamp = `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
    if (stamp !== this.stamp) {
      const read = readManifest(JSON.parse(readFileSync(file, 'utf8')));
      if ('problems' in read) throw new Error(`${file} is not a manifest this server can read: build again.`);
      this.manifest = read.manifest;
      this.stamp = stamp;
      this.pages.clear();
      this.staticHeaders = headerRules(this.manifest.assetsUrl);
    }
    return this.manifest;
  }

  /**
   * Whether the file at `absolutePath` is one the build published for hosts to serve: a file its
   * manifest lists, or the manifest. The hosts' own configuration (`_headers`, `.htaccess`,
   * `vercel.json`, `_errors/`…) is read by a host, not served, and a file left in the folder by
   * hand is no part of the build. Without a manifest (no build yet) nothing says otherwise.
   */
  publishes(absolutePath: string): boolean {
    const manifest = this.current();
    if (!manifest) return true;
    const path = relative(this.root, absolutePath).split(sep).join('/');
    return path === MANIFEST_FILE || Object.hasOwn(manifest.files, path);
  }

  /** The header rules for the site's own files, made once per build rather than per request. */
  staticFileHeaders(): HeaderRules {
    return this.current() ? this.staticHeaders : headerRules(undefined);
  }

  /** The bytes of page `page`, from memory when it was served lately. */
  async page(page: number): Promise<Buffer> {
    const cached = this.pages.get(page);
    if (cached) return cached;
    const body = await readFile(join(this.root, pageFile(page)));
    this.pages.set(page, body);
    return body;
  }
}

/** Writes `reply` (its body left out for HEAD, its length kept). */
function send(response: ServerResponse, method: string, { status, headers, body }: ListingReply): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, { ...headers, 'Content-Length': String(bytes.length) });
  response.end(method === 'HEAD' ? undefined : bytes);
}

function sendError(response: ServerResponse, method: string, status: number, detail: string): void {
  send(response, method, { status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ detail }) });
}

/**
 * A request target in origin form (`/path?query`). A client speaking to a proxy sends the absolute
 * form (`http://host/path?query`), which a server must accept (RFC 9112, 3.2.2): its path and query
 * are taken as they were sent, not normalised, so the checks below see them. Any other form (`*`)
 * is left as it is, and refused.
 */
function originForm(target: string): string {
  const absolute = /^https?:\/\/[^/?#]*(?<rest>.*)$/is.exec(target);
  if (!absolute) return target;
  const rest = absolute.groups!['rest']!;
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** The path of a request, decoded, or undefined when it could reach outside the site. */
function safePathname(rawPath: string): string | undefined {
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    // Not percent-encoded UTF-8 (a URIError): a bad request, answered 400 by the caller.
    return undefined;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return undefined;
  if (pathname.split('/').some((segment) => segment === '..' || segment === '.')) return undefined;
  return pathname;
}

/** The Node side of the one request handler: the request's method, URL and If-None-Match in, the reply written out. */
async function sendListingReply(
  request: IncomingMessage,
  response: ServerResponse,
  { method, outDir, site }: { method: string; outDir: string; site: SiteState },
): Promise<void> {
  const manifest = site.current();
  if (!manifest) {
    sendError(response, method, 503, `No built site in ${outDir}/: run npm run build.`);
    return;
  }
  const ifNoneMatch = request.headers['if-none-match'] ?? null;
  const reply = await listingReply(
    { method, url: new URL(request.url ?? '/', 'http://preview.invalid'), ifNoneMatch },
    { state: manifest, readPage: (page) => site.page(page), pageHash: (page) => manifest.files[pageFile(page)] },
  );
  if (reply.status === 304) {
    response.writeHead(304, reply.headers).end();
    return;
  }
  send(response, method, reply);
}

/**
 * serve-handler's `lstat` (its documented `methods`), for which a file the build did not publish is
 * not there: serve-handler then answers as for any missing file, with the 404 page. serve-handler
 * awaits what `lstat` returns (its own is `promisify(fs.lstat)`); @types/serve-handler types it as
 * the callback `fs.lstat`, hence the cast. test/http/listing.test.ts fails if it stops being asked.
 */
function publishedLstat(site: SiteState): NonNullable<Parameters<typeof serveHandler>[3]>['lstat'] {
  const published = async (path: string): Promise<Stats> => {
    const stats = await lstat(path);
    if (stats.isFile() && !site.publishes(path)) {
      throw Object.assign(new Error(`${path} is not a published file`), { code: 'ENOENT' });
    }
    return stats;
  };
  return published as unknown as NonNullable<Parameters<typeof serveHandler>[3]>['lstat'];
}

/** Creates (does not start) the preview server for the built site in `outDir`. */
export function createPreviewServer({ outDir }: { outDir: string }): Server {
  const root = resolve(outDir);
  const site = new SiteState(root);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = request.method ?? 'GET';
    if ((request.url ?? '/').length > MAX_URL_LENGTH) {
      sendError(response, method, 414, 'URI too long.');
      return;
    }
    const target = originForm(request.url ?? '/');
    // What serve-handler and the listing's handler read too: the same path this server checked.
    request.url = target;
    const queryStart = target.indexOf('?');
    const pathname = target.startsWith('/') ? safePathname(queryStart === -1 ? target : target.slice(0, queryStart)) : undefined;
    if (pathname === undefined) {
      sendError(response, method, 400, 'Bad request.');
      return;
    }

    if (isListingPath(pathname)) {
      await sendListingReply(request, response, { method, outDir, site });
      return;
    }
    const refused = staticMethodAnswer(method);
    if (refused) {
      if (refused.status === 204) response.writeHead(204, refused.headers).end();
      else send(response, method, refused);
      return;
    }
    const location = redirectLocation(pathname, queryStart === -1 ? '' : target.slice(queryStart));
    if (location !== undefined) {
      response.writeHead(FIRST_PAGE_REDIRECT_STATUS, { Location: location, 'Content-Length': '0' }).end();
      return;
    }
    compressFiles(request, response);
    await serveHandler(
      request,
      response,
      {
        public: root,
        cleanUrls: true,
        directoryListing: false,
        etag: true,
        symlinks: false,
        headers: site.staticFileHeaders(),
      },
      { lstat: publishedLstat(site) },
    );
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
