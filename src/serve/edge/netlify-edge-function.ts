/**
 * Netlify Edge Function (Deno) on the listing's paths (declared in the generated netlify.toml):
 * the one request handler, reading page files from the site past itself. Netlify's `_redirects`
 * cannot send `Allow`, OPTIONS bodies or 405s; this can. Bundled by the build with the listing's state.
 */
import { listingResponse, fetchPageFile, PAGE_FILE_REQUEST_HEADER } from '../handler.ts';
import type { ListingState } from '../../listing/routes.ts';

declare const __LISTING_STATE__: ListingState;

/**
 * After a 404, Netlify looks for the same path as an HTML page (`.html`, `.htm`, `/index.html`,
 * `/index.htm`) and calls the function again for each: those are the path asked for.
 */
const HTML_LOOKUP = /(?:\.html?|\/index\.html?)$/;

export default async function listing(request: Request): Promise<Response | undefined> {
  // Its own read of a page file: returning nothing lets Netlify serve the static file.
  if (request.headers.has(PAGE_FILE_REQUEST_HEADER)) return undefined;
  const url = new URL(request.url);
  if (HTML_LOOKUP.test(url.pathname)) url.pathname = url.pathname.replace(HTML_LOOKUP, '');
  return listingResponse(new Request(url, request), { state: __LISTING_STATE__, readPage: fetchPageFile });
}
