/**
 * The floor a build is compared with: a plain Node script, no framework, that parses the same CSV
 * (csv-parse, no validation) and writes the same JSON pages (same serialiser, same bytes) and the
 * simpler HTML page of each listing page in each language: `node bench/floor.ts CSV OUTDIR`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pageCount, pageNumbers, pageSlice } from '../src/listing/pagination.ts';
import { htmlPageFile, pageFile } from '../src/listing/routes.ts';
import { LANGUAGES } from '../src/listing/languages.ts';
import { serialisePage } from '../src/listing/serialise.ts';
import { ADDRESSES, plainPageHtml, readRecords } from './peers/listing.ts';

const [csv, outDir] = process.argv.slice(2);
if (!csv || !outDir) {
  console.error('usage: node bench/floor.ts CSV OUTDIR');
  process.exit(2);
}

const records = readRecords(csv);
// The caller gives a fresh folder: removing an old one is not the floor's work.
const pages = pageNumbers(records.length);
const count = pageCount(records.length);
mkdirSync(dirname(join(outDir, pageFile(1))), { recursive: true });
for (const page of pages) {
  writeFileSync(join(outDir, pageFile(page)), serialisePage(records, page, ADDRESSES));
  const pageRecords = pageSlice(records, page);
  for (const language of LANGUAGES) {
    const file = join(outDir, htmlPageFile(page, language));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, plainPageHtml(pageRecords, page, count, language));
  }
}
console.error(`floor: ${records.length} rows, ${pages.length} pages`);
