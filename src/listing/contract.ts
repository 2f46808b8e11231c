/**
 * The machine-readable contract, generated from the zod schemas: the JSON Schemas of a record, a
 * page, the manifest and the change documents, and the OpenAPI 3.1 document of every URL the site
 * answers, built on the route table. Each schema is one named component (`$ref`'d, never copied),
 * made once by zod's registry; a published JSON Schema is the same component with what it refers to
 * under `$defs`.
 */
import { z } from 'zod';
import { carModelSchema } from '../data/schema.ts';
import { changeDocumentSchema, changesSchema, manifestSchema } from './documents.ts';
import { LAST_PAGE_STRING, PAGE_SIZE } from './pagination.ts';
import type { Publisher } from './publisher.ts';
import {
  ACCEPTED_FORMATS,
  ALLOWED_METHODS,
  BODIES,
  CORS_EXPOSED_HEADERS,
  DOCUMENT_HEADERS,
  LISTING_HEADERS,
  LISTING_PATH,
  PAGE_FILE_EXTENSION,
  PAGE_PATH_PREFIX,
  pageLink,
  PUBLISHED,
  QUERY,
  changeDocumentPath,
  schemaPath,
} from './routes.ts';

type JsonObject = Record<string, unknown>;

/** The contract's schemas, each under the name of its component. */
const contract = z.registry<{ id: string; title: string; description: string }>();

const carModel = carModelSchema
  .extend({ logo: z.url().nullable().describe("Absolute URL of the make's logo under the assets address, or null.") })
  .register(contract, {
    id: 'CarModel',
    title: 'Captured car model',
    description: 'One entry of the listing (spec section 2.2). At least one of the transmission flags is true (spec rule 1).',
  });

const pageLinkSchema = (which: string) =>
  z.url().nullable().describe(`Absolute URL of the ${which} page ({base_url}${LISTING_PATH}?format=api&page=<n>), or null.`);

z.object({
  count: z.int().min(0).describe('Total number of entries across all pages; the same on every page.'),
  next: pageLinkSchema('next'),
  previous: pageLinkSchema('previous'),
  results: z.array(carModel).max(PAGE_SIZE).describe(`The entries of this page, at most ${PAGE_SIZE}.`),
}).register(contract, { id: 'Page', title: 'Page of captured car models', description: 'One page of the listing (spec section 2.1).' });

z.object({ detail: z.string().describe('What went wrong, in the origin’s words.') }).register(contract, {
  id: 'Error',
  title: 'Error',
  description: 'An error as the origin (Django REST Framework) answers it.',
});

z.object({
  name: z.string(),
  description: z.string(),
  renders: z.array(z.string()).describe('Media types the endpoint renders.'),
  parses: z.array(z.string()).describe('Media types the endpoint parses.'),
}).register(contract, { id: 'Options', title: 'Endpoint metadata', description: "The listing's metadata, as the origin answers OPTIONS." });

z.array(carModel).register(contract, {
  id: 'CarModels',
  title: 'Every captured car model',
  description: 'The whole listing, in its order: /all.json.',
});
manifestSchema.register(contract, {
  id: 'Manifest',
  title: 'Build manifest',
  description: 'What one build holds: its identity, its counts, every file and its hash.',
});
changeDocumentSchema.register(contract, {
  id: 'ChangeDocument',
  title: 'Changes of one build',
  description: 'What one build changed in the site it replaced.',
});
changesSchema.register(contract, {
  id: 'Changes',
  title: 'Changes of the last build that changed anything',
  description: 'Its change document, with the history of earlier ones.',
});

/** Spec rule 1 in a shape code generators keep: an object, with no record whose both flags are false. */
const TRANSMISSION_RULE = {
  not: {
    properties: { has_operation_type_auto: { const: false }, has_operation_type_hand: { const: false } },
    required: ['has_operation_type_auto', 'has_operation_type_hand'],
  },
};

/** Every schema of the contract, as the components of the OpenAPI document. */
function components(): Record<string, JsonObject> {
  const { schemas } = z.toJSONSchema(contract, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      const meta = contract.get(zodSchema);
      if (meta) Object.assign(jsonSchema, { title: meta.title, description: meta.description });
      if (zodSchema === carModel) Object.assign(jsonSchema, TRANSMISSION_RULE);
    },
  });
  // A component is no document: no dialect or id of its own.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema as JsonObject]));
}

