/**
 * Cloudflare Workers (static assets with `run_worker_first` on the listing path): Cloudflare's
 * `_redirects` ignores query strings and its asset server answers OPTIONS with a bare 405, so this
 * worker answers the listing from the route table itself, exactly as the preview server does, and
 * reads the page files through the ASSETS binding. Bundled by the build with the listing's state.
 */
import { answerListing, isListingPath, pageFile, type ListingState } from '../lib/routes.ts';

declare const __LISTING_STATE__: ListingState;

export interface Env {
  ASSETS: { fetch: (request: Request | URL | string) => Promise<Response> };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return new Response('{"detail":"Bad request."}', { status: 400, headers: { 'Content-Type': 'application/json' } });
    }
    if (!isListingPath(pathname)) return env.ASSETS.fetch(request);
    const answer = answerListing({ method: request.method, pathname, query: url.searchParams }, __LISTING_STATE__);
    const withBody = request.method !== 'HEAD';
    if (!('page' in answer)) return new Response(withBody ? answer.body : null, { status: answer.status, headers: answer.headers });
    const asset = await env.ASSETS.fetch(new URL(`/${pageFile(answer.page)}`, url));
    if (!asset.ok) return asset;
    return new Response(withBody ? asset.body : null, { status: 200, headers: answer.headers });
  },
};
