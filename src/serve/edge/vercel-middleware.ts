/**
 * Vercel Routing Middleware (Build Output API v3, `middlewarePath`) on the listing's paths, for what
 * the generated routes leave to it: `format` (whose values a route's `has` cannot tell apart by case:
 * `api` from `API`), `page=last`, the values DRF's int() reads that a route does not (` 2 `, `+2`,
 * `0_2`, an empty `page`), pages past the per-page routes' limit, invalid pages, unknown paths,
 * OPTIONS and other methods. A page is never read here: the middleware rewrites the request to the
 * page file (`x-middleware-rewrite`), which Vercel serves in the same request with the headers
 * this response carries, so a protected deployment answers it like any file. Bundled by the build
 * with the listing's state.
 */
import { listingDecision } from '../handler.ts';
import { pageFile, type ListingState } from '../../listing/routes.ts';

declare const __LISTING_STATE__: ListingState;

/** The header by which a Vercel middleware rewrites the request it was given. */
const REWRITE_HEADER = 'x-middleware-rewrite';

export default function listing(request: Request): Response {
  const url = new URL(request.url);
  const answer = listingDecision(request.method, url, __LISTING_STATE__);
  if ('page' in answer) {
    return new Response(null, { headers: { ...answer.headers, [REWRITE_HEADER]: new URL(`/${pageFile(answer.page)}`, url).href } });
  }
  return new Response(request.method === 'HEAD' ? null : answer.body, { status: answer.status, headers: answer.headers });
}
