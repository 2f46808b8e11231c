/**
 * The languages the pages for people are in, and everything they say in each: Traditional Chinese
 * as written in Hong Kong and English. English is the default, at the site's root, where the
 * pages' addresses have no language in them (links, bookmarks, search engines), as the API is
 * English; the Chinese pages are under `/zh-hk/`. Pure: the pages,
 * the search script and Astro's i18n configuration read it.
 */
import { RESULT_MESSAGES } from './result-messages.ts';

/** The languages, as they appear in addresses and in Astro's i18n configuration; the first is the default. */
export const LANGUAGES = ['en', 'zh-hk'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** A language's BCP 47 tag, for `lang`, `hreflang` and Intl. */
export const LANGUAGE_TAGS: Record<Language, string> = { en: 'en', 'zh-hk': 'zh-Hant-HK' };

/** The language of an Astro locale or a `lang` attribute; the default for anything else. */
export function languageOf(locale: string | undefined): Language {
  const lower = locale?.toLowerCase();
  return LANGUAGES.find((language) => language === lower || LANGUAGE_TAGS[language].toLowerCase() === lower) ?? DEFAULT_LANGUAGE;
}

/** The path prefix of a language's pages: none for the default, `/zh-hk` for Chinese. */
export const languagePrefix = (language: Language): string => (language === DEFAULT_LANGUAGE ? '' : `/${language}`);

/** What the pages for people say, in English; every language says the same things (`Messages`). */
const en = {
  /** The language's own name, for the language switch. */
  languageName: 'English',
  siteTitle: 'Captured car models',
  tagline: 'The latest captured car models, with seats, engine sizes and prices.',
  skipLink: 'Skip to the listing',
  languageSwitch: 'Language',
  forPrograms: 'For programs',
  openApi: 'OpenAPI description',
  pageSchema: 'Page JSON Schema',
  recordSchema: 'Record JSON Schema',
  allJson: 'All models (JSON)',
  allCsv: 'All models (CSV)',
  manifest: 'Build manifest',
  homeTitle: 'Captured car models: the latest listing',
  pageTitle: (page: string, pages: string) => `Captured car models: page ${page} of ${pages}`,
  heading: 'The latest listing',
  pageOf: (page: string, pages: string) => `Page ${page} of ${pages}`,
  range: (first: string, last: string, count: string) => `Models ${first}–${last} of ${count}`,
  noModelsYet: 'No models yet',
  description: (range: string, page: string, pages: string) =>
    `${range}: seats, engine sizes, prices and transmissions of the latest captured car models, page ${page} of ${pages}.`,
  emptyDescription: 'The listing of the latest captured car models is empty.',
  caption: (range: string, page: string, pages: string) => `${range}, page ${page} of ${pages}`,
  dataProblems: 'The data file has problems: the last good data is shown',
  pageAsJson: 'This page as JSON',
  emptyListing: 'There are no captured car models in the listing yet.',
  pagination: 'Pages of the listing',
  previous: 'Previous',
  next: 'Next',
  /** Said after "Previous"/"Next" to screen readers only. */
  pageWord: ' page',
  firstPage: 'First page, page 1',
  lastPage: (page: string) => `Last page, page ${page}`,
  pageNumber: (page: string) => `Page ${page}`,
  goToPage: 'Go to page',
  ofPages: (pages: string) => `of ${pages}`,
  go: 'Go',
  searchAll: (count: string) => `Search all ${count} models`,
  nameLabel: 'Name',
  namePlaceholder: 'e.g. 豐田 or Toyota',
  make: 'Make',
  anyMake: 'Any make',
  seats: 'Seats',
  priceFrom: 'Price from',
  priceUpTo: 'Price up to',
  transmission: 'Transmission',
  any: 'Any',
  sortBy: 'Sort by',
  listingOrder: 'Listing order',
  electricOnly: 'Electric only',
  clearSearch: 'Clear search',
  searchResults: 'Models matching the search',
  searchFurther: 'Search further',
  noScript: {
    before:
      "Search and filters need JavaScript. Without it, every page of the listing below works, your browser's Find searches the page shown, and the whole listing can be downloaded as ",
    csv: 'CSV',
    or: ' or ',
    json: 'JSON',
    after: ' to search in a spreadsheet or a program.',
  },
  notFoundTitle: 'Page not found: captured car models',
  notFound: 'Page not found',
  notFoundText: 'This page does not exist.',
  notFoundLink: 'Go to the first page of the listing',
  ...RESULT_MESSAGES.en,
};

/** What the pages for people say, in one language. */
export type Messages = typeof en;

export const MESSAGES: Record<Language, Messages> = {
  en,
  'zh-hk': {
    languageName: '繁體中文',
    siteTitle: '已收錄車款',
    tagline: '最新收錄的車款，附座位、引擎容量及價格。',
    skipLink: '跳至列表',
    languageSwitch: '語言',
    forPrograms: '供程式使用',
    openApi: 'OpenAPI 說明',
    pageSchema: '頁面 JSON Schema',
    recordSchema: '記錄 JSON Schema',
    allJson: '全部車款（JSON）',
    allCsv: '全部車款（CSV）',
    manifest: '建置清單',
    homeTitle: '已收錄車款：最新列表',
    pageTitle: (page, pages) => `已收錄車款：第 ${page} 頁，共 ${pages} 頁`,
    heading: '最新列表',
    pageOf: (page, pages) => `第 ${page} 頁，共 ${pages} 頁`,
    range: (first, last, count) => `第 ${first}–${last} 款，共 ${count} 款`,
    noModelsYet: '暫未有車款',
    description: (range, page, pages) => `${range}：最新收錄車款的座位、引擎容量、價格及波箱，第 ${page} 頁，共 ${pages} 頁。`,
    emptyDescription: '最新收錄車款的列表是空的。',
    caption: (range, page, pages) => `${range}，第 ${page} 頁，共 ${pages} 頁`,
    dataProblems: '資料檔有問題：以下顯示最後一份正確的資料',
    pageAsJson: '本頁的 JSON',
    emptyListing: '列表暫未收錄任何車款。',
    pagination: '列表頁碼',
    previous: '上一頁',
    next: '下一頁',
    pageWord: '',
    firstPage: '第一頁，第 1 頁',
    lastPage: (page) => `最後一頁，第 ${page} 頁`,
    pageNumber: (page) => `第 ${page} 頁`,
    goToPage: '前往頁數',
    ofPages: (pages) => `共 ${pages} 頁`,
    go: '前往',
    searchAll: (count) => `搜尋全部 ${count} 款車`,
    nameLabel: '名稱',
    namePlaceholder: '例如：豐田 或 Toyota',
    make: '品牌',
    anyMake: '任何品牌',
    seats: '座位',
    priceFrom: '最低價格',
    priceUpTo: '最高價格',
    transmission: '波箱',
    any: '任何',
    sortBy: '排序',
    listingOrder: '列表次序',
    electricOnly: '只顯示電動車',
    clearSearch: '清除搜尋',
    searchResults: '符合搜尋的車款',
    searchFurther: '繼續搜尋',
    noScript: {
      before:
        '搜尋及篩選需要 JavaScript。沒有 JavaScript 時，以下列表的每一頁照常運作，瀏覽器的「尋找」可搜尋所顯示的頁面，亦可下載整份列表的 ',
      csv: 'CSV',
      or: ' 或 ',
      json: 'JSON',
      after: '，在試算表或程式中搜尋。',
    },
    notFoundTitle: '找不到網頁：已收錄車款',
    notFound: '找不到網頁',
    notFoundText: '此網頁不存在。',
    notFoundLink: '前往列表第一頁',
    ...RESULT_MESSAGES['zh-hk'],
  },
};

/** Counts and prices as each language writes them (both group thousands with commas). */
const numberFormats = Object.fromEntries(LANGUAGES.map((language) => [language, new Intl.NumberFormat(LANGUAGE_TAGS[language])])) as Record<
  Language,
  Intl.NumberFormat
>;

/** A count for people reading `language`: `100,000`. */
export const countIn = (language: Language, count: number): string => numberFormats[language].format(count);
