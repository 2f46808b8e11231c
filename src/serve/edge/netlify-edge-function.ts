/**
 * Netlify Edge Function (Deno) on the listing's paths (declared in the generated netlify.toml):
 * the one request handler. Netlify's `_redirects` cannot send `Allow`, OPTIONS bodies or 405s; this
 * can. A page file is read by handing the request on to it inside the same request
 * (`context.next()` with the page file's URL), never by a new HTTP request to the site, which
 * password protection would refuse (docs/hosting.md); the handler then puts the listing's headers,
 * ETag and status on its bytes. Bundled by the build with the listing's state.
 */
import { listingResponse } from '../handler.ts';
import { pageFile, type ListingState } from '../../listing/routes.ts';

declare const __LISTING_STATE__: ListingState;

/** What the function uses of Netlify's `Context`: the rest of the request's chain, to a same-site URL. */
interface NetlifyContext {
  next: (request: Request) => Promise<Response>;
}

/**
 * After a 404, Netlify looks for the same path as an HTML page (`.html`, `.htm`, `/index.html`,
 * `/index.htm`) and calls the function again for each: where the path without it is a 404 too, that
 * was the path asked for, and its answer is the one to give. A request for such a path itself (a
 * page there would answer 200) is answered as asked, as on every other host: a 404.
 */
const HTML_LOOKUP = /(?:\.html?|\/index\.html?)$/;

export default async function listing(request: Request, context: NetlifyContext): Promise<Response> {
  const answer = (url: URL) =>
    listingResponse(new Request(url, request), {
      state: __LISTING_STATE__,
      readPage: async (page) => {
        // A GET without conditions, whatever was asked: the handler needs the bytes for its ETag and length.
        const headers = new Headers(request.headers);
        for (const name of ['if-none-match', 'if-modified-since', 'range']) headers.delete(name);
        const file = await context.next(new Request(new URL(`/${pageFile(page)}`, url), { method: 'GET', headers }));
        return file.ok ? new Uint8Array(await file.arrayBuffer()) : undefined;
      },
    });
  const url = new URL(request.url);
  const asked = await answer(url);
  if (asked.status !== 404 || !HTML_LOOKUP.test(url.pathname)) return asked;
  const lookedUp = new URL(url);
  lookedUp.pathname = url.pathname.replace(HTML_LOOKUP, '');
  const original = await answer(lookedUp);
  return original.status === 404 ? original : asked;
}
