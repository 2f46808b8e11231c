/** The listing over real HTTP from the real preview server serving the real build of the fixture. */
import { expect, inject, it } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';

listingBehaviour({ origin: () => inject('origin'), outDir: inject('outDir'), baseUrl: inject('baseUrl') });

it("lists each language's home page in the sitemap, never page 1 by its number (which redirects there)", async () => {
  const sitemap = await (await fetch(`${inject('origin')}/sitemap-0.xml`)).text();
  for (const home of ['/', '/zh-hk/']) expect(sitemap).toContain(`<loc>${inject('baseUrl')}${home}</loc>`);
  expect(sitemap).not.toMatch(/\/page\/1\//);
});
