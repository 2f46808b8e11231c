/** The listing over real HTTP from the real preview server serving the real build of the fixture. */
import { expect, inject, it } from 'vitest';
import { escapeHtml } from '../../src/listing/html.ts';
import { LANGUAGE_TAGS, LANGUAGES, MESSAGES } from '../../src/listing/languages.ts';
import { listingBehaviour } from '../support/listing-behaviour.ts';

listingBehaviour({ origin: () => inject('origin'), outDir: inject('outDir'), baseUrl: inject('baseUrl') });

it("lists each language's home page in the sitemap, never page 1 by its number (which redirects there)", async () => {
  const sitemap = await (await fetch(`${inject('origin')}/sitemap-0.xml`)).text();
  for (const home of ['/', '/zh-hk/']) expect(sitemap).toContain(`<loc>${inject('baseUrl')}${home}</loc>`);
  expect(sitemap).not.toMatch(/\/page\/1\//);
});

it('answers a missing page with the 404 page whole in both languages: its title, header and footer as well as its text', async () => {
  const response = await fetch(`${inject('origin')}/zh-hk/no-such-page/`);
  expect(response.status).toBe(404);
  const html = await response.text();
  const header = /<header.*<\/header>/s.exec(html)?.[0] ?? '';
  const footer = /<footer.*<\/footer>/s.exec(html)?.[0] ?? '';
  for (const language of LANGUAGES) {
    const says = MESSAGES[language];
    const inLanguage = (text: string) => `<span lang="${LANGUAGE_TAGS[language]}">${escapeHtml(text)}</span>`;
    expect(header, language).toContain(inLanguage(says.siteTitle));
    expect(header, language).toContain(inLanguage(says.tagline));
    for (const link of [says.openApi, says.pageSchema, says.recordSchema, says.allJson, says.allCsv, says.manifest])
      expect(footer, language).toContain(inLanguage(link));
    expect(html, language).toContain(escapeHtml(says.notFoundText));
  }
});
