/**
 * What a build changes in the site it replaces, as its change document says it (schema in
 * src/listing/documents.ts): rows added, removed and changed (by `id`, with the fields), the files
 * changed and removed (what a mirror fetches and deletes), and every URL whose answer changed (the
 * query forms a CDN caches separately included): for a CDN purge or a mirror.
 */
import { counted } from '../listing/format.ts';
import type { RowChanges } from '../listing/documents.ts';
import { htmlPageFile, htmlPagePath, LISTING_PATH, pageFile, pagePath } from '../listing/routes.ts';
import { DOWNLOADS } from './downloads.ts';
import { SEARCH_FOLDER } from '../listing/search.ts';
import { LANGUAGES } from '../listing/languages.ts';

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
  return [pagePath(page), `/${pageFile(page)}`, ...queries.map((query) => (query ? `${LISTING_PATH}?${query}` : LISTING_PATH))];
}

/** The URL path that serves the site file `path`: a folder's `index.html` is served at the folder. */
function fileUrl(path: string): string {
  return path === 'index.html' || path.endsWith('/index.html') ? `/${path.slice(0, -'index.html'.length)}` : `/${path}`;
}

/** What a build changed in the site it replaced, as its change document says it, and how it counts for the report. */
export interface BuiltChanges {
  /** Site paths (`index.html`, `all.json`) of the new site's files that are new or whose bytes changed. */
  changedFiles: ReadonlySet<string>;
  /** Site paths of the replaced site's files that the new one does not have. */
  removedFiles: readonly string[];
}

/**
 * Every URL whose answer changed, against the site this build replaces (its page count; none, and
 * everything changed, for a first build), with how many JSON and HTML pages changed: the page files'
 * own URLs, every query form a CDN keys separately, and every other file's URL.
 */
export function changedUrls(
  oldPages: number | undefined,
  { pageCount, baseUrl, changedFiles, removedFiles }: BuiltChanges & { pageCount: number; baseUrl: string },
): { urls: string[]; pages: { json: number; html: number } } {
  const before = oldPages ?? 0;
  const pages = Math.max(before, pageCount);
  const urls = new Set<string>();
  const pageFiles = new Set<string>();
  let json = 0;
  let html = 0;
  for (let page = 1; page <= pages; page += 1) {
    pageFiles.add(pageFile(page));
    // A page that is gone changed too (the host now answers 404).
    const jsonChanged = page > pageCount || changedFiles.has(pageFile(page));
    // `page=last` moves when the page count does.
    const lastMoved = before !== pageCount && (page === before || page === pageCount);
    if (jsonChanged) json += 1;
    if (jsonChanged || lastMoved) for (const url of pageUrls(page, page === pageCount || page === before)) urls.add(url);
    for (const language of LANGUAGES) {
      pageFiles.add(htmlPageFile(page, language));
      if (page > pageCount || changedFiles.has(htmlPageFile(page, language))) {
        html += 1;
        urls.add(htmlPagePath(page, language));
      }
    }
  }
  const others = [...changedFiles, ...removedFiles].filter((path) => !pageFiles.has(path));
  for (const url of others.map(fileUrl).sort()) urls.add(url);
  return { urls: [...urls].map((path) => `${baseUrl}${path}`), pages: { json, html } };
}

/** What the closing report says a build changed. */
export interface ChangeSummary {
  rows: RowChanges;
  pages: { json: number; html: number };
  downloads: string[];
  searchFiles: number;
}

/** The downloads and search index files among `changedFiles` (site paths). */
export function changedDownloads(changedFiles: ReadonlySet<string>): Pick<ChangeSummary, 'downloads' | 'searchFiles'> {
  const searchFiles = [...changedFiles].filter((file) => file.startsWith(SEARCH_FOLDER.slice(1))).length;
  return { downloads: DOWNLOADS.filter((path) => changedFiles.has(path.slice(1))), searchFiles };
}

/** The closing report's line: `+2 −1 ~3 rows; 3 JSON and 26 HTML pages; downloads /all.json, /all.csv; 12 search index files`. */
export function summariseChanges(changes: ChangeSummary | undefined): string {
  if (changes === undefined) return 'none: every published file is as it was';
  const { added, removed, changed } = changes.rows;
  const downloads = changes.downloads.length > 0 ? changes.downloads.join(', ') : 'none';
  return `+${counted(added.length)} −${counted(removed.length)} ~${counted(changed.length)} rows; ${counted(changes.pages.json)} JSON and ${counted(changes.pages.html)} HTML pages; downloads ${downloads}; ${counted(changes.searchFiles)} search index files`;
}
