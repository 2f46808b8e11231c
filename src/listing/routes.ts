/**
 * The route table: every URL of the listing API, the file in the built site that answers it, the
 * headers it carries, and how a request (method, path, query) is answered the way the origin (DRF's
 * ListAPIView with PageNumberPagination) answers it. The build, the preview server and the host
 * configurations all take their URLs and headers from here, so they cannot drift apart.
 *
 * Values made by a call at the module's top are marked `@__PURE__`: the search script imports
 * `htmlPagePath` from here, and its bundler keeps every such call it cannot prove harmless.
 */
import { DEFAULT_LANGUAGE, LANGUAGES, languagePrefix, type Language } from './languages.ts';
import { neighbours, pageCount, pageFromQuery } from './pagination.ts';
import { SEARCH_FOLDER } from './search.ts';

/** The listing's path under {base_url}. */
export const LISTING_PATH = '/car/api/capture_car/latest';
/** Path of one page's JSON: `${PAGE_PATH_PREFIX}N`. */
export const PAGE_PATH_PREFIX = `${LISTING_PATH}/page/`;
/** Every page file is named after its number with this extension, so hosts send the right type. */
export const PAGE_FILE_EXTENSION = '.json';

/** The URL path that serves page `page` directly, on every host. */
export function pagePath(page: number): string {
  return `${PAGE_PATH_PREFIX}${page}`;
}

/** The file in the built site that holds page `page`, relative to the site's root. */
export function pageFile(page: number): string {
  return `${pagePath(page).slice(1)}${PAGE_FILE_EXTENSION}`;
}

/** The `next`/`previous` link of the spec: `{base_url}/car/api/capture_car/latest?format=api&page=<n>`. */
export function pageLink(baseUrl: string, page: number): string {
  return `${baseUrl}${LISTING_PATH}?format=api&page=${page}`;
}

/** Stable URLs of what the build publishes beside the pages, for programs. */
export const PUBLISHED = {
  /** OpenAPI 3.1 description of the listing endpoint. */
  openApi: '/openapi.json',
  /** Every record, in listing order, as one JSON array. */
  allJson: '/all.json',
  /** Every record as CSV in the input format: feeding it back in gives the same pages. */
  allCsv: '/all.csv',
  /** What the build holds: counts, content hashes, the data file's hash, build time. */
  manifest: '/manifest.json',
  /** What the last build changed: rows by id, and every URL whose answer changed. */
  changes: '/changes.json',
} as const;

/**
 * The downloads' media types, set by nginx's configuration and the dev server: a host's MIME table
 * may have none for CSV (Debian's nginx has not), and the CSV's Chinese text needs its charset named.
 * The preview server's serve-handler gives the CSV the same from its own table; the other hosts send
 * their own CSV type (Apache's has no charset).
 */
export const DOWNLOAD_CONTENT_TYPES = {
  [PUBLISHED.allJson]: 'application/json',
  [PUBLISHED.allCsv]: 'text/csv; charset=utf-8',
} as const;

/** The folder of the JSON Schemas (`/schema/<name>.schema.json`: src/listing/contract.ts names them). */
const SCHEMA_FOLDER = '/schema/';
/** The URL path of the JSON Schema `name` (src/listing/contract.ts names them). */
export const schemaPath = (name: string): string => `${SCHEMA_FOLDER}${name}.schema.json`;
/** The folder of each build's change document. */
const CHANGES_FOLDER = '/history/';
/** The URL path of the change document of build `buildId`. */
export const changeDocumentPath = (buildId: string): string => `${CHANGES_FOLDER}${buildId}.json`;

/** Where the shipped logo images live in the built site: the default assets address is `{base_url}/assets`. */
export const SHIPPED_ASSETS_PATH = '/assets';

/**
 * The HTML page of listing page `page` in `language`: the first is the language's home page, the
 * others `/page/N/` under it (`/`, `/page/2/`, `/zh-hk/`, `/zh-hk/page/2/`).
 */
export function htmlPagePath(page: number, language: Language = DEFAULT_LANGUAGE): string {
  return `${languagePrefix(language)}${page === 1 ? '/' : `/page/${page}/`}`;
}

