/**
 * The one request handler of the listing, on the Fetch API (`Request` → `Response`): the route
 * table's answer with DRF's bodies and headers, a strong `ETag` from the page's bytes, and `304`
 * for a matching `If-None-Match`. The preview server (through a Node adapter), the Cloudflare
 * worker and the Netlify and Vercel edge functions all call it; each host only says how it reads
 * a page file of the built site.
 */
import { resolveListingRequest, pageFile, type HeaderFields, type ListingState } from '../listing/routes.ts';

export interface ListingSite {
  state: ListingState;
  /** The page file's bytes, as this host reads the built site; undefined when it is missing. */
  readPage: (page: number, url: URL) => Promise<Uint8Array | undefined>;
  /** The page's SHA-256 (hex) where the host knows it already (from the manifest); else it is computed. */
  pageHash?: (page: number) => string | undefined;
}

/** Marks a host's own request for a page file, so that its function lets the static file through. */
export const PAGE_FILE_REQUEST_HEADER = 'x-listing-page-file';

/** Reads a page file over HTTP from the same site, past the function (Netlify, Vercel). */
export async function fetchPageFile(page: number, url: URL): Promise<Uint8Array | undefined> {
  const response = await fetch(new URL(`/${pageFile(page)}`, url), { headers: { [PAGE_FILE_REQUEST_HEADER]: '1' } });
  return response.ok ? new Uint8Array(await response.arrayBuffer()) : undefined;
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether an `If-None-Match` value (a list, weak tags allowed, or `*`) matches `etag`. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

const JSON_TYPE = { 'Content-Type': 'application/json' } as const;

/** What a request is, as far as the listing's answer goes. */
export interface ListingRequestLine {
  method: string;
  url: URL;
  ifNoneMatch: string | null;
}

/** The answer as plain data. HEAD gets the body too: servers drop it and keep its length, as HEAD's headers must be GET's. */
export interface ListingReply {
  status: number;
  headers: HeaderFields;
  body: Uint8Array | string;
}

/**
 * The answer to a request for a listing path (`isListingPath`; other paths are the host's static
 * files), as plain data: the Node adapter writes it out without building Fetch objects per request.
 */
export async function listingReply(request: ListingRequestLine, site: ListingSite): Promise<ListingReply> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(request.url.pathname);
  } catch {
    return { status: 400, headers: JSON_TYPE, body: '{"detail":"Bad request."}' };
  }
  const answer = resolveListingRequest({ method: request.method, pathname, query: request.url.searchParams }, site.state);
  if (!('page' in answer)) return { status: answer.status, headers: answer.headers, body: answer.body };
  const body = await site.readPage(answer.page, request.url);
  if (body === undefined) return { status: 500, headers: JSON_TYPE, body: '{"detail":"The page file is missing from the built site."}' };
  const hash = site.pageHash?.(answer.page) ?? (await sha256Hex(body));
  const headers = { ...answer.headers, ETag: `"${hash.slice(0, 32)}"` };
  if (matchesEtag(request.ifNoneMatch, headers.ETag)) return { status: 304, headers, body: '' };
  return { status: 200, headers: { ...headers, 'Content-Length': String(body.byteLength) }, body };
}

/** The same answer on the Fetch API, for the edge functions and workers. */
export async function listingResponse(request: Request, site: ListingSite): Promise<Response> {
  const reply = await listingReply({ method: request.method, url: new URL(request.url), ifNoneMatch: request.headers.get('if-none-match') }, site);
  const body = reply.status === 304 ? null : typeof reply.body === 'string' ? reply.body : (reply.body as Uint8Array<ArrayBuffer>);
  return new Response(body, { status: reply.status, headers: reply.headers });
}