/** The JSON Schemas published beside the OpenAPI document: file name → component. */
export const JSON_SCHEMAS = {
  'car-model': 'CarModel',
  page: 'Page',
  manifest: 'Manifest',
  changes: 'Changes',
  change: 'ChangeDocument',
} as const;

/** The published JSON Schema document `name` (of JSON_SCHEMAS), with its `$id` under the base URL. */
export function jsonSchemaDocument(name: keyof typeof JSON_SCHEMAS, baseUrl: string): JsonObject {
  const all = components();
  const root = JSON_SCHEMAS[name];
  const asDefs = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/$defs/')) as unknown;
  // What the root refers to, and what that refers to, under $defs.
  const defs: Record<string, unknown> = {};
  const pending: string[] = [root];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    for (const [, found] of JSON.stringify(all[id]).matchAll(/"#\/components\/schemas\/([A-Za-z]+)"/g)) {
      if (found !== undefined && !(found in defs) && found !== root) {
        defs[found] = asDefs(all[found]);
        pending.push(found);
      }
    }
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${baseUrl}${schemaPath(name)}`,
    ...(asDefs(all[root]) as JsonObject),
    ...(Object.keys(defs).length > 0 && { $defs: defs }),
  };
}

/** The methods a read-only listing refuses, as the origin names them in its 405. */
const REFUSED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
const inWords = (items: readonly string[]) => new Intl.ListFormat('en-GB', { type: 'conjunction' }).format(items);
/**
 * What the listing allows and refuses, in words: the document describes only the methods that can
 * succeed, as the origin's own describer (drf-spectacular) does, so that no generated client has a
 * function that can only fail; the refused ones answer 405 on every host all the same.
 */
const METHODS_IN_WORDS =
  `The listing allows ${inWords(ALLOWED_METHODS)}. It is read-only: ${inWords(REFUSED_METHODS)} are 405 ` +
  `\`${BODIES.methodNotAllowed(REFUSED_METHODS[0])}\` (with the method's name), as from the origin, after an unknown format's 404.`;

const ref = (kind: 'schemas' | 'responses' | 'parameters' | 'headers', id: string) => ({ $ref: `#/components/${kind}/${id}` });
const header = (description: string, example: string) => ({ description, schema: { type: 'string' }, example });
const pathParameter = (name: string, description: string, schema: JsonObject, example: unknown) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
  example,
});
const jsonOf = (schema: string, examples?: Record<string, string>) => ({
  'application/json': {
    schema: ref('schemas', schema),
    ...(examples && {
      examples: Object.fromEntries(Object.entries(examples).map(([name, body]) => [name, { value: JSON.parse(body) as unknown }])),
    }),
  },
});

/** The headers every listing answer carries, and a page's own (ETag, Link). */
const LISTING_ANSWER_HEADERS = {
  Allow: ref('headers', 'Allow'),
  Vary: ref('headers', 'Vary'),
  'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
  'Access-Control-Expose-Headers': ref('headers', 'AccessControlExposeHeaders'),
  'Cache-Control': ref('headers', 'CacheControl'),
};
const PAGE_HEADERS = { ...LISTING_ANSWER_HEADERS, ETag: ref('headers', 'ETag'), Link: ref('headers', 'Link') };
const FILE_HEADERS = { ETag: ref('headers', 'ETag'), 'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin') };

