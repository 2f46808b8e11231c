import { describe, expect, it } from 'vitest';
import { readDataFile } from '../../src/data/read.ts';
import { makeFilterOptions, makeKeyOf, makeTable, makeTableFrom } from '../../src/listing/makes.ts';
import type { CarModel } from '../../src/data/schema.ts';
import { carModel } from '../support/models.ts';
import { projectRoot } from '../support/site.ts';

const model = (id: number, name: string, logo: string | null = null): CarModel => carModel(id, name, { logo });
const latinMakes = (records: CarModel[]) => records.map((record) => makeTable(records).makeOf(record).latin);

describe('makeKeyOf', () => {
  it('is the first word: the make in the local script, or the first Latin word where there is none', () => {
    expect(makeKeyOf('豐田 Toyota Alphard 2.5 Hybrid')).toBe('豐田');
    expect(makeKeyOf('阿爾法·羅密歐 Alfa Romeo Giulia')).toBe('阿爾法·羅密歐');
    expect(makeKeyOf('  Tesla Model 3')).toBe('Tesla');
  });
});

describe('makeTable', () => {
  it('takes what every model of a local make has in common after it', () => {
    const records = [
      model(1, '平治 Mercedes-Benz A 200'),
      model(2, '平治 Mercedes-Benz C 300'),
      model(3, '越野路華 Land Rover Defender 110'),
      model(4, '越野路華 Land Rover Range Rover'),
      model(5, '愛快羅密歐 Alfa Romeo Giulia'),
      model(6, '愛快羅密歐 Alfa Romeo Stelvio'),
    ];
    expect(latinMakes(records)).toEqual(['Mercedes-Benz', 'Mercedes-Benz', 'Land Rover', 'Land Rover', 'Alfa Romeo', 'Alfa Romeo']);
  });

  it('lets a logo named after the first words decide, so Tesla Model 3 and Model Y give Tesla', () => {
    expect(latinMakes([model(1, '特斯拉 Tesla Model 3', 'logo/tesla.svg'), model(2, '特斯拉 Tesla Model Y', 'logo/tesla.svg')])).toEqual([
      'Tesla',
      'Tesla',
    ]);
    expect(latinMakes([model(1, '越野路華 Land Rover Defender', 'media/land-rover.png')])).toEqual(['Land Rover']);
    expect(latinMakes([model(1, '雪鐵龍 Citroën C3', 'citroen.svg'), model(2, '雪鐵龍 Citroën C3 Aircross', 'citroen.svg')])).toEqual([
      'Citroën',
      'Citroën',
    ]);
  });

  it('falls back to the first Latin word for a make with one model (and no logo naming it), or nothing in common', () => {
    expect(latinMakes([model(1, '騰勢 Denza Z9 GT')])).toEqual(['Denza']);
    expect(latinMakes([model(1, '凌志 Lexus LM 350h', 'media/brand/logo/toyota.svg')])).toEqual(['Lexus']);
    expect(latinMakes([model(1, '寶馬 BMW 118i'), model(2, '寶馬 Mini Cooper')])).toEqual(['BMW', 'BMW']);
    expect(latinMakes([model(1, '豐田')])).toEqual(['豐田']);
  });

  it('lists each make once with its model count, in Latin alphabetical order', () => {
    const records = [model(1, '豐田 Toyota Yaris'), model(2, '本田 Honda Jazz'), model(3, '豐田 Toyota GR86'), model(4, '寶馬 BMW 118i')];
    expect(makeTable(records).makes).toEqual([
      { key: '寶馬', latin: 'BMW', count: 1 },
      { key: '本田', latin: 'Honda', count: 1 },
      { key: '豐田', latin: 'Toyota', count: 2 },
    ]);
  });

  it('reads every make of the default dataset as its Latin name', async () => {
    const { records } = await readDataFile(`${projectRoot}/data/captured-car-models.csv`);
    const { makes } = makeTable(records);
    expect(makes.reduce((sum, make) => sum + make.count, 0)).toBe(records.length);
    expect(Object.fromEntries(makes.map((make) => [make.key, make.latin]))).toMatchObject({
      豐田: 'Toyota',
      平治: 'Mercedes-Benz',
      越野路華: 'Land Rover',
      '阿爾法·羅密歐': 'Alfa Romeo',
      特斯拉: 'Tesla',
      勞斯萊斯: 'Rolls-Royce',
      迷你: 'MINI',
      騰勢: 'Denza',
      奇瑞: 'Chery',
    });
    // Every Latin make is where the names say it is: right after the local make.
    for (const record of records) {
      const make = makeTable(records).makeOf(record);
      expect(record.combined_car_model.startsWith(`${make.key} ${make.latin}`), record.combined_car_model).toBe(true);
    }
  });
});

describe('makeFilterOptions', () => {
  it('offers each make by its key, labelled with both scripts and its model count, in the order of the table', () => {
    const { makes } = makeTableFrom([
      { key: '寶馬', latin: 'BMW', count: 1 },
      { key: '豐田', latin: 'Toyota', count: 12_345 },
    ]);
    expect(makeFilterOptions(makes, 'en')).toEqual([
      { value: '寶馬', latin: 'BMW', label: 'BMW 寶馬 (1)' },
      { value: '豐田', latin: 'Toyota', label: 'Toyota 豐田 (12,345)' },
    ]);
    expect(makeFilterOptions(makes, 'zh-hk')[1]).toEqual({ value: '豐田', latin: 'Toyota', label: 'Toyota 豐田 (12,345)' });
  });

  it('makes the options once per table, not once per page that shows them', () => {
    const records = [model(1, '豐田 Toyota Yaris'), model(2, '本田 Honda Jazz')];
    const { makes } = makeTable(records);
    expect(makeFilterOptions(makes, 'en')).toBe(makeFilterOptions(makeTable(records).makes, 'en'));
    expect(makeFilterOptions([...makes], 'en')).not.toBe(makeFilterOptions(makes, 'en'));
    expect(makeFilterOptions([...makes], 'en')).toEqual(makeFilterOptions(makes, 'en'));
  });
});
