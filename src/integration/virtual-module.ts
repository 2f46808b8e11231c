/**
 * The virtual module `virtual:listing/dataset` the pages read the listing from (see dataset.ts):
 * addresses, the records file, in a build which pages to render, and in dev the data's problems.
 */
import type { Plugin } from 'vite';
import type { Config } from '../config.ts';

const VIRTUAL_ID = 'virtual:listing/dataset';
export const RESOLVED_VIRTUAL_ID = `\0${VIRTUAL_ID}`;

/** What the pages are told; read each time the module is loaded (dev loads it again after an edit). */
export interface DatasetState {
  recordsFile: string | null;
  renderFile: string | null;
  problemReport: string | null;
}

export function datasetPlugin(config: Config, state: () => DatasetState, extra: Partial<Plugin> = {}): Plugin {
  return {
    name: 'listing:dataset',
    resolveId: (id) => (id === VIRTUAL_ID ? RESOLVED_VIRTUAL_ID : undefined),
    load: (id) => {
      if (id !== RESOLVED_VIRTUAL_ID) return undefined;
      const { recordsFile, renderFile, problemReport } = state();
      return [
        `export const addresses = ${JSON.stringify({ baseUrl: config.baseUrl, assetsUrl: config.assetsUrl })};`,
        `export const recordsFile = ${JSON.stringify(recordsFile)};`,
        `export const renderFile = ${JSON.stringify(renderFile)};`,
        `export const problemReport = ${JSON.stringify(problemReport)};`,
      ].join('\n');
    },
    ...extra,
  };
}
