/**
 * `astro dev`: the data prepared when the server starts and again after every saved edit (only the
 * changed rows validated, see src/data/edit.ts); the pages show the new data, or its problems
 * beside the last good data. The records are held once, in memory, for the pages and the JSON
 * answers alike (the pages reach them through `shareWithDevPages`). Dev never publishes, so it may
 * run beside a build.
 */
import type { AstroIntegrationLogger } from 'astro';
import type { Config } from '../config.ts';
import { withDownloads, type Downloads, type PreparationWithDownloads } from '../outputs/downloads-cache.ts';
import { prepareRecords, type Preparation } from '../outputs/preparation.ts';
import { formatReport } from '../data/problems.ts';
import { counted } from '../listing/format.ts';
import { WATCH_SETTLE_MS } from '../serve/dev-server.ts';
import { resolve } from 'node:path';
import { readRecordFile } from '../data/records-file.ts';
import type { CarModel } from '../data/schema.ts';
import { shareWithDevPages } from './astro-internals.ts';
import type { DatasetState } from './virtual-module.ts';

export type DevData = ReturnType<typeof devData>;

/** How long a save's data stays on show, with no other save, before its downloads are written unasked. */
const DOWNLOADS_AFTER_MS = 2_000;

export function devData(config: Config, root: string, preparationsDir: string, logger: AstroIntegrationLogger) {
  let current: PreparationWithDownloads | undefined;
  /** The current data's records, once read (or as the validation made them). */
  let held: { key: string; records: readonly CarModel[] } | undefined;
  let problemReport: string | null = null;
  let downloadsTimer: NodeJS.Timeout | undefined;
  /**
   * `preparation`, its downloads written when first asked for (a download, the search index, the
   * manifest) or once it has stayed on show for `DOWNLOADS_AFTER_MS`, not at every save: begun at
   * every save, each wrote the search index whole on a thread of its own, and quick saves queued
   * them on the machine's cores while the maintainer waited for the next page.
   */
  const downloadsWhenAsked = (preparation: Preparation): PreparationWithDownloads => {
    let written: Promise<Downloads> | undefined;
    const begun = () => {
      if (written) return written;
      written = withDownloads(preparation, config.assetsUrl).downloads;
      written.catch((error: unknown) =>
        logger.error(`${config.dataFile}: the downloads could not be written: ${error instanceof Error ? error.message : String(error)}`),
      );
      return written;
    };
    // Not a reason to keep the server's process alive.
    downloadsTimer = setTimeout(begun, DOWNLOADS_AFTER_MS).unref();
    return {
      ...preparation,
      get downloads() {
        return begun();
      },
    };
  };
  const records = (preparation: PreparationWithDownloads): readonly CarModel[] => {
    if (held?.key !== preparation.key) held = { key: preparation.key, records: readRecordFile(preparation.recordsFile) };
    return held.records;
  };
  /** Prepares the data file again: the pages then show it, or its problems beside the last good data. */
  const refresh = async () => {
    // Another save: the data on show is about to be replaced, so its downloads are not begun unasked.
    clearTimeout(downloadsTimer);
    const result = await prepareRecords({
      root,
      preparationsDir,
      dataFile: config.dataFile,
      assetsUrl: config.assetsUrl,
      // An edit of the data shown: its unchanged rows keep their records.
      ...(current && { earlier: current.key }),
      // The watcher passed the file on once its writes had stopped for a moment (dev-server.ts).
      quietMs: WATCH_SETTLE_MS,
    });
    if ('problems' in result) {
      problemReport = formatReport(result.problems);
      logger.error(
        `${problemReport}\n${current ? 'Showing the last good data until the file is fixed.' : 'No good data yet: the listing is empty until the file is fixed.'}`,
      );
      return;
    }
    // The pages show it now; the downloads are awaited where they are served (see dev-server.ts).
    current = downloadsWhenAsked(result.preparation);
    held = result.records ? { key: current.key, records: result.records } : undefined;
    problemReport = null;
    logger.info(`${config.dataFile}: ${counted(current.rows)} rows valid`);
  };
  const state = (): DatasetState => ({
    recordsFile: current?.recordsFile ?? null,
    summaryFile: current?.summaryFile ?? null,
    problemReport,
    ...(current && { records: records(current) }),
  });
  shareWithDevPages(state);
  const addresses = { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl };
  return { state, refresh, current: () => current, records, dataFile: resolve(config.dataFile), addresses };
}
