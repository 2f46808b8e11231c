import { describe, expect, it } from 'vitest';
import type { CarModel } from '../../src/data/schema.ts';
import { jsonString, pythonFloat, serialisePage, serialiseRecord } from '../../src/listing/serialise.ts';

const record = (id: number, overrides: Partial<CarModel> = {}): CarModel => ({
  id,
  combined_car_model: `豐田 Toyota Model ${id}`,
  combined_car_model_unique_id: 100 + id,
  min_seat: 5,
  max_seat: 7,
  min_engine_size: 1496,
  max_engine_size: 1998,
  min_price: 549000,
  max_price: 1234567.5,
  has_operation_type_auto: true,
  has_operation_type_hand: false,
  capture_combined_car_model_yearly_unique_id: 100 + id,
  logo: 'media/brand/logo/toyota.svg',
  ...overrides,
});
const addresses = { baseUrl: 'https://cars.example.com', assetsUrl: 'https://assets.example.com' };

describe('pythonFloat renders decimals as Python float repr does', () => {
  it.each([
    [549000, '549000.0'],
    [1234567.5, '1234567.5'],
    [1791700.99, '1791700.99'],
    [0.1 + 0.2, '0.30000000000000004'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [0.000015, '1.5e-05'],
    [1234567890123456, '1234567890123456.0'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [999999999999.99, '999999999999.99'],
    [0, '0.0'],
    [-2.5, '-2.5'],
  ])('%d → %s', (value, text) => {
    expect(pythonFloat(value)).toBe(text);
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => pythonFloat(Number.NaN)).toThrow(RangeError);
  });
});

describe('jsonString', () => {
  it('writes UTF-8 text as is and escapes only what json.dumps(ensure_ascii=False) escapes', () => {
    expect(jsonString('豐田 "A" \\ <b>&')).toBe('"豐田 \\"A\\" \\\\ <b>&"');
    expect(jsonString('a\nb\u0007')).toBe('"a\\nb\\u0007"');
    expect(jsonString('x\u2028y\u2029z')).toBe('"x\\u2028y\\u2029z"');
  });
});

describe('serialiseRecord', () => {
  it('writes the fields in the order of the spec, compact, with absolute logo URLs', () => {
    expect(serialiseRecord(record(1), addresses.assetsUrl)).toBe(
      '{"id":1,"combined_car_model":"豐田 Toyota Model 1","combined_car_model_unique_id":101,"min_seat":5,"max_seat":7,' +
        '"min_engine_size":1496,"max_engine_size":1998,"min_price":549000.0,"max_price":1234567.5,' +
        '"has_operation_type_auto":true,"has_operation_type_hand":false,"capture_combined_car_model_yearly_unique_id":101,' +
        '"logo":"https://assets.example.com/media/brand/logo/toyota.svg"}',
    );
  });

  it('writes null for a make without a logo', () => {
    expect(serialiseRecord(record(1, { logo: null }), addresses.assetsUrl)).toMatch(/"logo":null}$/);
  });

  it('gives the same object as JSON.parse of a naive serialisation', () => {
    const parsed = JSON.parse(serialiseRecord(record(3), addresses.assetsUrl)) as Record<string, unknown>;
    const naive = JSON.parse(JSON.stringify({ ...record(3), logo: `${addresses.assetsUrl}/${record(3).logo}` })) as unknown;
    expect(parsed).toEqual(naive);
    // toEqual ignores the order of keys: the spec's order is checked on its own.
    expect(Object.keys(parsed)).toEqual([
      'id',
      'combined_car_model',
      'combined_car_model_unique_id',
      'min_seat',
      'max_seat',
      'min_engine_size',
      'max_engine_size',
      'min_price',
      'max_price',
      'has_operation_type_auto',
      'has_operation_type_hand',
      'capture_combined_car_model_yearly_unique_id',
      'logo',
    ]);
  });
});

describe('serialisePage', () => {
  const records = Array.from({ length: 23 }, (_, index) => record(index + 1));

  it('gives the first page a null previous and a link to page 2', () => {
    const page = JSON.parse(serialisePage(records, 1, addresses)) as Record<string, unknown>;
    expect(page['count']).toBe(23);
    expect(page['previous']).toBeNull();
    expect(page['next']).toBe('https://cars.example.com/car/api/capture_car/latest?format=api&page=2');
    expect(page['results']).toHaveLength(10);
  });

  it('gives the last page a null next, the remaining records and previous with page=N even for page 1', () => {
    const page = JSON.parse(serialisePage(records, 3, addresses)) as { next: null; previous: string; results: { id: number }[] };
    expect(page.next).toBeNull();
    expect(page.previous).toBe('https://cars.example.com/car/api/capture_car/latest?format=api&page=2');
    expect(page.results.map((result) => result.id)).toEqual([21, 22, 23]);
    const second = JSON.parse(serialisePage(records, 2, addresses)) as { previous: string };
    expect(second.previous).toBe('https://cars.example.com/car/api/capture_car/latest?format=api&page=1');
  });

  it('writes an empty listing as the origin does', () => {
    expect(serialisePage([], 1, addresses)).toBe('{"count":0,"next":null,"previous":null,"results":[]}');
  });
});
