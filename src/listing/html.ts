/**
 * The one escaping function of the pages for people: every value from the CSV, and every word of
 * the language tables, goes through it on its way into HTML, as text or as an attribute's value.
 * It escapes what Astro's own rendering escapes, as Astro escapes it (`& < > ' "`), so that markup
 * the build writes and markup Astro renders are the same bytes (test/listing/html.test.ts holds
 * the two equal).
 */
const ESCAPED = /[&<>'"]/g;
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };
const entityOf = (character: string): string => ENTITIES[character]!;

/** `value` as HTML text or a quoted attribute's value. */
export function escapeHtml(value: string): string {
  return value.replace(ESCAPED, entityOf);
}

/**
 * An attribute as Astro renders one given a value: ` name="value"` escaped, nothing for null or
 * undefined.
 */
export function attribute(name: string, value: string | number | null | undefined): string {
  return value === null || value === undefined ? '' : ` ${name}="${escapeHtml(String(value))}"`;
}
