/**
 * What each step of a build hands the next (build.ts runs the steps, finish-steps.ts those once
 * Astro has rendered), written out: each value is immutable once handed on.
 */
import type { Config } from '../config.ts';
import type { Language } from '../listing/languages.ts';
import type { ListingPagesRun } from '../outputs/listing-pages.ts';
import type { PreparationWithDownloads } from '../outputs/downloads-cache.ts';
import type { BuildReport, PhaseClock } from '../outputs/report.ts';
import type { Baseline } from '../publish/baseline.ts';
import type { BuildLock } from '../publish/lock.ts';
import type { RenderSet } from '../publish/record.ts';
import type { BuildFolder } from '../publish/store.ts';
import type { DataReady } from './data-side.ts';
import type { PagesSide } from './pages-side.ts';
import type { AstroPage } from './page-check.ts';

/** The new build's folder, where Astro renders into it, and the files the data side hands the pages. */
export interface NewFolder extends BuildFolder {
  /** Where Astro renders: the build's site, or a folder in the project's cache where the store is on another file system (see render-folder.ts). */
  renderDir: string;
  /** The records file the pages read (a link to the preparation's, so pruning cannot take it away). */
  recordsFile: string;
  /** The listing's summary the pages read (a link to the preparation's too). */
  summaryFile: string;
  /** Which pages the build writes (written by the data side). */
  renderFile: string;
}

/** Step 1's: a build under way, from its start to its publication. */
export interface StartedBuild {
  readonly config: Config;
  /** The build store, held under the build lock. */
  readonly store: { dir: string; lock: BuildLock };
  readonly folder: NewFolder;
  /** A hash of the code and addresses that make the site (see `startBuild`). */
  readonly fingerprint: string;
  readonly root: string;
  /** The settings, code and runtime it is built from, as it starts: for its stamp once published (src/publish/current.ts). */
  readonly settings: string;
  /** What the build is compared with and may take from; none for a first build. */
  readonly baseline: Baseline | undefined;
  readonly clock: PhaseClock;
  /** Says what the maintainer should know meanwhile, in one line. */
  readonly warn: (message: string) => void;
  /** The data, once ready; rejected with a `Refusal` when it is bad or would shrink the site too much. */
  readonly data: Promise<ReadyData>;
  /** Ends the data side's threads now, for a build that will not render (see session.ts); settles once they have ended. */
  readonly stopData: () => Promise<void>;
  /** Says that Astro's start is over: the downloads' thread may begin where it waited for a core (see `startData`). */
  readonly beginDownloads: () => void;
}

/** The data side's answer (data-side.ts) with its pages' (`PagesSide`), and its downloads, under way where they are not cached. */
export interface ReadyData extends Omit<DataReady, 'preparation'>, Omit<PagesSide, 'seconds'> {
  preparation: PreparationWithDownloads;
}

/**
 * The listing's pages of a build: written once Astro has rendered the frame of a listing page in
 * each language (`begin`, from listing-prerenderer.ts), and checked against the pages Astro
 * rendered to check them by (`checked`, page-check.ts).
 */
export interface ListingPagesOfBuild extends Omit<ListingPagesRun, 'threads'> {
  begin: (frames: Record<Language, string>) => void;
  checked: AstroPage[];
}

/** Step 2's: the data, which pages to write, their writers, and the timer that reports their progress. */
export interface Rendering {
  data: ReadyData;
  render: RenderSet;
  pages: ListingPagesOfBuild;
  progress: NodeJS.Timeout;
}

/** Step 3's: what the published build holds and changed, for the report, and the SHA-256 of the data it read, for its stamp. */
export type Publication = Pick<
  BuildReport,
  'buildId' | 'changedBy' | 'rows' | 'rendered' | 'files' | 'bytes' | 'changes' | 'unchangedFiles' | 'dataValidated'
> & { dataSha256: string };
