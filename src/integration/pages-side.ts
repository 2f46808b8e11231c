/**
 * The pages side of a build, once its data side has ended (data-side.ts): which pages to write (their
 * key changed, or their published file is gone), and the build's folder made to hold the others as
 * the published files (src/publish/reuse.ts). On a thread of its own, beside the downloads': at a
 * million rows, on a new folder, it is a link for each of 300,000 pages, the kernel's work more
 * than a core's. Its module imports little, so that the thread starts at once.
 */
import { writeFileSync } from 'node:fs';
import { serialize } from 'node:v8';
import { runOnThread } from '../threads.ts';
import type { PageKeys } from '../listing/page-keys.ts';
import type { Baseline } from '../publish/baseline.ts';
import { pagesIn, preparePages, renderedCount, renderSetOf } from '../publish/reuse.ts';

/** What the pages' thread is given: the build's folder, the pages and their keys, the baseline. */
export interface PagesSideInput {
  /**
   * The build's own site folder, whose pages are made this build's before Astro renders: it holds
   * the pages of the build before the published one where its folder was taken (see
   * src/publish/store.ts), none where it is new.
   */
  siteDir: string;
  /** Where the pages to render are written for the pages' routes to read (see dataset.ts). */
  renderFile: string;
  pages: number;
  keys: PageKeys | undefined;
  baseline: Pick<Baseline, 'siteDir' | 'keys' | 'rendered'> | undefined;
}

/** Which pages are written and which taken, as the pages' thread made the folder hold them. */
export interface PagesSide {
  /** How many JSON and HTML pages are written. */
  toRender: { json: number; html: number };
  /** The size of the pages taken from the baseline, in bytes. */
  takenBytes: number;
  /** How long it took, in seconds. */
  seconds: number;
}

/** Decides which pages to write and makes the build's folder hold the others; says how long it took. */
export function preparePagesSide({ siteDir, renderFile, pages, keys, baseline }: PagesSideInput): PagesSide {
  const began = performance.now();
  const { render, takenBytes } = renderSetOf(pages, keys, baseline);
  // The pages the folder holds as it starts: nothing has written to it yet (Astro renders after this).
  preparePages(siteDir, render, baseline, pagesIn(siteDir));
  // Written last: the pages' routes read it, and Astro renders into the folder only after it.
  writeFileSync(renderFile, serialize(render));
  return { toRender: renderedCount(render), takenBytes, seconds: (performance.now() - began) / 1000 };
}

/** Starts `preparePagesSide` on a worker thread of its own; `answer` and `stop` are the thread's (threads.ts). */
export function startPagesSide(input: PagesSideInput) {
  return runOnThread<PagesSide>('pages', new URL('./pages-side-worker.ts', import.meta.url), input);
}
