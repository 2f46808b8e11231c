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

/** Bounds our data must stay within. They are ours, not the spec's: see docs/data.md, "The rules". */
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

const integer = (min: number, max: number, description: string) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.number().int({ error }).min(min, { error }).max(max, { error }).describe(description);
};

const priceValue = (description: string) =>
  z
    .number()
    .positive({ error: 'must be greater than 0' })
    .max(LIMITS.maxPrice, { error: `must be at most ${LIMITS.maxPrice}` })
    .describe(`${description} Decimal, serialised with a fractional part (549000.0). Currency: not given.`);

/**
 * A captured car model as the API publishes it: the contract of section 2.2, with our bounds.
 * The CSV row schema below parses text into these very field schemas, and the published JSON
 * Schema and OpenAPI document are generated from this, so data, docs and checks cannot drift.
 */
export const carModelSchema = z.object({
  id: integer(1, LIMITS.maxId, 'Identifier of the entry; unique in the listing.'),
  combined_car_model: z
    .string()
    .min(1, { error: 'must not be empty', abort: true })
    .max(LIMITS.maxNameLength, { error: `must be at most ${LIMITS.maxNameLength} characters long` })
    .refine((text) => text.trim().length > 0, 'must not be empty')
    .refine((text) => !CONTROL_CHARACTER.test(text), 'must not contain control characters')
    .describe('Display name: the make in a local script (Traditional Chinese), the make in Latin script, then model and variant.'),
  combined_car_model_unique_id: integer(1, LIMITS.maxId, 'Identifier of the combined model.'),
  min_seat: integer(1, LIMITS.maxSeats, 'Lowest seat count among the variants.'),
  max_seat: integer(1, LIMITS.maxSeats, 'Highest seat count; at least min_seat.'),
  min_engine_size: integer(0, LIMITS.maxEngineSize, 'Lowest engine size; 0 for electric models. Unit: not given.'),
  max_engine_size: integer(0, LIMITS.maxEngineSize, 'Highest engine size; at least min_engine_size.'),
  min_price: priceValue('Lowest price.'),
  max_price: priceValue('Highest price; at least min_price.'),
  has_operation_type_auto: z.boolean().describe('An automatic transmission variant exists.'),
  has_operation_type_hand: z.boolean().describe('A manual transmission variant exists; at least one of the two is true.'),
  capture_combined_car_model_yearly_unique_id: integer(
    1,
    LIMITS.maxId,
    'Identifier of the yearly variant; equals combined_car_model_unique_id.',
  ),
  logo: z
    .string()
    .max(LIMITS.maxLogoLength, { error: `must be at most ${LIMITS.maxLogoLength} characters long` })
    .regex(LOGO_PATH, {
      error:
        'must be empty or a relative path under the assets address such as media/brand/logo/toyota.png ' +
        '(letters, digits, . _ ~ - and /; no scheme, no leading /, no . or .. segments)',
    })
    .nullable()
    .describe("Path of the make's logo under the assets address, or null."),
});

const { shape } = carModelSchema;

/** CSV text of a whole number, parsed into `field`. */
const wholeNumberText = (field: z.ZodNumber) =>
  z.string().regex(DIGITS, { error: 'must be a whole number written with digits only', abort: true }).transform(Number).pipe(field);

/** CSV text of a price: plain decimal text with at most two decimals, parsed into `field`. */
const priceText = (field: z.ZodNumber) =>
  z
    .string()
    .regex(DECIMAL, {
      error: 'must be a plain decimal number such as 549000 or 549000.00 (no sign, spaces, commas or exponent)',
      abort: true,
    })
    .refine((text) => !text.includes('.') || text.length - text.indexOf('.') - 1 <= LIMITS.maxPriceDecimals, {
      error: `must have at most ${LIMITS.maxPriceDecimals} decimal places`,
      abort: true,
    })
    .transform(Number)
    .pipe(field);

const booleanText = z
  .string()
  .regex(BOOLEAN, { error: 'must be true or false', abort: true })
  .transform((text) => text.toLowerCase() === 'true');

/** An empty CSV cell means no logo. */
const logoText = z
  .string()
  .transform((text) => (text === '' ? null : text))
  .pipe(shape.logo);

/** Cross-field rules run only when the fields they compare parsed, so each problem is reported once. */
const comparable =
  (...fields: FieldName[]) =>
  (payload: z.core.ParsePayload) =>
    !payload.issues.some((issue) => fields.includes(issue.path?.[0] as FieldName));

