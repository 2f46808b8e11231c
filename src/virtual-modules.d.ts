/** The module the listing integration (src/integration/index.ts) generates for the pages. */
declare module 'virtual:listing/dataset' {
  /** Where the pages' links and logos point. */
  export const addresses: import('./listing/serialise.ts').Addresses;
  /** The contact and licence the publisher states in /openapi.json, where configured. */
  export const publisher: import('./listing/publisher.ts').Publisher;
  /** Whether the pages show the dev server's current data, which an edit changes, rather than one build's. */
  export const live: boolean;
  /** Whether a build compares every listing page with Astro's rendering of it (CHECK_PAGES=all), not a few. */
  export const checkAllPages: boolean;
  /** The data the pages show now (its files both null in `astro dev` before any good data was read). */
  export const datasetState: () => import('./integration/virtual-module.ts').DatasetState;
}
