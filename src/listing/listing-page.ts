/**
 * What differs from one page of the listing to the next, as markup: its head, its language switch,
 * its number in the heading, and its listing section (range, JSON link, models, pagination). The
 * build writes each page as Astro's frame of a listing page with these parts in it
 * (src/outputs/listing-pages.ts); the listing page's component renders the same parts under Astro
 * (src/components/ListingPage.astro), so that the two cannot differ. Pure text.
 */
import type { CarModel } from '../data/schema.ts';
import { languageSwitchHtml, pageHeadHtml, type PageHead } from './head.ts';
import { attribute, escapeHtml } from './html.ts';
import { countIn, LANGUAGES, MESSAGES, type Language } from './languages.ts';
import { modelRowHtml, modelTableHtml, rowOf } from './model-table.ts';
import { neighbours, pageCount, pageRange } from './pagination.ts';
import { htmlPagePath, pageFile } from './routes.ts';

/** One page of the listing in one language, and what it needs of the whole listing. */
export interface ListingPageOf extends Pick<PageHead, 'site'> {
  page: number;
  count: number;
  models: readonly CarModel[];
  /** A model's make in Latin script, for its logo's text. */
  makeOf: (model: CarModel) => string;
  /** The pages' assets address (`pageAssetsUrl`): a path for the shipped logos. */
  assetsUrl: string;
  language: Language;
}

/** The parts of a listing page that differ from page to page, in the order the page has them; each as markup (`ListingPageParts`). */
export const LISTING_PAGE_PARTS = ['head', 'languageSwitch', 'pageOf', 'listing'] as const;
export type ListingPageParts = Record<(typeof LISTING_PAGE_PARTS)[number], string>;

/** The pages a pagination links to: the first and last, and those 1, 2, 10, 100 and 1000 away on either side. */
const OFFSETS = [-1000, -100, -10, -2, -1, 0, 1, 2, 10, 100, 1000];

/**
 * Links through the listing without JavaScript: previous and next, the first and last pages, and
 * the pages near and far; with JavaScript, a box to jump to any page (in the page from the start,
 * so the script's start moves nothing; not shown where scripting is off).
 */
function paginationHtml(page: number, pages: number, language: Language): string {
  const says = MESSAGES[language];
  const count = (value: number) => countIn(language, value);
  const pathOf = (number: number) => htmlPagePath(number, language);
  const pageWord = says.pageWord ? `<span class="visually-hidden">${escapeHtml(says.pageWord)}</span>` : '';
  const shown = [...new Set([1, ...OFFSETS.map((offset) => page + offset), pages])]
    .filter((number) => number >= 1 && number <= pages)
    .sort((a, b) => a - b);
  let html = `<nav class="pagination"${attribute('aria-label', says.pagination)}><ul><li>`;
  html +=
    page > 1
      ? `<a${attribute('href', pathOf(page - 1))} rel="prev">${escapeHtml(says.previous)}${pageWord}</a>`
      : `<span aria-disabled="true">${escapeHtml(says.previous)}</span>`;
  html += '</li>';
  shown.forEach((number, index) => {
    if (index > 0 && number - shown[index - 1]! > 1) html += '<li class="gap" aria-hidden="true">…</li>';
    const label = number === 1 ? says.firstPage : number === pages ? says.lastPage(count(number)) : says.pageNumber(count(number));
    html +=
      number === page
        ? `<li><a${attribute('href', pathOf(number))} aria-current="page">${escapeHtml(count(number))}</a></li>`
        : `<li><a${attribute('href', pathOf(number))}${attribute('aria-label', label)}>${escapeHtml(count(number))}</a></li>`;
  });
  html += '<li>';
  html +=
    page < pages
      ? `<a${attribute('href', pathOf(page + 1))} rel="next">${escapeHtml(says.next)}${pageWord}</a>`
      : `<span aria-disabled="true">${escapeHtml(says.next)}</span>`;
  html += '</li></ul>';
  html += `<form class="jump"${attribute('data-page-count', pages)}><label for="jump-page">${escapeHtml(says.goToPage)}</label><input id="jump-page" name="page" type="number" inputmode="numeric" min="1"${attribute('max', pages)} required><span class="jump-of">${escapeHtml(says.ofPages(count(pages)))}</span><button type="submit">${escapeHtml(says.go)}</button></form></nav>`;
  return html;
}

export function listingPageParts({ page, count, models, makeOf, assetsUrl, site, language }: ListingPageOf): ListingPageParts {
  const says = MESSAGES[language];
  const counted = (value: number) => countIn(language, value);
  const pages = pageCount(count);
  const { first, end } = pageRange(page, count);
  const { next, previous } = neighbours(page, count);
  const range = count === 0 ? says.noModelsYet : says.range(counted(first + 1), counted(end), counted(count));
  const alternates = Object.fromEntries(LANGUAGES.map((each) => [each, htmlPagePath(page, each)])) as Record<Language, string>;
  const json = `/${pageFile(page)}`;
  const head = pageHeadHtml({
    title: page === 1 ? says.homeTitle : says.pageTitle(counted(page), counted(pages)),
    description: count === 0 ? says.emptyDescription : says.description(range, counted(page), counted(pages)),
    path: alternates[language],
    site,
    alternates,
    prev: previous === null ? undefined : htmlPagePath(previous, language),
    next: next === null ? undefined : htmlPagePath(next, language),
    json,
  });
  const rows = models.map((model) => modelRowHtml(rowOf(model, assetsUrl, makeOf(model)), language)).join('');
  const table =
    models.length > 0
      ? modelTableHtml({ rows, caption: says.caption(range, counted(page), counted(pages)), language })
      : `<p class="empty">${escapeHtml(says.emptyListing)}</p>`;
  const listing =
    `<div class="listing-head"><h2 id="listing-heading">${escapeHtml(range)}</h2>` +
    `<a class="json-link"${attribute('href', json)} type="application/json">${escapeHtml(says.pageAsJson)}</a></div>` +
    table +
    paginationHtml(page, pages, language);
  return {
    head,
    languageSwitch: languageSwitchHtml(language, alternates),
    pageOf: escapeHtml(says.pageOf(counted(page), counted(pages))),
    listing,
  };
}
