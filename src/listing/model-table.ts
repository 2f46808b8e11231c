/**
 * The models as a table, the markup of the listing's pages and of the search's results alike: the
 * build writes a page's rows with it, the listing page's component renders them with it under
 * `astro dev`, and the search script writes its results with it, so the three cannot differ. Pure
 * text; every value is escaped (html.ts).
 */
import type { CarModel } from '../data/schema.ts';
import {
  formatEngineRange,
  formatPriceRange,
  formatRange,
  formatTransmissions,
  initialOf,
  LATIN_NAME_LANG,
  LOCAL_NAME_LANG,
  splitName,
} from './format.ts';
import { attribute, escapeHtml } from './html.ts';
import { LANGUAGE_TAGS, LANGUAGES, type Language } from './languages.ts';
import { RESULT_MESSAGES } from './result-messages.ts';
import { logoUrl } from './serialise.ts';

/** What a row shows of a model: the listing's pages make it from a record, the search script from an index entry. */
export interface ModelRow {
  name: string;
  seats: readonly [number, number];
  engine: readonly [number, number];
  price: readonly [number, number];
  automatic: boolean;
  manual: boolean;
  /** The logo's URL, or null for a model without one. */
  logo: string | null;
  /** The make in Latin script (`Toyota`), for the logo's text. */
  make: string;
}

/** A record's row: its logo under `assetsUrl` (the pages' assets address, `pageAssetsUrl`), its make `make`. */
export function rowOf(model: CarModel, assetsUrl: string, make: string): ModelRow {
  return {
    name: model.combined_car_model,
    seats: [model.min_seat, model.max_seat],
    engine: [model.min_engine_size, model.max_engine_size],
    price: [model.min_price, model.max_price],
    automatic: model.has_operation_type_auto,
    manual: model.has_operation_type_hand,
    logo: logoUrl(model.logo, assetsUrl),
    make,
  };
}

/** The columns after the name, each sized by its `.col-*` class (global.css); the name takes the rest. */
const SIZED_COLUMNS = ['seats', 'engine', 'price', 'transmission'] as const;

/** What every row of a language repeats, escaped once. */
interface RowWords {
  labels: Record<(typeof SIZED_COLUMNS)[number], string>;
  /** The Latin part's `lang`, where the page is not in that language. */
  latinLang: string;
}

const rowWords = Object.fromEntries(
  LANGUAGES.map((language) => {
    const { columns } = RESULT_MESSAGES[language];
    const labels = Object.fromEntries(SIZED_COLUMNS.map((column) => [column, escapeHtml(columns[column])])) as RowWords['labels'];
    return [language, { labels, latinLang: LANGUAGE_TAGS[language] === LATIN_NAME_LANG ? '' : attribute('lang', LATIN_NAME_LANG) }];
  }),
) as Record<Language, RowWords>;

/** A make's logo, named by its make ("Toyota logo"), or a placeholder that says which make has none. */
function logoHtml({ logo, make, name }: ModelRow, language: Language): string {
  const says = RESULT_MESSAGES[language];
  if (logo !== null)
    return `<img class="logo"${attribute('src', logo)}${attribute('alt', says.logoOf(make))} width="40" height="40" loading="lazy" decoding="async">`;
  const none = escapeHtml(says.noLogoFor(make));
  return `<span class="logo logo-missing" role="img" aria-label="${none}" title="${none}"><span aria-hidden="true">${escapeHtml(initialOf(name))}</span></span>`;
}

/** A model's name with each script tagged with its language, so each gets its own font and reading. */
function nameHtml(name: string, language: Language): string {
  const { local, latin } = splitName(name);
  const localPart = local ? `<span class="name-local" lang="${LOCAL_NAME_LANG}">${escapeHtml(local)}</span> ` : '';
  return `<span class="model-name">${localPart}<span class="name-latin"${rowWords[language].latinLang}>${escapeHtml(latin)}</span></span>`;
}

export function modelRowHtml(row: ModelRow, language: Language): string {
  const says = RESULT_MESSAGES[language];
  const { labels } = rowWords[language];
  return (
    `<tr><td class="cell-logo">${logoHtml(row, language)}</td>` +
    `<th scope="row" class="cell-name">${nameHtml(row.name, language)}</th>` +
    `<td data-label="${labels.seats}" data-column="seats">${escapeHtml(formatRange(row.seats[0], row.seats[1]))}</td>` +
    `<td data-label="${labels.engine}" data-column="engine">${escapeHtml(formatEngineRange(row.engine[0], row.engine[1], says))}</td>` +
    `<td data-label="${labels.price}" data-column="price" class="cell-price">${escapeHtml(formatPriceRange(row.price[0], row.price[1]))}</td>` +
    `<td data-label="${labels.transmission}" data-column="transmission">${escapeHtml(formatTransmissions(row.automatic, row.manual, says))}</td></tr>`
  );
}

const headRows = Object.fromEntries(
  LANGUAGES.map((language) => {
    const { columns } = RESULT_MESSAGES[language];
    const sized = SIZED_COLUMNS.map((column) => `<th scope="col" class="col-${column}">${escapeHtml(columns[column])}</th>`).join('');
    return [
      language,
      `<thead><tr><th scope="col" class="col-logo"><span class="visually-hidden">${escapeHtml(columns.logo)}</span></th><th scope="col">${escapeHtml(columns.model)}</th>${sized}</tr></thead>`,
    ];
  }),
) as Record<Language, string>;

/**
 * A table of models: `rows` is their markup (`modelRowHtml`'s). The header cells' classes size the
 * columns (global.css): a fixed layout, so no column moves as rows arrive.
 */
export function modelTableHtml({
  rows,
  caption,
  id,
  language,
}: {
  rows: string;
  caption: string;
  id?: string;
  language: Language;
}): string {
  return `<table class="models"${attribute('id', id)}><caption>${escapeHtml(caption)}</caption>${headRows[language]}<tbody>${rows}</tbody></table>`;
}
