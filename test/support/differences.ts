/**
 * How a host's answers to the listing's URLs differ from the origin's, as the preview server gives
 * them: for the function-free configurations, whose differences are measured and asserted (and
 * listed in docs/hosting.md), not skipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BODIES, LISTING_HEADERS, LISTING_PATH, pageFile } from '../../src/listing/routes.ts';
import { rawRequest } from './http.ts';

/** Every listing request of the behaviour suite, as [method, path]. */
const PROBES: readonly (readonly [string, string])[] = [
  ...[
    '',
    '?page=2',
    '?format=api&page=2',
    '?page=2&format=json',
    '?page=02',
    '?utm_source=x&page=2',
    '/page/2',
    '/page/2.json',
    '?page=1&page=2',
    '?page=%202%20',
    '?page=%2B2',
    '?page=0_2',
    '?page=',
    '?format=api',
    '?format=',
    '?page=last',
    '?page=0',
    '?page=-1',
    '?page=abc',
    '?page=1.5',
    '?page=2.0',
    '?page=4',
    '?page=LAST',
    '/page/0',
    '/page/4',
    '/page/abc',
    '/page/01',
    '?format=xml',
    '?format=xml&page=2',
    '?format=JSON',
    '/detail/1',
  ].map((suffix) => ['GET', `${LISTING_PATH}${suffix}`] as const),
  ['HEAD', `${LISTING_PATH}?page=2`],
  ['HEAD', `${LISTING_PATH}?page=9`],
  ['OPTIONS', LISTING_PATH],
  ['POST', `${LISTING_PATH}?page=1`],
  ['DELETE', `${LISTING_PATH}?page=1`],
  ['POST', `${LISTING_PATH}?format=xml`],
  ['POST', '/manifest.json'],
];

/** One answer in a few words: status, which body, and whether the listing's headers are as the origin's. */
async function summary(origin: string, method: string, path: string, outDir: string): Promise<string> {
  const response = await rawRequest(origin, method, path);
  const bodies: Record<string, string> = {
    'Invalid page.': BODIES.invalidPage,
    'Not found.': BODIES.notFound,
    'DRF metadata': BODIES.options,
    [`405 "${method}"`]: BODIES.methodNotAllowed(method),
    '': '',
  };
  for (const page of [1, 2, 3]) bodies[`page ${page}`] = readFileSync(join(outDir, pageFile(page)), 'utf8');
  const header = (name: string) => {
    const value = response.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const body =
    Object.entries(bodies).find(([, text]) => text === response.body)?.[0] ?? `other ${(header('Content-Type') ?? '').split(';')[0]}`;
  // Methods as a set: Apache lists its own in no fixed order.
  const methods = (allow: string | undefined) =>
    allow === undefined ? 'none' : [...new Set(allow.split(',').map((method) => method.trim()))].sort().join(', ');
  const notes = [
    header('Content-Type') === LISTING_HEADERS['Content-Type'] ? undefined : `Content-Type ${header('Content-Type') ?? 'none'}`,
    methods(header('Allow')) === methods(LISTING_HEADERS.Allow) ? undefined : `Allow ${methods(header('Allow'))}`,
    header('Link') === undefined ? 'no Link' : undefined,
  ].filter(Boolean);
  return `${response.status} ${body || '(no body)'}${notes.length > 0 ? ` [${notes.join('; ')}]` : ''}`;
}

/** `METHOD path: origin's answer → host's answer`, for every probe where they differ. */
export async function differencesFrom(reference: string, host: string, outDir: string): Promise<string[]> {
  const differences: string[] = [];
  for (const [method, path] of PROBES) {
    const [expected, actual] = [await summary(reference, method, path, outDir), await summary(host, method, path, outDir)];
    if (expected !== actual) differences.push(`${method} ${path}: ${expected} → ${actual}`);
  }
  return differences;
}
