/**
 * Each model's make, derived at build time from the display names (the spec: the make in a local
 * script, then the make in Latin script, then the model). The data has no make column, so the
 * Latin make is read from what the models of one local make share; see `latinMakeOf`.
 */
import { splitName } from './format.ts';
import { countIn, type Language } from './languages.ts';
import type { CarModel } from '../data/schema.ts';

export interface Make {
  /** The make in the local script, e.g. `豐田`: the first word of the name, and the URL's `make=` value. */
  key: string;
  /** The make in Latin script, e.g. `Toyota`, `Land Rover`, `Mercedes-Benz`. */
  latin: string;
  /** How many models of the listing are of this make. */
  count: number;
}

export interface MakeTable {
  /** Every make once, in Latin alphabetical order. */
  makes: readonly Make[];
  /** The make of a record of the listing the table was made from. */
  makeOf: (record: CarModel) => Make;
}

/** The fields a make table is made of (the names and the logos): an edit of no other changes no make. */
const MAKE_FIELDS: ReadonlySet<string> = new Set<keyof CarModel>(['combined_car_model', 'logo']);

/**
 * Whether an edit in place that changed `changedFields` (every row in its place) keeps the make
 * table, and the search index's tables made of the same fields: it changed no name and no logo.
 */
export function keepsMakes(changedFields: Iterable<string>): boolean {
  for (const field of changedFields) if (MAKE_FIELDS.has(field)) return false;
  return true;
}

/** The first word of a display name: the make in a local script (Latin only where the name has none). */
export function makeKeyOf(name: string): string {
  const { local, latin } = splitName(name.trim());
  return local || (latin.split(/\s+/)[0] ?? '');
}

/** Latin words after the local make: `豐田 Toyota Alphard 2.5` → Toyota, Alphard, 2.5. */
function latinWords(name: string): string[] {
  const { local, latin } = splitName(name.trim());
  const words = latin.split(/\s+/).filter(Boolean);
  return local ? words : words.slice(1);
}

/** `Land Rover`, `land-rover.svg` and `Citroën`/`citroen` all reduce to the same slug. */
function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{Mark}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The logo's file name without folder or extension, as a slug: `media/brand/logo/land-rover.svg` → land-rover. */
function logoSlug(logo: string): string {
  return slug(logo.slice(logo.lastIndexOf('/') + 1).replace(/\.[^.]*$/, ''));
}

/** What the table keeps of one local make's models as it reads them: enough to name the make. */
interface MakeModels {
  count: number;
  /** The first model's Latin words after the local make. */
  first: string[];
  logo: string | undefined;
  /** How many leading words every model so far shares with the first. */
  common: number;
}

/**
 * The Latin make of one local make's models, in order of precedence:
 * 1. where the make's logo file is named after the first words of a model (`land-rover.svg`,
 *    `Land Rover Defender`), those words: this also stops `Tesla Model 3`/`Tesla Model Y` from
 *    giving `Tesla Model`;
 * 2. the words every model of the make has in common after the local make (`Alfa Romeo`);
 * 3. with one model, or nothing in common, the first Latin word of the first model (a documented
 *    limit: a one-model make of two words without a logo reads as its first word);
 * 4. with no Latin words at all, the local make itself.
 */
function latinMakeOf(key: string, { count, first, logo, common }: MakeModels): string {
  if (logo) {
    const wanted = logoSlug(logo);
    for (let length = 1; length <= first.length; length += 1) {
      if (slug(first.slice(0, length).join(' ')) === wanted) return first.slice(0, length).join(' ');
    }
  }
  if (count > 1 && common > 0) return first.slice(0, common).join(' ');
  return first[0] ?? key;
}

// Pure: the search script imports makeKeyOf alone from here, and its bundler keeps a constructor call it cannot prove harmless.
const latinOrder = /* @__PURE__ */ new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Tables already made, so that every page of one build shares one (it costs a pass over the listing). */
const tables = new WeakMap<readonly CarModel[], MakeTable>();

/** The makes of a listing: each make once with its model count, and each record's make (a few words kept per make, not its models). */
export function makeTable(records: readonly CarModel[]): MakeTable {
  const cached = tables.get(records);
  if (cached) return cached;
  const modelsByKey = new Map<string, MakeModels>();
  for (const record of records) {
    const key = makeKeyOf(record.combined_car_model);
    const words = latinWords(record.combined_car_model);
    const models = modelsByKey.get(key);
    if (!models) {
      modelsByKey.set(key, { count: 1, first: words, logo: record.logo ?? undefined, common: words.length });
      continue;
    }
    models.count += 1;
    models.logo ??= record.logo ?? undefined;
    let shared = 0;
    while (shared < models.common && shared < words.length && words[shared] === models.first[shared]) shared += 1;
    models.common = shared;
  }
  const makes = [...modelsByKey].map(([key, models]) => ({ key, latin: latinMakeOf(key, models), count: models.count }));
  const table = makeTableFrom(makes.sort((a, b) => latinOrder.compare(a.latin, b.latin) || latinOrder.compare(a.key, b.key)));
  tables.set(records, table);
  return table;
}

/** The make table whose makes (in order) are `makes`: a table made from a whole listing, made again from what was kept of it. */
export function makeTableFrom(makes: readonly Make[]): MakeTable {
  const byKey = new Map(makes.map((make) => [make.key, make]));
  return { makes, makeOf: (record) => byKey.get(makeKeyOf(record.combined_car_model))! };
}

/** One make in the search form's make filter: its key, its Latin name, and `Toyota 豐田 (1,234)` shown for it. */
export interface MakeFilterOption {
  value: string;
  latin: string;
  label: string;
}

/** Options already made: every page of a build shows the same filter, so it is made once a language, not once a page (a million rows: 100,000 pages). */
const filterOptions = new WeakMap<readonly Make[], Map<Language, readonly MakeFilterOption[]>>();

/** The make filter's options for `makes`, in their order, counts written for `language`. */
export function makeFilterOptions(makes: readonly Make[], language: Language): readonly MakeFilterOption[] {
  const byLanguage = filterOptions.get(makes) ?? filterOptions.set(makes, new Map()).get(makes)!;
  const cached = byLanguage.get(language);
  if (cached) return cached;
  const options = makes.map((make) => ({
    value: make.key,
    latin: make.latin,
    label: `${make.latin} ${make.key} (${countIn(language, make.count)})`,
  }));
  byLanguage.set(language, options);
  return options;
}