/** The file of HTML page `page` in `language` in the built site (relative): `index.html`, `zh-hk/page/2/index.html`. */
export function htmlPageFile(page: number, language: Language = DEFAULT_LANGUAGE): string {
  return `${htmlPagePath(page, language).slice(1)}index.html`;
}

/**
 * Page 1 by its number (`/page/1/`, `/zh-hk/page/1`: an old link, or an address edited by hand) is
 * each language's home page, where no page file is: every host and the preview server send it there
 * with FIRST_PAGE_REDIRECT_STATUS, the query kept. The sitemap and the pages name the home page alone.
 */
export const FIRST_PAGE_REDIRECTS: readonly { from: string; to: string }[] = /* @__PURE__ */ LANGUAGES.flatMap((language) => {
  const from = `${languagePrefix(language)}/page/1`;
  return [from, `${from}/`].map((path) => ({ from: path, to: htmlPagePath(1, language) }));
});
/** Permanent: page 1 is never at its number. */
export const FIRST_PAGE_REDIRECT_STATUS = 301;

/** Where a request for `pathname` (decoded) with `search` (the query as sent, `?…` or empty) is sent instead (FIRST_PAGE_REDIRECTS), or undefined. */
export function redirectLocation(pathname: string, search: string): string | undefined {
  const to = FIRST_PAGE_REDIRECTS.find(({ from }) => from === pathname)?.to;
  return to === undefined ? undefined : `${to}${search}`;
}

/** The files of HTML page `page` in every language: one page, rendered from the same data in each. */
export const htmlPageFiles = (page: number): string[] => LANGUAGES.map((language) => htmlPageFile(page, language));

/** The folders of the HTML pages after the first, one a language: `page/`, `zh-hk/page/`. */
export const HTML_PAGE_FOLDERS: readonly string[] = /* @__PURE__ */ LANGUAGES.map(
  (language) => `${languagePrefix(language).slice(1)}${languagePrefix(language) ? '/' : ''}page`,
);

/** Files holding the error bodies, for static hosts that answer errors with a file. */
export const ERRORS_FOLDER = '_errors';
export const ERROR_FILES = {
  invalidPage: { file: `${ERRORS_FOLDER}/invalid-page.json`, body: '{"detail":"Invalid page."}' },
  notFound: { file: `${ERRORS_FOLDER}/not-found.json`, body: '{"detail":"Not found."}' },
} as const;

/** Methods the listing allows, as the origin's `Allow` header lists them. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

/** `format` values the origin accepts: its JSON renderer's and its browsable API's (answered as JSON). */
export const ACCEPTED_FORMATS = ['json', 'api'] as const;

/** Query parameters that select a page and a format. */
export const QUERY = { page: 'page', format: 'format' } as const;

/** Max-age of listing responses: short, as the listing changes whenever the data is rebuilt. */
const CACHE_MAX_AGE_SECONDS = 300;
/**
 * How long past that a cache may still serve a page while it fetches it again: a minute, so that a
 * reader who follows a new manifest (always revalidated) gets last build's page for at most
 * `max-age` plus this; a mirror fetches by build (docs/api.md) and never does.
 */
const CACHE_STALE_WHILE_REVALIDATE_SECONDS = 60;

/** Headers of the listing's answers a script on another origin may read. */
export const CORS_EXPOSED_HEADERS = 'ETag, Link';

/** Headers on every listing response, success or error, on every host that can set them. */
export const LISTING_HEADERS = {
  'Content-Type': 'application/json',
  Allow: ALLOWED_METHODS.join(', '),
  Vary: 'Accept',
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS,
  'Cache-Control': `public, max-age=${CACHE_MAX_AGE_SECONDS}, stale-while-revalidate=${CACHE_STALE_WHILE_REVALIDATE_SECONDS}`,
  'X-Content-Type-Options': 'nosniff',
} as const;

/**
 * The listing's headers but its type, for hosts whose header rules apply to every answer, a 304 too
 * (Netlify, Vercel): the type comes from the `.json` file the answer is, so a 304 carries none.
 */
const { 'Content-Type': _listingType, ...listingHeadersButType } = LISTING_HEADERS;
export const LISTING_HEADERS_BUT_TYPE = listingHeadersButType;

