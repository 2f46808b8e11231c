/**
 * What differs from one HTML page to the next in the frame every page shares (src/layouts/Base.astro):
 * the head's title, description and links, and the header's link to the same page in the other
 * languages. Pure text, every value escaped (html.ts): the build writes the listing's pages with it,
 * and the layout renders it under Astro.
 */
import { attribute, escapeHtml } from './html.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, LANGUAGES, MESSAGES, type Language } from './languages.ts';

export interface PageHead {
  title: string;
  description: string;
  /** The page's canonical path. */
  path: string;
  /** Where its paths are made absolute (the site's address; none leaves them paths). */
  site: URL | undefined;
  /** The page's path in each language (none for a page in one language only). */
  alternates?: Record<Language, string> | undefined;
  prev?: string | undefined;
  next?: string | undefined;
  /** The same data as JSON. */
  json?: string | undefined;
}

/** The head's elements that differ between pages: title, description, canonical and alternate links, neighbours, JSON. */
export function pageHeadHtml({ title, description, path, site, alternates, prev, next, json }: PageHead): string {
  const absolute = (each: string) => (site ? new URL(each, site).href : each);
  let html = `<title>${escapeHtml(title)}</title><meta name="description"${attribute('content', description)}><link rel="canonical"${attribute('href', absolute(path))}>`;
  if (alternates) {
    for (const each of LANGUAGES)
      html += `<link rel="alternate"${attribute('hreflang', LANGUAGE_TAGS[each])}${attribute('href', absolute(alternates[each]))}>`;
    html += `<link rel="alternate" hreflang="x-default"${attribute('href', absolute(alternates[DEFAULT_LANGUAGE]))}>`;
  }
  if (prev !== undefined) html += `<link rel="prev"${attribute('href', prev)}>`;
  if (next !== undefined) html += `<link rel="next"${attribute('href', next)}>`;
  if (json !== undefined) html += `<link rel="alternate" type="application/json"${attribute('href', json)}>`;
  return html;
}

/** The links to the same page in each other language (`alternates`: its path in each). */
export function languageSwitchHtml(language: Language, alternates: Record<Language, string>): string {
  const links = LANGUAGES.filter((other) => other !== language).map(
    (other) =>
      `<a${attribute('href', alternates[other])}${attribute('hreflang', LANGUAGE_TAGS[other])}${attribute('lang', LANGUAGE_TAGS[other])} data-language-link>${escapeHtml(MESSAGES[other].languageName)}</a>`,
  );
  return `<nav class="language-switch"${attribute('aria-label', MESSAGES[language].languageSwitch)}>${links.join('')}</nav>`;
}

/**
 * What `say` says in each of `languages`, as markup: the text alone for one language (the page's
 * own), else each language's in a span that names it, ` · ` between them (the 404 page, one page
 * for every path whatever its language).
 */
export function inLanguages(languages: readonly Language[], say: (says: (typeof MESSAGES)[Language]) => string): string {
  if (languages.length === 1) return escapeHtml(say(MESSAGES[languages[0]!]));
  return languages.map((each) => `<span${attribute('lang', LANGUAGE_TAGS[each])}>${escapeHtml(say(MESSAGES[each]))}</span>`).join(' · ');
}
