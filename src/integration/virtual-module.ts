/**
 * The virtual module `virtual:listing/dataset` the pages read the listing from (see dataset.ts):
 * addresses, whether the data is live (the dev server's), whether a build checks every page, and
 * `datasetState()`: the records file and, in dev, the data's problems. A build's state is written
 * into the module; the dev server's is read live (see `shareWithDevPages`), so that an edit
 * reaches the pages without evaluating them again.
 */
import type { Plugin } from 'vite';
import type { Config } from '../config.ts';
import type { CarModel } from '../data/schema.ts';
import { DEV_STATE_CODE } from './astro-internals.ts';

const VIRTUAL_ID = 'virtual:listing/dataset';
const RESOLVED_VIRTUAL_ID = `\0${VIRTUAL_ID}`;

/** What the pages are told. */
export interface DatasetState {
  recordsFile: string | null;
  /** The listing's summary (see src/listing/summary.ts), made with the records of `recordsFile`. */
  summaryFile: string | null;
  problemReport: string | null;
  /** The records of `recordsFile`, where they are in memory already (the dev server's, in its own process). */
  records?: readonly CarModel[];
}

/**
 * `live`: the pages read `state` when they render (`npm run dev`, see `shareWithDevPages`), where a
 * build writes it into the module; `hooks`: more of the plugin's hooks.
 */
export function datasetPlugin(
  config: Config,
  state: () => DatasetState,
  { live = false, hooks = {} }: { live?: boolean; hooks?: Partial<Plugin> } = {},
): Plugin {
  return {
    name: 'listing:dataset',
    resolveId: (id) => (id === VIRTUAL_ID ? RESOLVED_VIRTUAL_ID : undefined),
    load: (id) => {
      if (id !== RESOLVED_VIRTUAL_ID) return undefined;
      const settings = [
        `export const addresses = ${JSON.stringify({ baseUrl: config.baseUrl, assetsUrl: config.assetsUrl })};`,
        `export const publisher = ${JSON.stringify({ contact: config.contact, license: config.license })};`,
        `export const live = ${live};`,
        `export const checkAllPages = ${config.checkAllPages};`,
      ].join('\n');
      if (live) return `${settings}\n${DEV_STATE_CODE}`;
      const { recordsFile, summaryFile, problemReport } = state();
      return `${settings}\nexport const datasetState = () => (${JSON.stringify({ recordsFile, summaryFile, problemReport })});`;
    },
    ...hooks,
  };
}
