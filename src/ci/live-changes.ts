/**
 * What publishing a build over the live site changes there, as that build's change document would
 * say it had it been built over the live site itself: the rows (src/outputs/row-changes.ts), the
 * files whose bytes differ from the live manifest's, the history carried and pruned, and every URL
 * whose answer changes (`changedUrls`, as the build lists them). The build compared may be a clean
 * one (a fresh checkout): only its data and code count, never its own history.
 */
import type { HistoryEntry, RowChanges } from '../listing/documents.ts';
import { changedUrls } from '../outputs/changes.ts';
import { CHANGES_FILE, changeDocumentFile } from '../outputs/history.ts';
import { MANIFEST_FILE, type PublishedManifest } from '../outputs/manifest.ts';
import type { RowComparison } from '../outputs/row-changes.ts';
import { removesTooMany } from '../publish/shrink-guard.ts';

/** A site path that describes builds rather than the data: `changes.json` and the change documents. */
const describesBuilds = (path: string) => path === CHANGES_FILE || /^history\//.test(path);

/** The live site as read: its manifest and the history its `changes.json` keeps (newest first). */
export interface LiveSite {
  manifest: PublishedManifest;
  history: readonly HistoryEntry[];
}

/** What publishing `built` over `live` changes. */
export interface LiveChanges {
  rows: RowChanges;
  /** Rows the live site publishes. */
  published: number;
  pages: { before: number; after: number; json: number; html: number };
  /** Site paths, as in a change document: changed ones (`history/<build id>.json` among them) and removed ones. */
  files: { changed: string[]; removed: string[] };
  urls: string[];
  /** Whether the build's data and code change no file the live site serves: then it publishes a new manifest.json alone. */
  unchanged: boolean;
  /** Whether the shrink guard refuses it: more than its share of the published rows removed. */
  shrinks: boolean;
  /** Addresses that differ from the live site's (every page then changes): `BASE_URL` and `ASSETS_URL` by name. */
  otherAddresses: string[];
}

/** The history a site keeps that a build carries on: its entries up to the first whose document the site does not serve. */
export function keptHistory(history: readonly HistoryEntry[], files: Readonly<Record<string, string>>): HistoryEntry[] {
  const missing = history.findIndex((entry) => !(entry.file in files));
  return missing === -1 ? [...history] : history.slice(0, missing);
}

/**
 * `built` is the manifest of the build to publish (its id names its change document); `rows` its
 * rows against the live ones; `changesKept` the configuration's CHANGES_KEPT.
 */
export function liveChanges(
  live: LiveSite,
  built: Pick<PublishedManifest, 'buildId' | 'count' | 'pageCount' | 'baseUrl' | 'assetsUrl' | 'files'>,
  rows: RowComparison,
  changesKept: number,
): LiveChanges {
  const liveFiles = live.manifest.files;
  const changedData = Object.keys(built.files)
    .filter((path) => !describesBuilds(path) && liveFiles[path] !== built.files[path])
    .sort();
  const carried = keptHistory(live.history, liveFiles).slice(0, changesKept);
  const newFiles = new Set([...Object.keys(built.files).filter((path) => !describesBuilds(path)), ...carried.map((entry) => entry.file)]);
  const removedData = Object.keys(liveFiles).filter((path) => path !== CHANGES_FILE && !newFiles.has(path));
  const otherAddresses = [
    ...(built.baseUrl === live.manifest.baseUrl ? [] : ['BASE_URL']),
    ...(built.assetsUrl === live.manifest.assetsUrl ? [] : ['ASSETS_URL']),
  ];
  const common = { rows: rows.rows, published: rows.published, shrinks: removesTooMany(rows), otherAddresses };
  if (live.manifest.changedBy !== undefined && changedData.length === 0 && removedData.length === 0) {
    const pages = { before: live.manifest.pageCount, after: built.pageCount, json: 0, html: 0 };
    return { ...common, pages, files: { changed: [], removed: [] }, urls: [`${built.baseUrl}/${MANIFEST_FILE}`], unchanged: true };
  }
  // As the build adds its own change document: the oldest carried one goes where the history is full.
  const history = [{ file: changeDocumentFile(built.buildId ?? 'build') }, ...carried].slice(0, changesKept);
  const pruned = carried.slice(history.length - 1).map((entry) => entry.file);
  const changed = new Set([...changedData, CHANGES_FILE, changeDocumentFile(built.buildId ?? 'build')]);
  const removed = [...removedData, ...pruned].sort();
  const { urls, pages } = changedUrls(live.manifest.pageCount, {
    pageCount: built.pageCount,
    baseUrl: built.baseUrl,
    changedFiles: new Set([...changed, MANIFEST_FILE]),
    removedFiles: removed,
  });
  return {
    ...common,
    pages: { before: live.manifest.pageCount, after: built.pageCount, ...pages },
    files: { changed: [...changed].sort(), removed },
    urls,
    unchanged: false,
  };
}