/** A rule that compares fields: its check, and its problem's message and field, and when it runs (`comparable`). */
type CrossFieldRule = [check: (row: CarModel) => boolean, params: z.core.$ZodCustomParams];

/** The rule that each max_* field is at least its min_* field. */
const maxAtLeastMin = (bound: 'seat' | 'engine_size' | 'price'): CrossFieldRule => {
  const low = `min_${bound}` as const;
  const high = `max_${bound}` as const;
  return [
    (row) => row[high] >= row[low],
    { message: `must be greater than or equal to ${low}`, path: [high], when: comparable(low, high) },
  ];
};

const CROSS_FIELD_RULES: CrossFieldRule[] = [
  maxAtLeastMin('seat'),
  maxAtLeastMin('engine_size'),
  maxAtLeastMin('price'),
  [
    (row) => row.has_operation_type_auto || row.has_operation_type_hand,
    {
      message: 'at least one of has_operation_type_auto and has_operation_type_hand must be true',
      path: ['has_operation_type_hand'],
      when: comparable('has_operation_type_auto', 'has_operation_type_hand'),
    },
  ],
  [
    (row) => row.capture_combined_car_model_yearly_unique_id === row.combined_car_model_unique_id,
    {
      message: 'must equal combined_car_model_unique_id',
      path: ['capture_combined_car_model_yearly_unique_id'],
      when: comparable('capture_combined_car_model_yearly_unique_id', 'combined_car_model_unique_id'),
    },
  ],
];

/** One CSV row, as text keyed by field name, to a record: each field's rules, then the cross-field ones. */
const rowSchemaOf = (rules: readonly CrossFieldRule[]) =>
  rules.reduce(
    (schema, [check, params]) => schema.refine(check, params),
    z.object({
      id: wholeNumberText(shape.id),
      combined_car_model: shape.combined_car_model,
      combined_car_model_unique_id: wholeNumberText(shape.combined_car_model_unique_id),
      min_seat: wholeNumberText(shape.min_seat),
      max_seat: wholeNumberText(shape.max_seat),
      min_engine_size: wholeNumberText(shape.min_engine_size),
      max_engine_size: wholeNumberText(shape.max_engine_size),
      min_price: priceText(shape.min_price),
      max_price: priceText(shape.max_price),
      has_operation_type_auto: booleanText,
      has_operation_type_hand: booleanText,
      capture_combined_car_model_yearly_unique_id: wholeNumberText(shape.capture_combined_car_model_yearly_unique_id),
      logo: logoText,
    }),
  );

/** One CSV row to a record, with every problem it has (a cross-field rule also where another field failed). */
export const rowSchema = rowSchemaOf(CROSS_FIELD_RULES);

/**
 * The same rules compiled by zod (`z.compile`: generated code, five to seven times faster than
 * zod's runtime on a valid row). `z.compile` cannot model a rule's `when`; this leaves it out,
 * which changes no valid row's result (all its fields parsed, so every `when` holds). It only
 * says whether a row is valid: a row it refuses is parsed again by `rowSchema`, which reports its
 * problems (`rowParser`). test/data/schema.test.ts checks that the two agree and that zod still
 * compiles this.
 */
export const validRowSchema = z.compile(rowSchemaOf(CROSS_FIELD_RULES.map(([check, { when: _, ...params }]) => [check, params])));

/**
 * Parses a file's rows one after another: each to its record, or to every problem it has
 * (`rowSchema`'s), a valid row by the compiled rules. After a row with a problem the next is
 * parsed by `rowSchema` alone: bad rows come in runs (a column shifted, a formula filled down),
 * and a row the compiled rules refuse is parsed twice, by them and by `rowSchema` (in a file whose
 * every row is bad, trying them first at every row would cost half as much again as this).
 */
export function rowParser(): (row: CsvRow) => z.ZodSafeParseResult<CarModel> {
  let lastHadProblems = false;
  return (row) => {
    if (!lastHadProblems) {
      const valid = validRowSchema.safeParse(row);
      if (valid.success) return valid;
    }
    const parsed = rowSchema.safeParse(row);
    lastHadProblems = !parsed.success;
    return parsed;
  };
}

/** A validated captured car model. `logo` is the path under the assets address. */
export type CarModel = z.output<typeof carModelSchema>;

/** The CSV text of a row, keyed by field name. */
export type CsvRow = z.input<typeof rowSchema>;
