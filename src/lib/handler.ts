/**
 * The one request handler of the listing, on the Fetch API (`Request` → `Response`): the route
 * table's answer with DRF's bodies and headers, a strong `ETag` from the page's bytes, and `304`
 * for a matching `If-None-Match`. The preview server (through a Node adapter),
 * the Astro dev server, the Cloudflare worker and the Netlify and Vercel edge functions all call
 * it; each host only says how it reads a page file of the built site.
 */
import { answerListing, pageFile, type ListingState } from './routes.ts';

export interface ListingSite {
  state: ListingState;
  /** The page file's bytes, as this host reads the built site; undefined when it is missing. */
  readPage: (page: number, request: Request) => Promise<Uint8Array | undefined>;
  /** The page's SHA-256 (hex) where the host knows it already (from the manifest); else it is computed. */
  pageHash?: (page: number) => string | undefined;
}

/** Marks a host's own request for a page file, so that its function lets the static file through. */
export const PAGE_FILE_REQUEST_HEADER = 'x-listing-page-file';

/** Reads a page file over HTTP from the same site, past the function (Netlify, Vercel). */
export async function fetchPageFile(page: number, request: Request): Promise<Uint8Array | undefined> {
  const response = await fetch(new URL(`/${pageFile(page)}`, request.url), { headers: { [PAGE_FILE_REQUEST_HEADER]: '1' } });
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

/** The answer to a request for a listing path (`isListingPath`); other paths are the host's static files. */
export async function answerRequest(request: Request, site: ListingSite): Promise<Response> {
  const url = new URL(request.url);
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return new Response('{"detail":"Bad request."}', { status: 400, headers: JSON_TYPE });
  }
  const answer = answerListing({ method: request.method, pathname, query: url.searchParams }, site.state);
  // HEAD gets the body too: every server drops it and keeps its length, as HEAD's headers must be GET's.
  if (!('page' in answer)) return new Response(answer.body, { status: answer.status, headers: answer.headers });
  const body = await site.readPage(answer.page, request);
  if (body === undefined) {
    return new Response('{"detail":"The page file is missing from the built site."}', { status: 500, headers: JSON_TYPE });
  }
  const hash = site.pageHash?.(answer.page) ?? (await sha256Hex(body));
  const headers = { ...answer.headers, ETag: `"${hash.slice(0, 32)}"` };
  if (matchesEtag(request.headers.get('if-none-match'), headers.ETag)) return new Response(null, { status: 304, headers });
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: { ...headers, 'Content-Length': String(body.byteLength) },
  });
}
