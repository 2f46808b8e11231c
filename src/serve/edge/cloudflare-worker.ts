/**
 * Cloudflare Workers (static assets with `run_worker_first` on the listing's paths): Cloudflare's
 * `_redirects` ignores query strings and its asset server answers OPTIONS with a bare 405, so the
 * worker answers the listing with the one request handler and reads page files through the ASSETS
 * binding, and sends page 1 by its number to the home page. Bundled by the build with the listing's state.
 */
import { listingResponse } from '../handler.ts';
import { FIRST_PAGE_REDIRECT_STATUS, isListingPath, pageFile, redirectLocation, type ListingState } from '../../listing/routes.ts';

declare const __LISTING_STATE__: ListingState;

interface Env {
  ASSETS: { fetch: (request: Request | URL | string) => Promise<Response> };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const location = redirectLocation(url.pathname, url.search);
    if (location !== undefined) return new Response(null, { status: FIRST_PAGE_REDIRECT_STATUS, headers: { Location: location } });
    if (!isListingPath(url.pathname)) return env.ASSETS.fetch(request);
    return listingResponse(request, {
      state: __LISTING_STATE__,
      readPage: async (page, url) => {
        const file = await env.ASSETS.fetch(new URL(`/${pageFile(page)}`, url));
        return file.ok ? new Uint8Array(await file.arrayBuffer()) : undefined;
      },
    });
  },
};
