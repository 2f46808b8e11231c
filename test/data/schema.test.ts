/**
 * The row schema's two forms (src/data/schema.ts): `validRowSchema`, compiled by zod, must accept
 * exactly the rows `rowSchema` accepts, with the same record, and `rowParser` must report
 * `rowSchema`'s problems for any other row, whatever rows came before it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FIELDS, rowParser, rowSchema, validRowSchema, type CsvRow } from '../../src/data/schema.ts';

/** A cell's text: mostly what a valid row holds, often text a rule refuses. */
const wholeNumber = fc.oneof(
  fc.integer({ min: 0, max: 120 }).map(String),
  fc.integer({ min: 0, max: 2 ** 32 }).map(String),
  fc.constantFrom('', ' 5', '5.0', '-1', '1e3', '０', '007', '2147483648'),
);
const price = fc.oneof(
  fc.integer({ min: 0, max: 10 ** 7 }).map(String),
  fc.tuple(fc.integer({ min: 0, max: 10 ** 7 }), fc.stringMatching(/^[0-9]{1,3}$/)).map(([whole, fraction]) => `${whole}.${fraction}`),
  fc.constantFrom('', '1,000', '+5', '.5', '5.', '999999999999.99', '1000000000000', 'NaN'),
);
const boolean = fc.constantFrom('true', 'false', 'TRUE', 'False', '', 'yes', '1');
const name = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('豐田 Toyota Alphard', ' ', 'a\u0007b', 'x'.repeat(256)),
);
const logo = fc.oneof(
  fc.constantFrom('', 'media/brand/logo/toyota.png', '/etc/passwd', '../x.png', 'a/./b', 'https://x.example/a.png', 'a b.png'),
  fc.stringMatching(/^[a-z0-9./_~-]{1,20}$/),
);
const row: fc.Arbitrary<CsvRow> = fc.record({
  id: wholeNumber,
  combined_car_model: name,
  combined_car_model_unique_id: wholeNumber,
  min_seat: wholeNumber,
  max_seat: wholeNumber,
  min_engine_size: wholeNumber,
  max_engine_size: wholeNumber,
  min_price: price,
  max_price: price,
  has_operation_type_auto: boolean,
  has_operation_type_hand: boolean,
  capture_combined_car_model_yearly_unique_id: wholeNumber,
  logo,
});
/** Rows that pass every field's rule more often than `row` does, so that the cross-field rules are reached. */
const nearlyValidRow = fc
  .record({
    id: fc.integer({ min: 1, max: 99 }),
    seats: fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 })),
    engine: fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 3000 })),
    prices: fc.tuple(fc.integer({ min: 1, max: 900 }), fc.integer({ min: 1, max: 900 })),
    auto: fc.boolean(),
    hand: fc.boolean(),
    uniqueIds: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })),
    logo,
  })
  .map((draw): CsvRow => ({
    id: String(draw.id),
    combined_car_model: '平治 Mercedes-Benz A 200',
    combined_car_model_unique_id: String(draw.uniqueIds[0]),
    min_seat: String(draw.seats[0]),
    max_seat: String(draw.seats[1]),
    min_engine_size: String(draw.engine[0]),
    max_engine_size: String(draw.engine[1]),
    min_price: `${draw.prices[0]}000`,
    max_price: `${draw.prices[1]}000.00`,
    has_operation_type_auto: String(draw.auto),
    has_operation_type_hand: String(draw.hand),
    capture_combined_car_model_yearly_unique_id: String(draw.uniqueIds[1]),
    logo: draw.logo,
  }));

describe('the row schema, compiled and not', () => {
  it('is compiled by zod: z.compile still models every rule but the `when` of the cross-field rules', () => {
    // Where this fails, a zod upgrade no longer compiles the schema: rows are then validated by zod's runtime, correctly but several times slower.
    expect(() => z.compile(validRowSchema, { strict: true })).not.toThrow();
  });

  it('accepts exactly the rows the schema accepts, with the same record', () => {
    fc.assert(
      fc.property(fc.oneof(row, nearlyValidRow), (input) => {
        const compiled = validRowSchema.safeParse(input);
        const runtime = rowSchema.safeParse(input);
        expect(compiled.success).toBe(runtime.success);
        if (compiled.success && runtime.success) expect(compiled.data).toStrictEqual(runtime.data);
      }),
      { numRuns: 3000 },
    );
  });

  it("parses rows one after another as the schema does: a valid row's record, a bad row's every problem", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(row, nearlyValidRow), { minLength: 1, maxLength: 8 }), (inputs) => {
        const parseRow = rowParser();
        for (const input of inputs) {
          const parsed = parseRow(input);
          const runtime = rowSchema.safeParse(input);
          expect(parsed.success).toBe(runtime.success);
          if (parsed.success && runtime.success) expect(parsed.data).toStrictEqual(runtime.data);
          if (!parsed.success && !runtime.success) expect(parsed.error.issues).toStrictEqual(runtime.error.issues);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reports a cross-field problem beside a field that failed (what the compiled form leaves out)', () => {
    const valid = {
      ...Object.fromEntries(FIELDS.map((field) => [field, '1'])),
      combined_car_model: '豐田 Toyota',
      has_operation_type_auto: 'true',
      has_operation_type_hand: 'false',
      logo: '',
    } as CsvRow;
    const parseRow = rowParser();
    expect(parseRow(valid).success).toBe(true);
    const parsed = parseRow({ ...valid, id: '0', min_seat: '5', max_seat: '2' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ['id', 'must be a whole number from 1 to 2147483647'],
      ['max_seat', 'must be greater than or equal to min_seat'],
    ]);
  });
});
