/**
 * A listing page's frame: the page Astro renders once per language per build with a marker where
 * each part that differs from page to page goes (listing-page.ts), cut at the markers. Every page
 * of that language is the frame with its own parts put in (`pageInPieces`), byte for byte the page
 * Astro renders with those parts (src/integration/page-check.ts compares them in every build).
 */
import { LISTING_PAGE_PARTS, type ListingPageParts } from './listing-page.ts';

/** What the frame holds where a part goes: a comment no part or escaped value can contain. */
const markerOf = (part: keyof ListingPageParts) => `<!--listing-page:${part}-->`;

/** The parts the frame is rendered with. */
export const FRAME_MARKERS = Object.fromEntries(LISTING_PAGE_PARTS.map((part) => [part, markerOf(part)])) as ListingPageParts;

/** A frame cut at its markers: `text[i]` comes before part `parts[i]`, and the last text after every part (as strings, or encoded once). */
export interface PageFrame<Text = string> {
  parts: (keyof ListingPageParts)[];
  text: Text[];
}

/** The frame Astro rendered (`html`), cut at its markers; an error where a marker is missing or repeated. */
export function frameOf(html: string): PageFrame {
  const found = LISTING_PAGE_PARTS.map((part) => {
    const marker = markerOf(part);
    const at = html.indexOf(marker);
    if (at === -1 || html.indexOf(marker, at + marker.length) !== -1)
      throw new Error(
        `the listing page's frame has ${at === -1 ? 'no' : 'more than one'} ${marker}: every part goes in once (src/components/ListingPage.astro)`,
      );
    return { part, at, end: at + marker.length };
  }).sort((a, b) => a.at - b.at);
  const text: string[] = [];
  let from = 0;
  for (const { at, end } of found) {
    text.push(html.slice(from, at));
    from = end;
  }
  text.push(html.slice(from));
  return { parts: found.map(({ part }) => part), text };
}

/** The page in pieces, in order: the frame's text with `parts` between, each part as `encode` gives it (the build writes bytes). */
export function pageInPieces<Text>(
  { parts: order, text }: PageFrame<Text>,
  parts: ListingPageParts,
  encode: (part: string) => Text,
): Text[] {
  const pieces: Text[] = [text[0]!];
  for (let index = 0; index < order.length; index += 1) pieces.push(encode(parts[order[index]!]), text[index + 1]!);
  return pieces;
}
