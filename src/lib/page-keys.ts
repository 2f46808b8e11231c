/**
 * The cache key of each generated page (Astro's incremental build re-renders a page only when its
 * key or its code changed): a hash of exactly what the page shows, so that equal keys mean equal
 * bytes and a change anywhere in what it shows changes the key.
 */
import { createHash } from 'node:crypto';
import { pageCount, pageSlice } from './listing.ts';
import { makeTable } from './makes.ts';
import type { CarModel } from './schema.ts';
import { serialisePage, type Addresses } from './serialise.ts';

const digest = (text: string) => createHash('sha1').update(text).digest('base64url');

/** The JSON page's key: its bytes are the serialised envelope, so they are the key's input. */
function jsonPageKey(records: readonly CarModel[], page: number, addresses: Addresses): string {
  return digest(serialisePage(records, page, addresses));
}

/** What every HTML page shows of the whole listing: the make filter's makes with their counts. */
const listingDigests = new WeakMap<readonly CarModel[], string>();

function listingDigest(records: readonly CarModel[]): string {
  let known = listingDigests.get(records);
  if (known === undefined) {
    known = digest(JSON.stringify(makeTable(records).makes));
    listingDigests.set(records, known);
  }
  return known;
}

/**
 * The HTML page's key: what its JSON page holds (every field of its models and the listing's size:
 * the JSON key covers them) and what the HTML page shows besides: its number, its models' makes,
 * the make filter's counts, and the addresses (its canonical link and the search's sample logo use
 * them even where no model has a logo or a neighbour).
 */
function htmlPageKey(records: readonly CarModel[], page: number, jsonKey: string, addresses: Addresses): string {
  const { makeOf } = makeTable(records);
  const makes = pageSlice(records, page).map((model) => makeOf(model).latin);
  return digest(JSON.stringify([jsonKey, page, pageCount(records.length), addresses, listingDigest(records), makes]));
}

/** Every page's key: `json[n - 1]` for page n's JSON, `html[n - 1]` for its HTML page. */
export interface PageKeys {
  json: string[];
  html: string[];
}

export function pageKeysOf(records: readonly CarModel[], addresses: Addresses): PageKeys {
  const pages = pageCount(records.length);
  const json: string[] = [];
  const html: string[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const jsonKey = jsonPageKey(records, page, addresses);
    json.push(jsonKey);
    html.push(htmlPageKey(records, page, jsonKey, addresses));
  }
  return { json, html };
}