function sharedComponents(baseUrl: string): JsonObject {
  return {
    schemas: components(),
    parameters: {
      Page: {
        name: QUERY.page,
        in: 'query',
        required: false,
        description:
          `The page: a whole number from 1, or \`${LAST_PAGE_STRING}\` for the last page. Missing or empty means page 1. As the ` +
          "origin, the listing reads the number as Python's `int()` does: `03`, `+3`, `3` with white space around it, and `1_0` (page 10) " +
          'are pages too. Any other value, or a page past the last, is 404 `Invalid page.`',
        schema: {
          oneOf: [
            { type: 'integer', minimum: 1 },
            { type: 'string', const: LAST_PAGE_STRING },
          ],
        },
        examples: { page: { value: 2 }, last: { value: LAST_PAGE_STRING } },
      },
      Format: {
        name: QUERY.format,
        in: 'query',
        required: false,
        description: `Response format selector: \`${ACCEPTED_FORMATS.join('` and `')}\` answer JSON (\`api\` is the origin's link format); any other value is 404 \`Not found.\`, whatever the method, as from the origin.`,
        schema: { type: 'string' },
        examples: Object.fromEntries(ACCEPTED_FORMATS.map((format) => [format, { value: format }])),
      },
      PageNumber: pathParameter('page', '1-based page number.', { type: 'integer', minimum: 1 }, 2),
      IfNoneMatch: {
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'An ETag this answer had: a 304 without a body where it still has it.',
        schema: { type: 'string' },
        example: '"3f2a…"',
      },
    },
    headers: {
      Allow: header(METHODS_IN_WORDS, LISTING_HEADERS.Allow),
      Vary: header('The answer varies with the Accept header.', LISTING_HEADERS.Vary),
      AccessControlAllowOrigin: header('Any origin may read it.', '*'),
      AccessControlExposeHeaders: header('Headers a script on another origin may read.', CORS_EXPOSED_HEADERS),
      CacheControl: header('How long a cache may keep the answer (docs/api.md).', LISTING_HEADERS['Cache-Control']),
      ETag: header('A strong tag of the bytes: send it back in If-None-Match.', '"3f2a…"'),
      Link: header('RFC 8288 links to the next and previous pages.', `<${pageLink(baseUrl, 2)}>; rel="next"`),
    },
    responses: {
      Page: { description: 'A page of the listing.', headers: PAGE_HEADERS, content: jsonOf('Page') },
      PageHead: { description: 'The headers of a page of the listing, without its body.', headers: PAGE_HEADERS },
      NotModified: {
        description: 'Not modified: the If-None-Match tag is this answer’s. No body, no Content-Type.',
        headers: { ETag: ref('headers', 'ETag') },
      },
      NotFound: {
        description: 'The page does not exist (`Invalid page.`), or the format is unknown (`Not found.`).',
        headers: LISTING_ANSWER_HEADERS,
        content: jsonOf('Error', { invalidPage: BODIES.invalidPage, unknownFormat: BODIES.notFound }),
      },
      NotFoundHead: {
        description: 'The page does not exist, or the format is unknown: the headers alone.',
        headers: LISTING_ANSWER_HEADERS,
      },
      Options: {
        description: "The endpoint's metadata.",
        headers: LISTING_ANSWER_HEADERS,
        content: jsonOf('Options', { metadata: BODIES.options }),
      },
    },
  };
}

const TAGS = {
  documents: 'What the build publishes about the listing and itself: downloads, manifest, changes, schemas.',
  listing: 'The paginated listing, as the origin answers it.',
} as const;

/** The operations of one of the listing's URL forms. */
function listingOperations(form: string, parameters: JsonObject[], summary: string): JsonObject {
  const tags = ['listing'];
  const common = { tags, parameters };
  const conditional = [...parameters, ref('parameters', 'IfNoneMatch')];
  const read = (method: 'get' | 'head', page: string, notFound: string) => ({
    ...common,
    parameters: conditional,
    operationId: `${method}${form}`,
    summary: method === 'get' ? summary : `${summary}: headers only`,
    description:
      method === 'get'
        ? `${summary}. Pages hold ${PAGE_SIZE} entries; \`next\` is null on the last page and \`previous\` on the first.`
        : 'The status and headers of GET, without a body.',
    responses: { 200: ref('responses', page), 304: ref('responses', 'NotModified'), 404: ref('responses', notFound) },
  });
  return {
    get: read('get', 'Page', 'NotFound'),
    head: read('head', 'PageHead', 'NotFoundHead'),
    options: {
      ...common,
      operationId: `options${form}`,
      summary: "The endpoint's metadata",
      description: `What the endpoint renders and parses, as Django REST Framework describes it; its \`Allow\` header names the methods. ${METHODS_IN_WORDS}`,
      responses: { 200: ref('responses', 'Options'), 404: ref('responses', 'NotFound') },
    },
  };
}

