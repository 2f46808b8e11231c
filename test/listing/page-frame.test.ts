/**
 * A listing page's frame (src/listing/page-frame.ts): cut at its markers, whatever their order, and
 * each page the frame with its own parts in it; a frame that lacks a marker, or has one twice, is
 * refused with a message naming it rather than making pages with a part missing or repeated.
 */
import { describe, expect, it } from 'vitest';
import { LISTING_PAGE_PARTS, type ListingPageParts } from '../../src/listing/listing-page.ts';
import { FRAME_MARKERS, frameOf, pageInPieces, type PageFrame } from '../../src/listing/page-frame.ts';

const parts: ListingPageParts = { head: '<title>T</title>', languageSwitch: '<nav>N</nav>', pageOf: 'Page 2', listing: '<table></table>' };
const frame = `<!DOCTYPE html><html><head>${FRAME_MARKERS.head}<link></head><body><header>${FRAME_MARKERS.languageSwitch}</header><h1>${FRAME_MARKERS.pageOf}</h1><form>same on every page</form><section>${FRAME_MARKERS.listing}</section></body></html>`;
/** The page as text: the frame's pieces with the parts between, joined. */
const pageInFrame = (cut: PageFrame, values: ListingPageParts) => pageInPieces(cut, values, (part) => part).join('');
const filled = (text: string, values: ListingPageParts) =>
  LISTING_PAGE_PARTS.reduce((html, part) => html.replace(FRAME_MARKERS[part], values[part]), text);

describe('a listing page in its frame', () => {
  it('is the frame with each marker replaced by its part', () => {
    expect(pageInFrame(frameOf(frame), parts)).toBe(filled(frame, parts));
  });

  it('takes parts whatever their order in the frame, and text that looks like a marker in a part as text', () => {
    const reordered = `${FRAME_MARKERS.listing}|${FRAME_MARKERS.head}|${FRAME_MARKERS.pageOf}|${FRAME_MARKERS.languageSwitch}`;
    const tricky = { ...parts, head: FRAME_MARKERS.listing };
    expect(pageInFrame(frameOf(reordered), tricky)).toBe(
      `${parts.listing}|${FRAME_MARKERS.listing}|${parts.pageOf}|${parts.languageSwitch}`,
    );
  });

  it('refuses a frame with a marker missing or twice, naming it', () => {
    expect(() => frameOf(frame.replace(FRAME_MARKERS.pageOf, ''))).toThrow(/has no <!--listing-page:pageOf-->/);
    expect(() => frameOf(`${frame}${FRAME_MARKERS.head}`)).toThrow(/more than one <!--listing-page:head-->/);
  });
});
