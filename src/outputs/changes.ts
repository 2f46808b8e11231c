/**
 * What a build changes in the site it replaces: rows added, removed and changed (by `id`, with the
 * fields), and every URL whose answer changed (the query forms a CDN caches separately included,
 * and every other published file whose bytes changed or that is gone: sitemaps, OpenAPI, schemas,
 * error pages, downloads), published as `changes.json` for a CDN purge or a mirror.
 */
import { counted } from '../listing/format.ts';
import type { Changes } from '../listing/changes-schema.ts';
import { htmlPageFile, htmlPagePath, LISTING_PATH, pageFile, pagePath } from '../listing/routes.ts';
import { DOWNLOADS } from './downloads.ts';
import type { Manifest } from './manifest.ts';

export type { Changes } from '../listing/changes-schema.ts';

/** Every URL that answers with page `page` of the listing, as a CDN keys them. */
function pageUrls(page: number, last: boolean): string[] {
  const queries = [
    `page=${page}`,
    `format=api&page=${page}`,
    `page=${page}&format=api`,
    `format=json&page=${page}`,
    `page=${page}&format=json`,
  ];
  if (page === 1) queries.push('', 'format=api', 'format=json');
  if (last) queries.push('page=last', 'format=api&page=last');
  return [
    pagePath(page),
    `/${pageFile(page)}`,
    ...queries.map((query) => (query ? `${LISTING_PATH}?${query}` : LISTING_PATH)),
    htmlPagePath(page),
  ];
}

/** The URL path that serves the site file `path`: a folder's `index.html` is served at the folder. */
function fileUrl(path: string): string {
  return path === 'index.html' || path.endsWith('/index.html') ? `/${path.slice(0, -'index.html'.length)}` : `/${path}`;
}

interface BuiltSite {
  manifest: Manifest;
  rows: Changes['rows'];
  /** Site paths (`index.html`, `all.json`) of the new site's files that are new or whose bytes changed. */
  changedFiles: ReadonlySet<string>;
  /** Site paths of the replaced site's files that the new one does not have. */
  removedFiles: readonly string[];
  /** Site paths of files a host reads but does not serve (`_headers`, `.htaccess`…): no URL. */
  notServed: ReadonlySet<string>;
}

/**
 * What this build changes, against its baseline (src/publish/baseline.ts: the site it replaces; none,
 * and everything changed, for a first build).
 */
export function changesOf(
  baseline: { dataSha256: string; pageCount: number; hashes: Readonly<Record<string, string>> } | undefined,
  built: BuiltSite,
): Changes & { pages: { json: number; html: number }; downloads: string[] } {
  const { manifest } = built;
  const oldPages = baseline?.pageCount ?? 0;
  const pages = Math.max(oldPages, manifest.pageCount);
  const urls = new Set<string>();
  const pageFiles = new Set<string>();
  let json = 0;
  let html = 0;
  for (let page = 1; page <= pages; page += 1) {
    pageFiles.add(pageFile(page)).add(htmlPageFile(page));
    const jsonChanged = baseline?.hashes[pagePath(page)] !== manifest.files[pagePath(page)];
    // A page that is gone changed too (the host now answers 404).
    const htmlChanged = !baseline || page > manifest.pageCount || built.changedFiles.has(htmlPageFile(page));
    // `page=last` moves when the page count does.
    const lastMoved = oldPages !== manifest.pageCount && (page === oldPages || page === manifest.pageCount);
    if (jsonChanged) json += 1;
    if (htmlChanged) html += 1;
    if (jsonChanged || lastMoved)
      for (const url of pageUrls(page, page === manifest.pageCount || page === oldPages)) if (url !== htmlPagePath(page)) urls.add(url);
    if (htmlChanged) urls.add(htmlPagePath(page));
  }
  const downloads = DOWNLOADS.filter((path) => !baseline || built.changedFiles.has(path.slice(1)));
  const others = [...built.changedFiles, ...built.removedFiles].filter((path) => !pageFiles.has(path) && !built.notServed.has(path));
  for (const url of others.map(fileUrl).sort()) urls.add(url);
  return {
    previousDataSha256: baseline?.dataSha256 ?? null,
    dataSha256: manifest.data.sha256,
    rows: built.rows,
    urls: [...urls].map((path) => `${manifest.baseUrl}${path}`),
    pages: { json, html },
    downloads,
  };
}

/** `changes.json`, as published: the schema's fields only. */
export function changesJson({ previousDataSha256, dataSha256, rows, urls }: Changes): string {
  return `${JSON.stringify({ previousDataSha256, dataSha256, rows, urls }, null, 2)}\n`;
}

/** The closing report's line: `+2 −1 ~3 rows; 3 JSON and 26 HTML pages; downloads /all.json, /all.csv`. */
export function summariseChanges(changes: ReturnType<typeof changesOf>): string {
  const { added, removed, changed } = changes.rows;
  const downloads = changes.downloads.length > 0 ? changes.downloads.join(', ') : 'none';
  return `+${counted(added.length)} −${counted(removed.length)} ~${counted(changed.length)} rows; ${counted(changes.pages.json)} JSON and ${counted(changes.pages.html)} HTML pages; downloads ${downloads}`;
}