/** GET and HEAD of one of the site's own files. */
function fileOperations(
  name: string,
  summary: string,
  content: JsonObject,
  parameters: JsonObject[] = [],
  headers: JsonObject = FILE_HEADERS,
): JsonObject {
  const operation = (method: 'get' | 'head') => ({
    tags: ['documents'],
    operationId: `${method}${name}`,
    summary: method === 'get' ? summary : `${summary}: headers only`,
    description: method === 'get' ? `${summary}.` : 'The status and headers of GET, without a body.',
    parameters: [...parameters, ref('parameters', 'IfNoneMatch')],
    responses: {
      200: { description: summary, headers, ...(method === 'get' && { content }) },
      304: ref('responses', 'NotModified'),
      404: { description: 'Not found: the host answers its own 404 (for the site, its 404 page).' },
    },
  });
  return { get: operation('get'), head: operation('head') };
}

/** The OpenAPI 3.1 document of every URL the site answers, with the contact and licence its publisher states. */
export function openApiDocument(baseUrl: string, { contact, license }: Publisher = {}): JsonObject {
  const noCacheHeaders = {
    ...FILE_HEADERS,
    'Cache-Control': header('Always revalidated: a mirror reads it first.', DOCUMENT_HEADERS['Cache-Control']),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Captured car model listing',
      // 3: `page` is a number or `last`, and the refused methods are no operations (generated clients change).
      version: '3.0.0',
      summary: 'The latest captured car models, paginated, as static JSON.',
      description:
        'A read-only, paginated list of the latest captured car models, prebuilt as static files, byte for byte as the origin ' +
        '(a Django REST Framework list view) answered, with the downloads, manifest and change history a mirror follows. ' +
        METHODS_IN_WORDS,
      ...(contact && { contact }),
      ...(license && { license }),
    },
    servers: [{ url: baseUrl, description: 'Where this build is published.' }],
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    security: [],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths: {
      [LISTING_PATH]: listingOperations('Listing', [ref('parameters', 'Page'), ref('parameters', 'Format')], 'A page of the listing'),
      // The file form after the path form: a router that tries templates in turn tries `{page}.json` before `{page}` (which would take `2.json` as the page).
      [`${PAGE_PATH_PREFIX}{page}`]: listingOperations(
        'PagePath',
        [ref('parameters', 'PageNumber'), ref('parameters', 'Format')],
        'A page of the listing, by path (where the host maps it to its file)',
      ),
      [`${PAGE_PATH_PREFIX}{page}${PAGE_FILE_EXTENSION}`]: listingOperations(
        'PageFile',
        [ref('parameters', 'PageNumber'), ref('parameters', 'Format')],
        'A page of the listing, as its plain file (answered on every host)',
      ),
      [PUBLISHED.allJson]: fileOperations('AllJson', 'Every record, in listing order', jsonOf('CarModels')),
      [PUBLISHED.allCsv]: fileOperations('AllCsv', 'Every record as CSV in the input format', {
        'text/csv': { schema: { type: 'string', description: 'The CSV a build reads: building from it gives the same pages.' } },
      }),
      [PUBLISHED.manifest]: fileOperations('Manifest', 'The build manifest', jsonOf('Manifest'), [], noCacheHeaders),
      [PUBLISHED.changes]: fileOperations(
        'Changes',
        'The changes of the last build that changed anything, and the history',
        jsonOf('Changes'),
        [],
        noCacheHeaders,
      ),
      [changeDocumentPath('{buildId}')]: fileOperations('ChangeDocument', 'The changes of one build', jsonOf('ChangeDocument'), [
        pathParameter('buildId', 'A build id of the history.', { type: 'string' }, '0mwwse4wy-a12e793a'),
      ]),
      [PUBLISHED.openApi]: fileOperations('OpenApi', 'This OpenAPI document', {
        'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document.' } },
      }),
      [schemaPath('{name}')]: fileOperations(
        'JsonSchema',
        'A JSON Schema (2020-12) of the contract',
        { 'application/json': { schema: { type: 'object', description: 'A JSON Schema document.' } } },
        [pathParameter('name', 'Which schema.', { type: 'string', enum: Object.keys(JSON_SCHEMAS) }, 'page')],
      ),
    },
    components: sharedComponents(baseUrl),
  };
}
