/**
 * Each page's key: a hash of exactly what the page shows, so that equal keys mean equal bytes and a
 * change anywhere in what it shows changes the key. A build compares them with the published
 * build's record and makes again only the pages whose key changed, or all of them where the code
 * did (src/publish/reuse.ts decides; the build does this itself, not through any cache of Astro's).
 */
import { createHash } from 'node:crypto';
import { pageCount, pageOfPosition } from './pagination.ts';
import type { CarModel } from '../data/schema.ts';
import { serialisePageOf, type Addresses } from './serialise.ts';
import type { ListingPages } from './summary.ts';

const digest = (text: string) => createHash('sha1').update(text).digest('base64url');

/**
 * The HTML page's key: what its JSON page holds (every field of its models and the listing's size:
 * the JSON key covers them) and what the HTML page shows besides: its number, its models' makes,
 * the make filter's makes and counts (`listingDigest`), and the addresses (its canonical link, its
 * logos' base, `pageAssetsUrl` of them, and the search's logo base use them even where no model
 * has a logo or a neighbour).
 */
function htmlPageKey(
  { listing, listingDigest, addresses }: KeysOfListing,
  models: readonly CarModel[],
  page: number,
  jsonKey: string,
): string {
  const makes = models.map((model) => listing.makeTable.makeOf(model).latin);
  return digest(JSON.stringify([jsonKey, page, pageCount(listing.count), addresses, listingDigest, makes]));
}

/** What every page's key covers of the whole listing (its size and make filter) and the addresses. */
type KeysOfListing = ReturnType<typeof keysOfListing>;

export function keysOfListing(listing: Pick<ListingPages, 'count' | 'makeTable'>, addresses: Addresses) {
  return { listing, listingDigest: digest(JSON.stringify(listing.makeTable.makes)), addresses };
}

/**
 * Page `page`'s keys where its JSON page is being written anyway: from its models and its JSON
 * page's text (`serialisePageOf`'s), the same keys `pageKeysOf` gives (see src/outputs/listing-pages.ts).
 */
export function keysOfWrittenPage(
  of: KeysOfListing,
  models: readonly CarModel[],
  page: number,
  jsonText: string,
): { json: string; html: string } {
  const json = digest(jsonText);
  return { json, html: htmlPageKey(of, models, page, json) };
}

/** Every page's key: `json[n - 1]` for page n's JSON, `html[n - 1]` for its HTML page. */
export interface PageKeys {
  json: string[];
  html: string[];
  /** The listing's size and the digest of its make filter, which every page's key covers. */
  count: number;
  listing: string;
}

/**
 * The keys of an earlier build of the same code and addresses, and the positions of the rows that
 * changed from it, where rows changed only in place (none added, removed or moved): then a page
 * none of whose rows changed has the key it had.
 */
export interface EarlierKeys {
  keys: PageKeys;
  changedPositions: Iterable<number>;
}

export function pageKeysOf(listing: ListingPages, addresses: Addresses, earlierKeys?: EarlierKeys): PageKeys {
  const { count } = listing;
  const pages = pageCount(count);
  const of = keysOfListing(listing, addresses);
  const earlier = earlierKeys?.keys.count === count ? earlierKeys.keys : undefined;
  const changedPages = new Set<number>();
  for (const position of earlierKeys?.changedPositions ?? []) changedPages.add(pageOfPosition(position));
  const json: string[] = [];
  const html: string[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const unchanged = earlier !== undefined && !changedPages.has(page);
    if (unchanged && earlier.listing === of.listingDigest) {
      // Nothing to read: neither the page's models nor what it shows of the whole listing changed.
      json.push(earlier.json[page - 1]!);
      html.push(earlier.html[page - 1]!);
      continue;
    }
    const models = listing.pageRecords(page);
    // The JSON page's key is the digest of its bytes, the serialised envelope.
    const jsonKey = unchanged ? earlier.json[page - 1]! : digest(serialisePageOf(models, page, count, addresses));
    json.push(jsonKey);
    html.push(htmlPageKey(of, models, page, jsonKey));
  }
  return { json, html, count, listing: of.listingDigest };
}
