/**
 * The Eleventy 3 peer: the same JSON pages (our serialiser) and the simpler HTML page in each
 * language, built the way Eleventy builds a paginated listing (a template paginating the records,
 * ten a page, its permalink the page's address), from the CSV read the plain way.
 *
 *   PEER_CSV=rows.csv node bench/peers/eleventy/build.ts OUTDIR
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Eleventy from '@11ty/eleventy';
import { PAGE_SIZE, pageCount } from '../../../src/listing/pagination.ts';
import { htmlPageFile, pageFile } from '../../../src/listing/routes.ts';
import { LANGUAGES } from '../../../src/listing/languages.ts';
import { serialisePageOf } from '../../../src/listing/serialise.ts';
import type { CarModel } from '../../../src/data/schema.ts';
import { ADDRESSES, peerCsv, plainPageHtml, readRecords } from '../listing.ts';

const [outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: PEER_CSV=rows.csv node bench/peers/eleventy/build.ts OUTDIR');
  process.exit(2);
}

/** What Eleventy gives a paginated template: its page's records (the alias) and the page's index. */
interface PageData {
  models: CarModel[];
  pagination: { pageNumber: number };
}

const records = readRecords(peerCsv());
const count = pageCount(records.length);
/** Eleventy's pagination of the records, PAGE_SIZE a page; the pages stay out of collections, which nothing here lists. */
const paginated = { records, pagination: { data: 'records', size: PAGE_SIZE, alias: 'models' }, eleventyExcludeFromCollections: true };
const pageOf = (data: PageData) => data.pagination.pageNumber + 1;

const eleventy = new Eleventy(dirname(fileURLToPath(import.meta.url)), outDir, {
  quietMode: true,
  config(config) {
    config.addTemplate('api.11ty.js', {
      data: { ...paginated, permalink: (data: PageData) => pageFile(pageOf(data)) },
      render: (data: PageData) => serialisePageOf(data.models, pageOf(data), records.length, ADDRESSES),
    });
    for (const language of LANGUAGES) {
      config.addTemplate(`${language}.11ty.js`, {
        data: { ...paginated, permalink: (data: PageData) => htmlPageFile(pageOf(data), language) },
        render: (data: PageData) => plainPageHtml(data.models, pageOf(data), count, language),
      });
    }
  },
});
await eleventy.write();
console.error(`eleventy: ${records.length} rows, ${count} pages`);
