/**
 * The captured car model: the one zod schema of a CSV row, the record it becomes, and the field
 * order of the spec (section 2.2). Every other module (loader, serialiser, exports, JSON Schema)
 * takes its field names and rules from here.
 */
import { z } from 'zod';

/** The spec's 13 fields, in the order the origin writes them. */
export const FIELDS = [
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
] as const;

export type FieldName = (typeof FIELDS)[number];

/** Bounds our data must stay within. They are ours, not the spec's: see README "CSV format". */
export const LIMITS = {
  /** Identifiers stay within a 32-bit signed integer, like the origin's Django AutoField. */
  maxId: 2_147_483_647,
  maxSeats: 100,
  /** Engine size unit is not given by the spec; 100 000 is far above any road vehicle in cc. */
  maxEngineSize: 100_000,
  /** A DecimalField(max_digits=14, decimal_places=2) holds at most this. */
  maxPrice: 999_999_999_999.99,
  maxPriceDecimals: 2,
  maxNameLength: 255,
  maxLogoLength: 255,
} as const;

const DIGITS = /^[0-9]+$/;
const DECIMAL = /^[0-9]+(?:\.[0-9]+)?$/;
const BOOLEAN = /^(?:true|false)$/i;
/** C0 and C1 controls and DEL; line breaks are allowed, as a quoted CSV field may hold them. */
const CONTROL_CHARACTER = /[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Slash-separated segments of unreserved URL characters, none of them `.` or `..`. */
const LOGO_PATH = /^(?!\.{1,2}(?:\/|$))(?!.*\/\.{1,2}(?:\/|$))[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(DIGITS, { message: `must be a whole number written with digits only, from ${min} to ${max}`, abort: true })
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be a whole number from ${min} to ${max}`);

const price = z
  .string()
  .regex(DECIMAL, {
    message: 'must be a plain decimal number such as 549000 or 549000.00 (no sign, spaces, commas or exponent)',
    abort: true,
  })
  .refine(
    (text) => !text.includes('.') || text.length - text.indexOf('.') - 1 <= LIMITS.maxPriceDecimals,
    `must have at most ${LIMITS.maxPriceDecimals} decimal places`,
  )
  .transform(Number)
  .refine((n) => n > 0, 'must be greater than 0')
  .refine((n) => n <= LIMITS.maxPrice, `must be at most ${LIMITS.maxPrice}`);

const flag = z
  .string()
  .regex(BOOLEAN, { message: 'must be true or false', abort: true })
  .transform((text) => text.toLowerCase() === 'true');

const modelName = z
  .string()
  .refine((text) => text.trim().length > 0, 'must not be empty')
  .refine((text) => text.length <= LIMITS.maxNameLength, `must be at most ${LIMITS.maxNameLength} characters long`)
  .refine((text) => !CONTROL_CHARACTER.test(text), 'must not contain control characters');

const logoPath = z
  .string()
  .refine((text) => text.length <= LIMITS.maxLogoLength, `must be at most ${LIMITS.maxLogoLength} characters long`)
  .refine(
    (text) => text === '' || LOGO_PATH.test(text),
    'must be empty or a relative path under the assets address such as media/brand/logo/toyota.png ' +
      '(letters, digits, . _ ~ - and /; no scheme, no leading /, no . or .. segments)',
  )
  .transform((text) => (text === '' ? null : text));

/** Cross-field rules run only when the fields they compare parsed, so each problem is reported once. */
const comparable =
  (...fields: FieldName[]) =>
  (payload: z.core.ParsePayload) =>
    !payload.issues.some((issue) => fields.includes(issue.path?.[0] as FieldName));

type Bound = 'seat' | 'engine_size' | 'price';

/** The rule that each max_* field is at least its min_* field. */
const maxAtLeastMin = (bound: Bound) => {
  const low = `min_${bound}` as const;
  const high = `max_${bound}` as const;
  return [
    (row: Record<typeof low | typeof high, number>) => row[high] >= row[low],
    { message: `must be greater than or equal to ${low}`, path: [high], when: comparable(low, high) },
  ] satisfies [unknown, z.core.$ZodCustomParams];
};

/** One CSV row, as text keyed by field name, to a record. */
export const rowSchema = z
  .object({
    id: wholeNumber(1, LIMITS.maxId),
    combined_car_model: modelName,
    combined_car_model_unique_id: wholeNumber(1, LIMITS.maxId),
    min_seat: wholeNumber(1, LIMITS.maxSeats),
    max_seat: wholeNumber(1, LIMITS.maxSeats),
    min_engine_size: wholeNumber(0, LIMITS.maxEngineSize),
    max_engine_size: wholeNumber(0, LIMITS.maxEngineSize),
    min_price: price,
    max_price: price,
    has_operation_type_auto: flag,
    has_operation_type_hand: flag,
    capture_combined_car_model_yearly_unique_id: wholeNumber(1, LIMITS.maxId),
    logo: logoPath,
  })
  .refine(...maxAtLeastMin('seat'))
  .refine(...maxAtLeastMin('engine_size'))
  .refine(...maxAtLeastMin('price'))
  .refine((row) => row.has_operation_type_auto || row.has_operation_type_hand, {
    message: 'at least one of has_operation_type_auto and has_operation_type_hand must be true',
    path: ['has_operation_type_hand'],
    when: comparable('has_operation_type_auto', 'has_operation_type_hand'),
  })
  .refine((row) => row.capture_combined_car_model_yearly_unique_id === row.combined_car_model_unique_id, {
    message: 'must equal combined_car_model_unique_id',
    path: ['capture_combined_car_model_yearly_unique_id'],
    when: comparable('capture_combined_car_model_yearly_unique_id', 'combined_car_model_unique_id'),
  });

/** A validated captured car model. `logo` is still the path under the assets address. */
export type CarModel = z.output<typeof rowSchema>;

/** The CSV text of a row, keyed by field name. */
export type CsvRow = z.input<typeof rowSchema>;
