/**
 * What the floor and the peers share: the CSV read the plain way (csv-parse, no validation) into
 * records, where the data file is (`PEER_CSV`), the addresses the JSON pages point to, and the
 * simpler HTML page (a table of the page's ten models and its links) in each of our two languages.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { CarModel } from '../../src/data/schema.ts';
import type { Addresses } from '../../src/listing/serialise.ts';
import type { Language } from '../../src/listing/languages.ts';
import { htmlPagePath } from '../../src/listing/routes.ts';

export const ADDRESSES: Addresses = { baseUrl: 'http://localhost:4321', assetsUrl: 'http://localhost:4321/assets' };

export function readRecords(csv: string): CarModel[] {
  const rows = parse(readFileSync(csv), { columns: true, bom: true, skip_empty_lines: true }) as Record<string, string>[];
  return rows.map((row) => ({
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
}

/** The CSV a peer builds from: `PEER_CSV` in its environment (bench/peers.ts sets it). */
export function peerCsv(): string {
  const csv = process.env['PEER_CSV'];
  if (!csv) throw new Error('PEER_CSV is not set: bench/peers.ts names the CSV a peer builds');
  return csv;
}

/** The labels of the simpler HTML page, one set a language, as ours has. */
export const PEER_LABELS: Record<
  Language,
  { tag: string; title: string; automatic: string; manual: string; next: string; previous: string }
> = {
  en: { tag: 'en', title: 'Car models, page', automatic: 'Automatic', manual: 'Manual', next: 'Next', previous: 'Previous' },
  'zh-hk': { tag: 'zh-Hant-HK', title: '車款，頁', automatic: '自動', manual: '手動', next: '下一頁', previous: '上一頁' },
};

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The simpler HTML page `page` of `pageCount` in `language`, written by string (the floor and Eleventy). */
export function plainPageHtml(pageRecords: readonly CarModel[], page: number, pageCount: number, language: Language): string {
  const labels = PEER_LABELS[language];
  const rows = pageRecords
    .map(
      (model) =>
        `<tr><td><img src="${ADDRESSES.assetsUrl}/${escapeHtml(model.logo ?? '')}" alt="" width="40" height="40"></td>` +
        `<th scope="row">${escapeHtml(model.combined_car_model)}</th><td>${model.min_seat}–${model.max_seat}</td>` +
        `<td>${model.min_engine_size}–${model.max_engine_size}</td><td>${model.min_price}–${model.max_price}</td>` +
        `<td>${model.has_operation_type_auto ? labels.automatic : ''} ${model.has_operation_type_hand ? labels.manual : ''}</td></tr>`,
    )
    .join('');
  const previous = page > 1 ? `<a href="${htmlPagePath(page - 1, language)}">${labels.previous}</a>` : '';
  const next = page < pageCount ? `<a href="${htmlPagePath(page + 1, language)}">${labels.next}</a>` : '';
  return (
    `<!doctype html><html lang="${labels.tag}"><head><meta charset="utf-8"><title>${labels.title} ${page}</title></head>` +
    `<body><main><table><tbody>${rows}</tbody></table><nav>${previous} ${next}</nav></main></body></html>`
  );
}
