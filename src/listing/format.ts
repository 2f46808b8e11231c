/**
 * How a captured car model reads for people: ranges, prices, engine sizes, transmissions and the
 * two scripts of its name. Shared by the HTML pages and the search script so both show the same.
 */
import type { Messages } from './languages.ts';

const integerFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
/**
 * What `count.toLocaleString('en')` formats with, made once rather than at each of the hundreds of
 * calls a page makes. Pure: the search script does not count with it, and its bundler keeps a
 * constructor call it cannot prove harmless.
 */
const countFormat = /* @__PURE__ */ new Intl.NumberFormat('en');

/** A count as the project writes it for people, in pages and in messages: `100,000`. */
export const counted = (count: number): string => countFormat.format(count);
const moneyFormat = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `5–7`, or `5` when both ends are equal. */
export function formatRange(min: number, max: number, format: (value: number) => string = String): string {
  return min === max ? format(min) : `${format(min)}–${format(max)}`;
}

/** A price with thousands separators, with cents only when it has them. No currency: the data gives none. */
export function formatPrice(value: number): string {
  return Number.isInteger(value) ? integerFormat.format(value) : moneyFormat.format(value);
}

export function formatPriceRange(min: number, max: number): string {
  return formatRange(min, max, formatPrice);
}

/** Engine size range; 0 is an electric model (the unit is not given by the data). */
export function formatEngineRange(min: number, max: number, says: Pick<Messages, 'electric' | 'electricOr'>): string {
  if (max === 0) return says.electric;
  const range = formatRange(min, max, (value) => integerFormat.format(value));
  return min === 0 ? says.electricOr(range.replace(/^0–/, '')) : range;
}

export function formatTransmissions(
  auto: boolean,
  manual: boolean,
  says: Pick<Messages, 'automatic' | 'manual' | 'listSeparator'>,
): string {
  return [auto ? says.automatic : undefined, manual ? says.manual : undefined].filter(Boolean).join(says.listSeparator);
}

const LEADING_HAN = /^([\p{Script=Han}\u00B7\u30FB\u3000-\u303F]+)\s*/u;

/**
 * The parts of a display name: `local`, its leading run of Han (CJK) text, the make in a local
 * script (`豐田`; empty when the name does not start with one), and `latin`, everything after it
 * (`Toyota Alphard 2.5 Hybrid`).
 */
export function splitName(name: string): { local: string; latin: string } {
  const match = LEADING_HAN.exec(name);
  return match ? { local: match[1]!, latin: name.slice(match[0].length) } : { local: '', latin: name };
}

/** The letter a logo placeholder shows: the first of the Latin part of the name. */
export function initialOf(name: string): string {
  const { latin } = splitName(name);
  return [...(latin || name)][0] ?? '';
}

/** The language tag of the local-script make names (Traditional Chinese as written in Hong Kong). */
export const LOCAL_NAME_LANG = 'zh-Hant-HK';
/** The language of a name's Latin part (make and model as sold: `Toyota Alphard 2.5 Hybrid`). */
export const LATIN_NAME_LANG = 'en';
