/**
 * The history of a site's changes: one change document per build that changed anything
 * (`history/<build id>.json`), listed newest first in `changes.json` and chained by build id, so
 * that a mirror that missed any number of builds finds its way from the build it holds to the
 * published one (docs/api.md). A build carries the published history forward, adds its own document
 * where it changed anything, and keeps at most CHANGES_KEPT of them; one that changed nothing adds
 * nothing and removes nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ifPresent } from '../files/missing.ts';
import { changesSchema, type HistoryEntry } from '../listing/documents.ts';
import { changeDocumentPath, PUBLISHED } from '../listing/routes.ts';

/** `changes.json` in the site. */
export const CHANGES_FILE = PUBLISHED.changes.slice(1);

/** The path in the site of the change document of build `buildId`. */
export const changeDocumentFile = (buildId: string): string => changeDocumentPath(buildId).slice(1);

/**
 * The history the published site in `siteDir` keeps: its `changes.json`'s, newest first, up to the
 * first entry whose document is not there (the chain ends where a document is missing). None where
 * the site has no `changes.json` or one of the earlier shape (before build ids: it had no history);
 * one that cannot be read is said (`warn`), and the history starts again.
 */
export function publishedHistory(siteDir: string, warn: (message: string) => void): HistoryEntry[] {
  const text = ifPresent(() => readFileSync(join(siteDir, CHANGES_FILE), 'utf8'));
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Said, and the history starts again from this build: a mirror then resyncs from the manifest.
    warn(`The published ${CHANGES_FILE} is not JSON: the history of changes starts again from this build.`);
    return [];
  }
  const changes = changesSchema.safeParse(json);
  if (!changes.success) {
    const earlierShape = typeof json === 'object' && json !== null && !('history' in json);
    if (!earlierShape)
      warn(
        `The published ${CHANGES_FILE} is not one this build reads (${z.prettifyError(changes.error)}): the history of changes starts again.`,
      );
    return [];
  }
  const { history } = changes.data;
  const missing = history.findIndex((entry) => !existsSync(join(siteDir, entry.file)));
  return missing === -1 ? history : history.slice(0, missing);
}
