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

/** The HTML page's key: its page number, the listing's size and makes, its models with their makes. */
function htmlPageKey(records: readonly CarModel[], page: number, addresses: Addresses): string {
  const { makeOf } = makeTable(records);
  const models = pageSlice(records, page).map((model) => [model, makeOf(model).latin]);
  return digest(JSON.stringify([page, records.length, pageCount(records.length), addresses, listingDigest(records), models]));
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
    json.push(jsonPageKey(records, page, addresses));
    html.push(htmlPageKey(records, page, addresses));
  }
  return { json, html };
}