/** Headers on the site's data files (downloads, schemas, OpenAPI): readable by a script on any origin. */
const DATA_FILE_HEADERS = { 'Access-Control-Allow-Origin': '*' } as const;
/** Headers on what a mirror reads first (`manifest.json`, `changes.json`): revalidated every time (a 304 keeps that cheap). */
export const DOCUMENT_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-cache' } as const;

/**
 * Headers on the HTML pages and other files of the site: no MIME sniffing, no full referrer sent
 * to other sites, and a Content-Security-Policy that the pages satisfy (no inline code; logos may
 * come from the assets address).
 */
export function siteHeaders(assetsUrl?: string): HeaderFields {
  const assetsOrigin = assetsUrl && URL.canParse(assetsUrl) ? ` ${new URL(assetsUrl).origin}` : '';
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Content-Security-Policy':
      `default-src 'self'; img-src 'self' data:${assetsOrigin}; style-src 'self'; script-src 'self'; ` +
      `connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  };
}

/**
 * The folder where the build writes its bundled CSS and scripts, each named after a hash of its
 * content (astro.config.mjs sets Astro's `build.assets` to it).
 */
export const FINGERPRINTED_FOLDER = '_astro';

/**
 * Headers on the fingerprinted files, beside the site headers: new content gets a new name, so a
 * browser or CDN may keep one for a year and never ask again. Every host's configuration uses them.
 */
export const FINGERPRINTED_HEADERS = { 'Cache-Control': 'public, max-age=31536000, immutable' } as const;

/** Where a header rule applies: one file, or every file under a folder (both as URL paths). */
export type PathMatch = { exact: string } | { folder: string };

/**
 * Headers on the site's own files by path, beside the site headers (`siteHeaders`): every host's
 * configuration and the preview server apply these, and nothing else.
 */
export const FILE_HEADER_RULES: readonly { match: PathMatch; headers: HeaderFields }[] = [
  .../* @__PURE__ */ [PUBLISHED.allJson, PUBLISHED.allCsv, PUBLISHED.openApi].map((exact) => ({
    match: { exact },
    headers: DATA_FILE_HEADERS,
  })),
  { match: { folder: SCHEMA_FOLDER }, headers: DATA_FILE_HEADERS },
  { match: { exact: PUBLISHED.manifest }, headers: DOCUMENT_HEADERS },
  { match: { exact: PUBLISHED.changes }, headers: DOCUMENT_HEADERS },
  // Rewritten in place by each build (a file keeps its name and, unchanged, its bytes): revalidated, so
  // that one search never reads one file from the browser's cache of an earlier build and another new.
  { match: { folder: SEARCH_FOLDER }, headers: DOCUMENT_HEADERS },
  // Each names a build, whose changes never change.
  { match: { folder: CHANGES_FOLDER }, headers: { ...DATA_FILE_HEADERS, ...FINGERPRINTED_HEADERS } },
  { match: { folder: `/${FINGERPRINTED_FOLDER}/` }, headers: FINGERPRINTED_HEADERS },
];

/** The FILE_HEADER_RULES headers of the site file at `path`, every matching rule's (for a server that applies them itself). */
export const fileHeaders = (path: string): HeaderFields =>
  Object.assign(
    {},
    ...FILE_HEADER_RULES.filter(({ match }) => ('exact' in match ? path === match.exact : path.startsWith(match.folder))).map(
      ({ headers }) => headers,
    ),
  ) as HeaderFields;

/** Response bodies of the origin, byte for byte. */
export const BODIES = {
  invalidPage: ERROR_FILES.invalidPage.body,
  notFound: ERROR_FILES.notFound.body,
  methodNotAllowed: (method: string) => JSON.stringify({ detail: `Method "${method}" not allowed.` }),
  options:
    '{"name":"Capture Car Latest","description":"","renders":["application/json","text/html"],' +
    '"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}',
} as const;

/** What the listing's answer depends on: the built listing's size and its base URL. */
export interface ListingState {
  count: number;
  baseUrl: string;
}

export interface ListingRequest {
  method: string;
  /** The decoded URL path, without the query string. */
  pathname: string;
  query: URLSearchParams;
}

/** Header names and values (named so as not to shadow the Fetch API's `Headers`, which the worker uses). */
export type HeaderFields = Record<string, string>;

/** Headers as the `{ key, value }` list serve-handler's and Vercel's header rules take. */
export const headerList = (headers: HeaderFields): { key: string; value: string }[] =>
  Object.entries(headers).map(([key, value]) => ({ key, value }));

/** How to answer a request: with a page file from the built site, or with a body of its own. */
export type ListingAnswer = { status: 200; headers: HeaderFields; page: number } | { status: number; headers: HeaderFields; body: string };

/** Methods the site's own files (HTML pages, downloads, schemas) answer. */
const STATIC_METHODS = 'GET, HEAD';

/**
 * The answer to a request for one of the site's own files with a method other than GET and HEAD
 * (OPTIONS: 204 with `Allow`; anything else: DRF's 405 body), or undefined for GET and HEAD.
 */
export function staticMethodAnswer(method: string): { status: number; headers: HeaderFields; body: string } | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  if (method === 'OPTIONS') return { status: 204, headers: { Allow: STATIC_METHODS }, body: '' };
  return { status: 405, headers: { 'Content-Type': 'application/json', Allow: STATIC_METHODS }, body: BODIES.methodNotAllowed(method) };
}

/** Whether a path belongs to the listing API (the only paths `resolveListingRequest` answers). */
export function isListingPath(pathname: string): boolean {
  return pathname === LISTING_PATH || pathname.startsWith(`${LISTING_PATH}/`);
}

/** The RFC 8288 `Link` header of a page: its next and previous pages, where they exist. */
export function linkHeader(page: number, state: ListingState): string | undefined {
  const { next, previous } = neighbours(page, state.count);
  const links = [
    ...(next === null ? [] : [`<${pageLink(state.baseUrl, next)}>; rel="next"`]),
    ...(previous === null ? [] : [`<${pageLink(state.baseUrl, previous)}>; rel="prev"`]),
  ];
  return links.length > 0 ? links.join(', ') : undefined;
}

/**
 * The last segment of a `page/N` path as a regular expression source (unanchored), for the preview
 * server and the nginx configuration alike: our own URL, so only canonical numbers, with or without
 * the file's extension. The named group `group` holds the number.
 */
export function pageSegmentPattern(group: string): string {
  return `(?<${group}>[1-9][0-9]*)(?:\\${PAGE_FILE_EXTENSION})?`;
}
const PAGE_SEGMENT = /* @__PURE__ */ new RegExp(`^${pageSegmentPattern('page')}$`);

/** The page a request for a `page/N` path selects. */
function pageFromPath(segment: string, count: number): number | null {
  const number = PAGE_SEGMENT.exec(segment)?.groups?.['page'];
  if (number === undefined) return null;
  const page = Number(number);
  return page <= pageCount(count) ? page : null;
}

/** The last value of a repeated query parameter, as Django's QueryDict.get reads it. */
function lastValue(query: URLSearchParams, name: string): string | undefined {
  return query.getAll(name).at(-1);
}

/**
 * Answers a request to the listing the way the origin does: an unknown `format` is "Not found."
 * whatever the method, then other methods get 405, OPTIONS its metadata, and GET/HEAD the page,
 * or "Invalid page." for a page that does not exist.
 */
export function resolveListingRequest(request: ListingRequest, state: ListingState): ListingAnswer {
  const headers: HeaderFields = { ...LISTING_HEADERS };
  const format = lastValue(request.query, QUERY.format);
  const fromPath = request.pathname.startsWith(PAGE_PATH_PREFIX);
  if (request.pathname !== LISTING_PATH && !fromPath) return { status: 404, headers, body: BODIES.notFound };
  if (format && !(ACCEPTED_FORMATS as readonly string[]).includes(format)) {
    return { status: 404, headers, body: BODIES.notFound };
  }
  if (request.method === 'OPTIONS') return { status: 200, headers, body: BODIES.options };
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return { status: 405, headers, body: BODIES.methodNotAllowed(request.method) };
  }
  const page = fromPath
    ? pageFromPath(request.pathname.slice(PAGE_PATH_PREFIX.length), state.count)
    : pageFromQuery(lastValue(request.query, QUERY.page), state.count);
  if (page === null) return { status: 404, headers, body: BODIES.invalidPage };
  const link = linkHeader(page, state);
  return { status: 200, headers: link ? { ...headers, Link: link } : headers, page };
}
