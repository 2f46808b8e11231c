/**
 * `astro dev`: the data prepared when the server starts and again after every saved edit (only the
 * changed rows validated, see src/data/edit.ts); the pages show the new data, or its problems
 * beside the last good data. Dev never publishes, so it may run beside a build.
 */
import type { AstroIntegrationLogger } from 'astro';
import type { ViteDevServer } from 'vite';
import type { Config } from '../config.ts';
import { prepareData, type PreparationWithDownloads } from '../outputs/prepared-downloads.ts';
import { formatReport } from '../data/problems.ts';
import { counted } from '../listing/format.ts';
import { serveListingInDev } from '../serve/dev-server.ts';
import { resolve } from 'node:path';
import { RESOLVED_VIRTUAL_ID, type DatasetState } from './virtual-module.ts';

export interface DevData {
  state: () => DatasetState;
  /** Prepares the data file again: the pages then show it, or its problems beside the last good data. */
  refresh: () => Promise<void>;
  current: () => PreparationWithDownloads | undefined;
}

export function devData(config: Config, root: string, preparedDir: string, logger: AstroIntegrationLogger): DevData {
  let current: PreparationWithDownloads | undefined;
  let problemReport: string | null = null;
  const refresh = async () => {
    const result = await prepareData({
      root,
      cacheDir: preparedDir,
      dataFile: config.dataFile,
      assetsUrl: config.assetsUrl,
      // An edit of the data shown: its unchanged rows keep their records.
      ...(current && { earlier: current.key }),
    });
    if ('problems' in result) {
      problemReport = formatReport(result.problems);
      logger.error(`${problemReport}\n${current ? 'Showing the last good data until the file is fixed.' : 'No good data yet: the listing is empty until the file is fixed.'}`);
      return;
    }
    // The pages show it now; the downloads are awaited where they are served (see dev-server.ts).
    current = result.preparation;
    current.downloads.catch((error: unknown) => logger.error(`${config.dataFile}: the downloads could not be written: ${error instanceof Error ? error.message : String(error)}`));
    problemReport = null;
    logger.info(`${config.dataFile}: ${counted(current.rows)} rows valid`);
  };
  return {
    state: () => ({ recordsFile: current?.recordsFile ?? null, renderFile: null, problemReport }),
    refresh,
    current: () => current,
  };
}

export function serveDev(server: ViteDevServer, config: Config, data: DevData): void {
  serveListingInDev(server, {
    dataFile: resolve(config.dataFile),
    current: data.current,
    addresses: { baseUrl: config.baseUrl, assetsUrl: config.assetsUrl },
    refresh: data.refresh,
    virtualModuleId: RESOLVED_VIRTUAL_ID,
  });
}
