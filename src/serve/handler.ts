/**
 * The one request handler of the listing, on the Fetch API (`Request` → `Response`): the route
 * table's answer with DRF's bodies and headers, a strong `ETag` from the page's bytes, and `304`
 * for a matching `If-None-Match`. The preview server (through a Node adapter), the dev server, the
 * Cloudflare worker and the Netlify Edge Function all call it; each host only says how it reads a
 * page file of the built site, always within the request it answers (never a new HTTP request to
 * its own site, which a protected deployment refuses: docs/hosting.md). The Vercel middleware takes
 * the route table's decision alone (`listingDecision`) and lets Vercel serve the page file.
 */
import { resolveListingRequest, type HeaderFields, type ListingAnswer, type ListingState } from '../listing/routes.ts';

export interface ListingSite {
  state: ListingState;
  /** The page file's bytes, as this host reads the built site; undefined when it is missing. */
  readPage: (page: number, url: URL) => Promise<Uint8Array | undefined>;
  /** The page's SHA-256 (hex) where the host knows it already (from the manifest); else it is computed. */
  pageHash?: (page: number) => string | undefined;
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
 * The route table's answer to a request for a listing path: a page (with its headers) or a body of
 * its own. A path that does not decode is a 400.
 */
export function listingDecision(method: string, url: URL, state: ListingState): ListingAnswer {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    // Not percent-encoded UTF-8 (a URIError): a bad request.
    return { status: 400, headers: JSON_TYPE, body: '{"detail":"Bad request."}' };
  }
  return resolveListingRequest({ method, pathname, query: url.searchParams }, state);
}

/**
 * The answer to a request for a listing path (`isListingPath`; other paths are the host's static
 * files), as plain data: the Node adapter writes it out without building Fetch objects per request.
 */
export async function listingReply(request: ListingRequestLine, site: ListingSite): Promise<ListingReply> {
  const answer = listingDecision(request.method, request.url, site.state);
  if (!('page' in answer)) return { status: answer.status, headers: answer.headers, body: answer.body };
  const body = await site.readPage(answer.page, request.url);
  if (body === undefined) return { status: 500, headers: JSON_TYPE, body: '{"detail":"The page file is missing from the built site."}' };
  const hash = site.pageHash?.(answer.page) ?? (await sha256Hex(body));
  const headers = { ...answer.headers, ETag: `"${hash.slice(0, 32)}"` };
  if (matchesEtag(request.ifNoneMatch, headers.ETag)) {
    // A 304 sends no representation, so no Content-Type (RFC 9110, 15.4.5).
    const notModified: HeaderFields = { ...headers };
    delete notModified['Content-Type'];
    return { status: 304, headers: notModified, body: '' };
  }
  return { status: 200, headers: { ...headers, 'Content-Length': String(body.byteLength) }, body };
}

/** The same answer on the Fetch API, for the edge functions and workers. */
export async function listingResponse(request: Request, site: ListingSite): Promise<Response> {
  const reply = await listingReply(
    { method: request.method, url: new URL(request.url), ifNoneMatch: request.headers.get('if-none-match') },
    site,
  );
  const body = reply.status === 304 ? null : typeof reply.body === 'string' ? reply.body : (reply.body as Uint8Array<ArrayBuffer>);
  return new Response(body, { status: reply.status, headers: reply.headers });
}
