/**
 * JSON bytes as the origin writes them: DRF's JSONRenderer output, compact, fields in the spec's
 * order, UTF-8 text as is (only U+2028 and U+2029 escaped) and decimals rendered like Python's
 * float repr (`549000.0`, `1234567.5`).
 */
import type { CarModel } from '../data/schema.ts';
import { neighbours, pageSlice } from './pagination.ts';
import { pageLink, SHIPPED_ASSETS_PATH } from './routes.ts';

/** Where the page's links and logos point. */
export interface Addresses {
  baseUrl: string;
  assetsUrl: string;
}

/**
 * Python's repr() of a float: the shortest digits that round-trip, always with a `.0` when
 * integral, and exponent notation below 1e-4 and from 1e16 up (`1e+16`, `1.5e-05`).
 */
export function pythonFloat(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  // Between 1e-4 and 1e16 both languages write the same shortest digits without an exponent, and
  // JavaScript only drops the `.0`: this range holds every price, and it is on the hot path of
  // every page and download.
  const absolute = Math.abs(value);
  if (absolute >= 1e-4 && absolute < 1e16) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
}

/** A JSON string as Python's json.dumps(ensure_ascii=False) writes it. */
export function jsonString(text: string): string {
  return JSON.stringify(text).replace(/[\u2028\u2029]/g, (char) => (char === '\u2028' ? '\\u2028' : '\\u2029'));
}

/** The absolute logo URL of a logo path under the assets address, or null. */
export function logoUrl(logo: string | null, assetsUrl: string): string | null {
  return logo === null ? null : `${assetsUrl}/${logo}`;
}

/**
 * The assets address of the HTML pages. The default one (`{base_url}/assets`, the shipped logos in
 * the site itself) becomes a path, so the pages show their logos on whatever host and port serves
 * the site (a preview on another port than the build's, a staging host); any other address is
 * kept. The API and the downloads keep the spec's absolute URLs (`logoUrl` with `assetsUrl`).
 */
export function pageAssetsUrl({ baseUrl, assetsUrl }: Addresses): string {
  return assetsUrl === `${baseUrl}${SHIPPED_ASSETS_PATH}` ? SHIPPED_ASSETS_PATH : assetsUrl;
}

/** One record, its fields in the spec's order. */
export function serialiseRecord(record: CarModel, assetsUrl: string): string {
  const logo = logoUrl(record.logo, assetsUrl);
  return (
    `{"id":${record.id}` +
    `,"combined_car_model":${jsonString(record.combined_car_model)}` +
    `,"combined_car_model_unique_id":${record.combined_car_model_unique_id}` +
    `,"min_seat":${record.min_seat}` +
    `,"max_seat":${record.max_seat}` +
    `,"min_engine_size":${record.min_engine_size}` +
    `,"max_engine_size":${record.max_engine_size}` +
    `,"min_price":${pythonFloat(record.min_price)}` +
    `,"max_price":${pythonFloat(record.max_price)}` +
    `,"has_operation_type_auto":${record.has_operation_type_auto}` +
    `,"has_operation_type_hand":${record.has_operation_type_hand}` +
    `,"capture_combined_car_model_yearly_unique_id":${record.capture_combined_car_model_yearly_unique_id}` +
    `,"logo":${logo === null ? 'null' : jsonString(logo)}}`
  );
}

/** The page envelope of page `page` of the listing: count, next, previous, results. */
export function serialisePage(records: readonly CarModel[], page: number, addresses: Addresses): string {
  return serialisePageOf(pageSlice(records, page), page, records.length, addresses);
}

/** The same envelope from the page's own records and the listing's size (for a listing read a chunk at a time). */
export function serialisePageOf(pageRecords: readonly CarModel[], page: number, count: number, addresses: Addresses): string {
  const { next, previous } = neighbours(page, count);
  const link = (target: number | null) => (target === null ? 'null' : jsonString(pageLink(addresses.baseUrl, target)));
  const results = pageRecords.map((record) => serialiseRecord(record, addresses.assetsUrl)).join(',');
  return `{"count":${count},"next":${link(next)},"previous":${link(previous)},"results":[${results}]}`;
}
