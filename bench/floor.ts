/**
 * The floor a build is compared with: a plain Node script, no framework, that parses the same CSV
 * (csv-parse, no validation) and writes the same JSON pages (same serialiser, same bytes) and one
 * HTML page per listing page of about the same size: `node bench/floor.ts CSV OUTDIR`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { pageNumbers, pageSlice } from '../src/listing/pagination.ts';
import { htmlPagePath, pageFile } from '../src/listing/routes.ts';
import type { CarModel } from '../src/data/schema.ts';
import { serialisePage } from '../src/listing/serialise.ts';

const [csv, outDir] = process.argv.slice(2);
if (!csv || !outDir) {
  console.error('usage: node bench/floor.ts CSV OUTDIR');
  process.exit(2);
}
const addresses = { baseUrl: 'http://localhost:4321', assetsUrl: 'http://localhost:4321/assets' };
const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const rows = parse(readFileSync(csv), { columns: true, bom: true, skip_empty_lines: true }) as Record<string, string>[];
const records: CarModel[] = rows.map((row) => ({
  id: Number(row['id']),
  combined_car_model: row['combined_car_model'] ?? '',
  combined_car_model_unique_id: Number(row['combined_car_model_unique_id']),
  min_seat: Number(row['min_seat']),
  max_seat: Number(row['max_seat']),
  min_engine_size: Number(row['min_engine_size']),
  max_engine_size: Number(row['max_engine_size']),
  min_price: Number(row['min_price']),
  max_price: Number(row['max_price']),
  has_operation_type_auto: row['has_operation_type_auto'] === 'true',
  has_operation_type_hand: row['has_operation_type_hand'] === 'true',
  capture_combined_car_model_yearly_unique_id: Number(row['capture_combined_car_model_yearly_unique_id']),
  logo: row['logo'] ? row['logo'] : null,
}));

// The caller gives a fresh folder: removing an old one is not the floor's work.
const pages = pageNumbers(records.length);
mkdirSync(dirname(join(outDir, pageFile(1))), { recursive: true });
for (const page of pages) {
  writeFileSync(join(outDir, pageFile(page)), serialisePage(records, page, addresses));
  const rowsHtml = pageSlice(records, page)
    .map(
      (model) =>
        `<tr><td><img src="${addresses.assetsUrl}/${model.logo ?? ''}" alt="" width="40" height="40"></td>` +
        `<th scope="row">${escapeHtml(model.combined_car_model)}</th><td>${model.min_seat}–${model.max_seat}</td>` +
        `<td>${model.min_engine_size}–${model.max_engine_size}</td><td>${model.min_price}–${model.max_price}</td>` +
        `<td>${model.has_operation_type_auto ? 'Automatic' : ''} ${model.has_operation_type_hand ? 'Manual' : ''}</td></tr>`,
    )
    .join('');
  const dir = join(outDir, htmlPagePath(page));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${page}</title></head>` +
      `<body><main><table><tbody>${rowsHtml}</tbody></table><nav><a href="${htmlPagePath(page + 1)}">Next</a></nav></main></body></html>`,
  );
}
console.error(`floor: ${records.length} rows, ${pages.length} pages`);
