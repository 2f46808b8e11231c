/**
 * The validated listing for one build: the configuration and the records, loaded once per process.
 * The build script validates first (so it can print the whole report) and hands its result over;
 * an Astro process started any other way (astro dev, astro build) loads the data itself.
 */
import { loadConfig, type Config } from './config.ts';
import { loadFile } from './load.ts';
import { DataError } from './problems.ts';
import type { CarModel } from './schema.ts';

export interface Dataset {
  config: Config;
  records: readonly CarModel[];
}

/** The key under which the build script hands over the dataset it has already validated. */
const HANDOVER = Symbol.for('capture-car-listing.dataset');

type WithHandover = typeof globalThis & { [HANDOVER]?: Dataset };

/** Makes `dataset` the one this process builds from. */
export function handOver(dataset: Dataset): void {
  (globalThis as WithHandover)[HANDOVER] = dataset;
}

/** The dataset of this build; throws a DataError listing every problem if the data is bad. */
export function getDataset(): Dataset {
  const holder = globalThis as WithHandover;
  const existing = holder[HANDOVER];
  if (existing) return existing;
  const config = loadConfig();
  const { records, problems } = loadFile(config.dataFile);
  if (problems.length > 0) throw new DataError(problems);
  const dataset = { config, records };
  holder[HANDOVER] = dataset;
  return dataset;
}
