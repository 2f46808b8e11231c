/**
 * `astro dev` for the data maintainers: the listing's URLs answered by the same request handler as
 * the preview server and the hosts (query forms, DRF's bodies and headers, ETag), page 1 by its
 * number sent to the home page as the hosts send it (FIRST_PAGE_REDIRECTS), the downloads
 * and the manifest served from the prepared data, and the data file watched: an edit is prepared
 * again and every open page reloads, with no restart.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ViteDevServer } from 'vite';
import type { PreparationWithDownloads } from '../outputs/downloads-cache.ts';
import { DOWNLOADS } from '../outputs/downloads.ts';
import { manifestJson, manifestOf } from '../outputs/manifest.ts';
import { listingReply } from './handler.ts';
import { HOST_CONFIGURATION_NAMES } from './hosts/shared.ts';
import { SEARCH_FOLDER } from '../listing/search.ts';
import {
  DOWNLOAD_CONTENT_TYPES,
  fileHeaders,
  FIRST_PAGE_REDIRECT_STATUS,
  pageFile,
  PUBLISHED,
  isListingPath,
  redirectLocation,
  siteHeaders,
  staticMethodAnswer,
} from '../listing/routes.ts';
import { pageNumbers } from '../listing/pagination.ts';
import type { CarModel } from '../data/schema.ts';
import { serialisePage, type Addresses } from '../listing/serialise.ts';

export interface DevListing {
  /** Absolute path of the data file to watch. */
  dataFile: string;
  /** The last good preparation, if any. */
  current: () => PreparationWithDownloads | undefined;
  records: (preparation: PreparationWithDownloads) => readonly CarModel[];
  addresses: Addresses;
  /** Prepares the data file again; afterwards `current()` is the new data when it is good. */
  refresh: () => Promise<void>;
}

/** The site's headers, but for styles: Astro's dev server puts each page's CSS inline, the build in files. */
const devSiteHeaders = (assetsUrl: string) => {
  const headers = siteHeaders(assetsUrl);
  return {
    ...headers,
    'Content-Security-Policy': headers['Content-Security-Policy']!.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
  };
};

/** A path no route or file has: Astro's dev server answers it with the site's 404 page. */
const NOT_A_PAGE = '/listing-not-a-page/';

/** Waits this long after the last change event: editors and spreadsheets write a file in steps. */
export const WATCH_SETTLE_MS = 100;

/** The path as the preview server reads it, decoded (`lates%74` is `latest`). */
function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    // Not percent-encoded UTF-8 (a URIError): no path of ours; Astro's dev server answers it.
    return pathname;
  }
}

export function serveListingInDev(server: ViteDevServer, listing: DevListing): void {
  const { records } = listing;
  let manifest: { key: string; json: string } | undefined;

  const answer = async (request: IncomingMessage, response: ServerResponse, next: () => void): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://dev.invalid');
    const path = decodedPath(url.pathname);
    const method = request.method ?? 'GET';
    const download = DOWNLOADS.find((known) => known === path);
    // The search index is the preparation's too (its files are JSON).
    const isDownload = download !== undefined || path.startsWith(SEARCH_FOLDER);
    if (!isListingPath(path)) {
      // The site's own files answer as on the preview server: its headers, and GET and HEAD only.
      const refused = staticMethodAnswer(method);
      if (refused) {
        response.writeHead(refused.status, refused.headers).end(refused.body || undefined);
        return;
      }
      const location = redirectLocation(path, url.search);
      if (location !== undefined) {
        response.writeHead(FIRST_PAGE_REDIRECT_STATUS, { Location: location }).end();
        return;
      }
      if (!isDownload && path !== PUBLISHED.manifest) {
        // The hosts' own files are read by the host, never served (as on the preview server and nginx): the project's
        // root holds some (vercel.json, for Vercel's Git build), which Vite would serve as they are. Astro answers its 404 page.
        if (HOST_CONFIGURATION_NAMES.some((name) => path === `/${name}` || path.endsWith(`/${name}`))) request.url = NOT_A_PAGE;
        const headers = { ...devSiteHeaders(listing.addresses.assetsUrl), ...fileHeaders(path) };
        for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
        next();
        return;
      }
    }
    const prepared = listing.current();
    if (!prepared) {
      response.writeHead(503, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ detail: 'The data file has problems and no good data was read yet: see the terminal.' }));
      return;
    }
    if (isListingPath(path)) {
      const reply = await listingReply(
        { method, url, ifNoneMatch: request.headers['if-none-match'] ?? null },
        {
          state: { count: prepared.rows, baseUrl: listing.addresses.baseUrl },
          readPage: async (page) => new TextEncoder().encode(serialisePage(records(prepared), page, listing.addresses)),
        },
      );
      response.writeHead(reply.status, reply.headers);
      response.end(method === 'HEAD' || reply.status === 304 ? undefined : reply.body);
      return;
    }
    // The downloads change with every edit here: revalidated each time, as the manifest is everywhere.
    const headers = { ...devSiteHeaders(listing.addresses.assetsUrl), ...fileHeaders(path), 'Cache-Control': 'no-cache' };
    if (path === PUBLISHED.manifest) {
      if (manifest?.key !== prepared.key) {
        const all = records(prepared);
        const { hashes: downloads } = await prepared.downloads;
        // Dev builds nothing: its manifest names the preparation, and holds the JSON pages and the downloads.
        const id = `dev-${prepared.key.slice(0, 8)}`;
        const files = new Map<string, string>();
        for (const page of pageNumbers(prepared.rows)) {
          const hash = createHash('sha256').update(serialisePage(all, page, listing.addresses));
          files.set(pageFile(page), hash.digest('hex'));
        }
        for (const [path, hash] of Object.entries(downloads)) files.set(path.slice(1), hash);
        const json = manifestJson(
          manifestOf({
            buildId: id,
            changedBy: id,
            count: prepared.rows,
            ...listing.addresses,
            data: { file: prepared.dataFile, sha256: prepared.dataSha256 },
            files,
          }),
        );
        manifest = { key: prepared.key, json };
      }
      response.writeHead(200, { ...headers, 'Content-Type': 'application/json' });
      response.end(method === 'HEAD' ? undefined : manifest.json);
      return;
    }
    // The pages show an edit as soon as its records are ready; a download waits for its worker.
    const file = join(prepared.downloadsDir, path.slice(1));
    if ((await prepared.downloads).hashes[path] === undefined) {
      next();
      return;
    }
    response.writeHead(200, { ...headers, 'Content-Type': download ? DOWNLOAD_CONTENT_TYPES[download] : 'application/json' });
    if (method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  };

  server.middlewares.use((request, response, next) => {
    answer(request, response, next).catch(next);
  });

  // The pages read the current data when they are rendered (see dataset.ts): a new preparation
  // means a new route table where the server renders them (Astro caches getStaticPaths) and a
  // reload of every open page in the browsers; no module is evaluated again.
  const reload = () => {
    for (const [name, environment] of Object.entries(server.environments)) {
      if (name === 'client') environment.hot.send({ type: 'full-reload', path: '*' });
      else environment.hot.send('astro:content-changed', {});
    }
  };

  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const onChange = (file: string) => {
    if (file !== listing.dataFile) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running
        .then(async () => {
          await listing.refresh();
          reload();
        })
        // Reported, and the next save is read again: the server keeps serving the last good data.
        .catch((error: unknown) =>
          server.config.logger.error(
            `${listing.dataFile} could not be prepared: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    }, WATCH_SETTLE_MS);
  };
  server.watcher.add(listing.dataFile);
  server.watcher.on('change', onChange);
  server.watcher.on('add', onChange);
}
