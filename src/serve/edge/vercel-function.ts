/**
 * Vercel Edge Function (Build Output API v3) for the listing's paths: the one request handler,
 * reading page files from the site's static files past itself. The route that sends requests here
 * passes the path asked for as `listing_path`, since a rewrite may change the URL the function sees.
 * Bundled by the build with the listing's state.
 */
import { listingResponse, fetchPageFile } from '../handler.ts';
import type { ListingState } from '../../listing/routes.ts';

declare const __LISTING_STATE__: ListingState;

/** The query parameter the route adds with the requested path. */
export const LISTING_PATH_PARAMETER = 'listing_path';

export default async function listing(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = url.searchParams.get(LISTING_PATH_PARAMETER);
  if (path !== null) {
    url.searchParams.delete(LISTING_PATH_PARAMETER);
    url.pathname = path;
  }
  return listingResponse(new Request(url, request), { state: __LISTING_STATE__, readPage: fetchPageFile });
}
