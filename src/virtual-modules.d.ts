/** The module the listing integration (src/integration/index.ts) generates for the pages. */
declare module 'virtual:listing/dataset' {
  /** Where the pages' links and logos point. */
  export const addresses: import('./listing/serialise.ts').Addresses;
  /** The prepared records (V8-serialised); null in `astro dev` before any good data was read. */
  export const recordsFile: string | null;
  /** In a build: which pages to render (a V8-serialised `RenderSet`); null in `astro dev`, which renders every page asked for. */
  export const renderFile: string | null;
  /** In `astro dev`: the problem report of the data file on disk, or null when it is good. */
  export const problemReport: string | null;
}
