/**
 * A second shape of synthetic data (`npm run generate -- ROWS FILE --shape=wide`), unlike the
 * shipped file's on every axis the search's index is cut along, so that a search's cost is measured
 * on data the index was not tuned to: 600 makes, one of them holding 30 % of the rows and the rest
 * falling off steeply; makes with up to 300 models; long names, Latin and Chinese words mixed
 * (`安德方青 Emamar Motors Taklo X55 誠山 S-Line e:Power 運動版 Turbo`); prices from 80,000 to 20
 * million, almost all distinct; seats from 1 to 12 with wide ranges.
 */
import type { CarModel } from '../../src/data/schema.ts';
import { random } from './random.ts';

const HAN = [
  ...'雷鋒豐凱途星輝騰龍華安瑞祥晨曦遠航宏達盛世天嘉悅銳捷翔雲麒麟鳳凰吉利長城海洋藍鯨金鷹銀河紫光青山綠水東風南方北辰西嶺明遠志誠恒信泰和康寧永順福興隆昌德勝威振飛揚奔馳寶駿啟源',
];
const SYLLABLES = ['ra', 'vo', 'na', 'kel', 'to', 'zen', 'mar', 'lo', 'qui', 'der', 'sa', 'bri', 'on', 'tak', 'ema', 'fu', 'xi', 'yor'];
const LATIN_VARIANTS = ['Sport', 'Touring', '4WD', 'AWD', 'Hybrid', 'Plug-in', 'Long Range', 'GT', 'S-Line', 'e:Power', 'Turbo', 'Premium'];
const HAN_VARIANTS = ['豪華版', '運動版', '油電混合', '七座', '長軸距', '旗艦型', '尊貴版', '四驅', '舒適型', '智享版'];
const MAKES = 600;
/** The share of the rows of the first make. */
const LARGEST_MAKE = 0.3;

const capitalised = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;

interface WideMake {
  local: string;
  latin: string;
  logo: string | null;
  /** Each model's Latin and Chinese name. */
  models: string[];
}

/** The makes, each with a local name of 2–4 Han characters, a Latin one of one or two words, and 5–300 models. */
function makesOf(next: () => number): WideMake[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const word = (syllables: number) => capitalised(Array.from({ length: syllables }, () => pick(SYLLABLES)).join(''));
  const han = (characters: number) => Array.from({ length: characters }, () => pick(HAN)).join('');
  const [locals, latins] = [new Set<string>(), new Set<string>()];
  return Array.from({ length: MAKES }, (_, index) => {
    let local: string;
    do local = han(2 + Math.floor(next() * 3));
    while (locals.has(local));
    locals.add(local);
    let latin: string;
    do latin = next() < 0.3 ? `${word(2)} ${pick(['Motors', 'Auto', 'Cars'])}` : word(2 + Math.floor(next() * 2));
    while (latins.has(latin));
    latins.add(latin);
    const modelCount = index === 0 ? 300 : 5 + Math.floor(next() * 60);
    const models = Array.from(
      { length: modelCount },
      () => `${word(2)} ${pick(['X', 'S', 'GT', 'Q', ''])}${Math.floor(next() * 99)} ${han(2)}`,
    );
    const logo = next() < 0.8 ? `media/brand/logo/${latin.toLowerCase().replace(/\s+/g, '-')}.svg` : null;
    return { local, latin, logo, models };
  });
}

/** `rows` records of the wide shape, in listing order. */
export function* wideRecords(rows: number, seed: number): Generator<CarModel> {
  const next = random(seed);
  const makes = makesOf(next);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  for (let index = 0; index < rows; index += 1) {
    // The first make 30 %; the others falling off as 1 / rank (log-uniform over the ranks).
    const make = next() < LARGEST_MAKE ? makes[0]! : makes[Math.min(MAKES - 1, Math.floor(MAKES ** next()))]!;
    const variants = Array.from({ length: 1 + Math.floor(next() * 4) }, () => (next() < 0.5 ? pick(LATIN_VARIANTS) : pick(HAN_VARIANTS)));
    const electric = next() < 0.25;
    const minSeat = 1 + Math.floor(next() ** 1.5 * 9);
    const minEngine = electric ? 0 : 600 + Math.floor(next() * 5900);
    const minPrice = Math.round(80_000 * 250 ** next() * 100) / 100;
    const auto = next() < 0.9;
    const id = index + 1;
    yield {
      id,
      combined_car_model: `${make.local} ${make.latin} ${pick(make.models)} ${[...new Set(variants)].join(' ')}`,
      combined_car_model_unique_id: 500_000 + id,
      min_seat: minSeat,
      max_seat: minSeat + (next() < 0.3 ? Math.floor(next() * 4) : 0),
      min_engine_size: minEngine,
      max_engine_size: electric ? 0 : minEngine + (next() < 0.4 ? Math.floor(next() * 2000) : 0),
      min_price: minPrice,
      max_price: next() < 0.5 ? minPrice : Math.round(minPrice * (1 + next()) * 100) / 100,
      has_operation_type_auto: auto,
      has_operation_type_hand: !auto || next() < 0.15,
      capture_combined_car_model_yearly_unique_id: 500_000 + id,
      logo: make.logo,
    };
  }
}
