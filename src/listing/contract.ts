/**
 * The machine-readable contract, generated from the one zod schema: JSON Schemas of a record and of
 * a page envelope, and the OpenAPI 3.1 description of the listing endpoint built on the route table.
 */
import { z } from 'zod';
import { PAGE_SIZE } from './pagination.ts';
import { ACCEPTED_FORMATS, BODIES, LISTING_HEADERS, LISTING_PATH, PAGE_PATH_PREFIX, pageLink, PUBLISHED, QUERY } from './routes.ts';
import { changesSchema } from './changes-schema.ts';
import { carModelSchema } from '../data/schema.ts';

/** A record as published: `logo` is the absolute URL under the assets address. */
const publishedCarModelSchema = carModelSchema
  .extend({
    logo: z.url().nullable().describe("Absolute URL of the make's logo under the assets address, or null."),
  })
  .meta({
    title: 'Captured car model',
    description: 'One entry of the listing (spec section 2.2). At least one of the transmission flags is true (spec rule 1).',
    // Spec rule 1, which the CSV schema checks as a refinement (JSON Schema cannot see refinements).
    anyOf: [{ properties: { has_operation_type_auto: { const: true } } }, { properties: { has_operation_type_hand: { const: true } } }],
  });

const pageLinkSchema = (which: string) =>
  z.url().nullable().describe(`Absolute URL of the ${which} page ({base_url}${LISTING_PATH}?format=api&page=<n>), or null.`);

/** The page envelope (spec section 2.1). */
const pageEnvelopeSchema = z
  .object({
    count: z.int().min(0).describe('Total number of entries across all pages; the same on every page.'),
    next: pageLinkSchema('next'),
    previous: pageLinkSchema('previous'),
    results: z.array(publishedCarModelSchema).max(PAGE_SIZE).describe(`The entries of this page, at most ${PAGE_SIZE}.`),
  })
  .meta({ title: 'Page of captured car models', description: 'One page of the listing (spec section 2.1).' });

const errorSchema = z.object({ detail: z.string() }).meta({ title: 'Error' });

/** The JSON Schema document of one record, with its `$id` under the base URL. */
export function recordJsonSchema(baseUrl: string): Record<string, unknown> {
  return { $id: `${baseUrl}${PUBLISHED.recordSchema}`, ...z.toJSONSchema(publishedCarModelSchema, { target: 'draft-2020-12' }) };
}

/** The JSON Schema document of `changes.json`, with its `$id` under the base URL. */
export function changesJsonSchema(baseUrl: string): Record<string, unknown> {
  return { $id: `${baseUrl}${PUBLISHED.changesSchema}`, ...z.toJSONSchema(changesSchema, { target: 'draft-2020-12' }) };
}

/** The JSON Schema document of a page envelope, with its `$id` under the base URL. */
export function pageJsonSchema(baseUrl: string): Record<string, unknown> {
  return { $id: `${baseUrl}${PUBLISHED.pageSchema}`, ...z.toJSONSchema(pageEnvelopeSchema, { target: 'draft-2020-12' }) };
}

const jsonContent = (schema: string, examples?: Record<string, string>) => ({
  'application/json': {
    schema: { $ref: `#/components/schemas/${schema}` },
    ...(examples
      ? { examples: Object.fromEntries(Object.entries(examples).map(([name, body]) => [name, { value: JSON.parse(body) as unknown }])) }
      : {}),
  },
});

const headerSpec = (description: string, example: string) => ({ description, schema: { type: 'string' }, example });

/** The OpenAPI 3.1 document of the listing. */
export function openApiDocument(baseUrl: string): Record<string, unknown> {
  const listingHeaders = {
    Allow: headerSpec('Methods the listing allows.', LISTING_HEADERS.Allow),
    Vary: headerSpec('The response varies with the Accept header.', LISTING_HEADERS.Vary),
    'Access-Control-Allow-Origin': headerSpec('Any origin may read the listing.', LISTING_HEADERS['Access-Control-Allow-Origin']),
    'Cache-Control': headerSpec('Short caching: the listing changes when the data is rebuilt.', LISTING_HEADERS['Cache-Control']),
  };
  const pageHeaders = {
    ...listingHeaders,
    Link: headerSpec('RFC 8288 links to the next and previous pages, where the host can send it.', `<${pageLink(baseUrl, 2)}>; rel="next"`),
  };
  const notFound = {
    description: 'The page does not exist (`Invalid page.`), or the format is unknown (`Not found.`).',
    headers: listingHeaders,
    content: jsonContent('Error', { invalidPage: BODIES.invalidPage, unknownFormat: BODIES.notFound }),
  };
  const methodNotAllowed = {
    description: 'Any method other than GET, HEAD and OPTIONS (not every static host can answer this).',
    headers: listingHeaders,
    content: jsonContent('Error', { post: BODIES.methodNotAllowed('POST') }),
  };
  const ok = { description: 'A page of the listing.', headers: pageHeaders, content: jsonContent('Page') };
  const formatParameter = {
    name: QUERY.format,
    in: 'query',
    required: false,
    description: "Response format selector. `api` (the origin's link format) and `json` both answer JSON.",
    schema: { type: 'string', enum: [...ACCEPTED_FORMATS] },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Captured car model listing',
      version: '1.0.0',
      description:
        'A read-only, paginated list of the latest captured car models, prebuilt as static JSON. ' +
        `Pages hold ${PAGE_SIZE} entries; \`next\` is null on the last page and \`previous\` on the first.`,
    },
    servers: [{ url: baseUrl }],
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths: {
      [LISTING_PATH]: {
        get: {
          operationId: 'listLatestCapturedCarModels',
          summary: 'A page of the latest captured car models',
          parameters: [
            {
              name: QUERY.page,
              in: 'query',
              required: false,
              description: '1-based page number, or `last`. Missing or empty means page 1.',
              schema: { oneOf: [{ type: 'integer', minimum: 1 }, { const: 'last' }] },
            },
            formatParameter,
          ],
          responses: { 200: ok, 404: notFound, 405: methodNotAllowed },
        },
        options: {
          operationId: 'describeLatestCapturedCarModels',
          summary: "The endpoint's metadata, as Django REST Framework describes it",
          responses: {
            200: {
              description: 'Metadata.',
              headers: listingHeaders,
              content: { 'application/json': { example: JSON.parse(BODIES.options) as unknown } },
            },
          },
        },
      },
      [`${PAGE_PATH_PREFIX}{page}`]: {
        get: {
          operationId: 'getLatestCapturedCarModelsPage',
          summary: 'A page of the listing as a plain static file (served on every host)',
          parameters: [{ name: 'page', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
          responses: { 200: ok, 404: notFound },
        },
      },
    },
    components: {
      schemas: {
        CarModel: z.toJSONSchema(publishedCarModelSchema, { target: 'draft-2020-12' }),
        Page: z.toJSONSchema(pageEnvelopeSchema, { target: 'draft-2020-12' }),
        Error: z.toJSONSchema(errorSchema, { target: 'draft-2020-12' }),
      },
    },
  };
}
