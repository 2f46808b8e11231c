/**
 * The virtual module the pages read the listing from (src/integration/virtual-module.ts), as Vite
 * loads it: a build's state written into it, the dev server's read live; whether it is live, and
 * whether a build checks every page against Astro's rendering.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { shareWithDevPages } from '../../src/integration/astro-internals.ts';
import { datasetPlugin, type DatasetState } from '../../src/integration/virtual-module.ts';

const config = loadConfig({});
const state: DatasetState = {
  recordsFile: '/builds/a/records.v8',
  summaryFile: '/builds/a/summary.v8',
  problemReport: null,
};

/** The module's exports, from the code the plugin gives Vite for it. */
async function moduleOf(plugin: ReturnType<typeof datasetPlugin>) {
  const id = (plugin.resolveId as (id: string) => string | undefined)('virtual:listing/dataset');
  const code = (plugin.load as (id: string) => string | undefined)(id!);
  return (await import(`data:text/javascript,${encodeURIComponent(code!)}`)) as {
    live: boolean;
    checkAllPages: boolean;
    addresses: { baseUrl: string; assetsUrl: string };
    datasetState: () => DatasetState;
  };
}

describe('virtual:listing/dataset', () => {
  it("is a build's: its state written in, not live", async () => {
    const dataset = await moduleOf(datasetPlugin(config, () => state));
    expect(dataset.live).toBe(false);
    expect(dataset.checkAllPages).toBe(false);
    expect(dataset.addresses).toEqual({ baseUrl: config.baseUrl, assetsUrl: config.assetsUrl });
    expect(dataset.datasetState()).toEqual(state);
    expect((await moduleOf(datasetPlugin(loadConfig({ CHECK_PAGES: 'all' }), () => state))).checkAllPages).toBe(true);
  });

  it("is the dev server's: live, each read giving the dev server's current state", async () => {
    let current = state;
    // Left shared on this thread after the test: only a dev server's pages read it.
    shareWithDevPages(() => current);
    const dataset = await moduleOf(datasetPlugin(config, () => current, { live: true }));
    expect(dataset.live).toBe(true);
    expect(dataset.datasetState()).toEqual(state);
    current = { ...state, recordsFile: '/dev/b/records.v8' };
    expect(dataset.datasetState().recordsFile).toBe('/dev/b/records.v8');
  });
});
