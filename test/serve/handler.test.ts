/**
 * The one request handler (src/serve/handler.ts), as every host that runs it answers: a page with
 * the listing's headers, its length and a strong ETag of its bytes; 304 for a matching
 * If-None-Match; HEAD as GET; DRF's 404 bodies, OPTIONS' metadata, 405 with `Allow`; a missing page
 * file a 500 that says so; a path that does not decode a 400.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BODIES, LISTING_HEADERS, LISTING_PATH } from '../../src/listing/routes.ts';
import { listingReply, listingResponse, type ListingSite } from '../../src/serve/handler.ts';

const pageBytes = (page: number) => new TextEncoder().encode(`{"page":${page},"results":["é"]}`);
const etagOf = (bytes: Uint8Array) => `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;

/** A built listing of 23 models (3 pages) whose page files are read from memory, each read recorded. */
function site(overrides: Partial<ListingSite> = {}): ListingSite & { reads: number[] } {
  const reads: number[] = [];
  return {
    state: { count: 23, baseUrl: 'https://cars.example.com' },
    readPage: (page) => {
      reads.push(page);
      return Promise.resolve(pageBytes(page));
    },
    reads,
    ...overrides,
  };
}

const ask = (target: string, { method = 'GET', ifNoneMatch = null as string | null, on = site() } = {}) =>
  listingReply({ method, url: new URL(target, 'https://cars.example.com'), ifNoneMatch }, on);

describe('the listing handler', () => {
  it('answers a page with its bytes, the listing headers, its length and a strong ETag of its bytes', async () => {
    const on = site();
    const reply = await ask(`${LISTING_PATH}?page=2`, { on });
    expect(on.reads).toEqual([2]);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(pageBytes(2));
    expect(reply.headers).toMatchObject({
      ...LISTING_HEADERS,
      ETag: etagOf(pageBytes(2)),
      'Content-Length': String(pageBytes(2).byteLength),
    });
    // The same page by its path: the same answer.
    expect(await ask(`${LISTING_PATH}/page/2`)).toEqual(reply);
  });

  it('takes the ETag from the hash the host knows (the manifest) instead of hashing the bytes', async () => {
    const reply = await ask(`${LISTING_PATH}?page=3`, { on: site({ pageHash: (page) => (page === 3 ? 'ab'.repeat(32) : undefined) }) });
    expect(reply.headers['ETag']).toBe(`"${'ab'.repeat(16)}"`);
  });

  it.each([
    ['the ETag', (etag: string) => etag],
    ['a weak form of it', (etag: string) => `W/${etag}`],
    ['a list holding it', (etag: string) => `"other", ${etag}`],
    ['*', () => '*'],
  ])('answers 304, without a body but with the ETag, to If-None-Match with %s', async (_, header) => {
    const etag = etagOf(pageBytes(1));
    const reply = await ask(LISTING_PATH, { ifNoneMatch: header(etag) });
    expect(reply).toEqual({ status: 304, headers: expect.objectContaining({ ETag: etag }) as unknown, body: '' });
    const response = await listingResponse(
      new Request(`https://cars.example.com${LISTING_PATH}`, { headers: { 'If-None-Match': header(etag) } }),
      site(),
    );
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
  });

  it('answers 200 to If-None-Match with another ETag', async () => {
    expect((await ask(LISTING_PATH, { ifNoneMatch: '"0123", W/"4567"' })).status).toBe(200);
  });

  it("answers HEAD with GET's status and headers (and the body, which servers drop, keeping its length)", async () => {
    const get = await ask(`${LISTING_PATH}?page=2`);
    expect(await ask(`${LISTING_PATH}?page=2`, { method: 'HEAD' })).toEqual(get);
  });

  it("answers DRF's 404 bodies: a page that does not exist, a path that is not the listing's", async () => {
    const on = site();
    for (const target of [`${LISTING_PATH}?page=4`, `${LISTING_PATH}?page=0`, `${LISTING_PATH}/page/9`, `${LISTING_PATH}?page=x`]) {
      expect(await ask(target, { on }), target).toEqual({ status: 404, headers: { ...LISTING_HEADERS }, body: BODIES.invalidPage });
    }
    expect(await ask(`${LISTING_PATH}/detail/1`, { on })).toEqual({ status: 404, headers: { ...LISTING_HEADERS }, body: BODIES.notFound });
    expect(await ask(`${LISTING_PATH}?format=xml`, { on })).toEqual({
      status: 404,
      headers: { ...LISTING_HEADERS },
      body: BODIES.notFound,
    });
    expect(on.reads).toEqual([]);
  });

  it('answers OPTIONS with the metadata, and other methods with 405 and Allow', async () => {
    expect(await ask(LISTING_PATH, { method: 'OPTIONS' })).toEqual({ status: 200, headers: { ...LISTING_HEADERS }, body: BODIES.options });
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const reply = await ask(`${LISTING_PATH}?page=2`, { method });
      expect(reply).toEqual({ status: 405, headers: { ...LISTING_HEADERS }, body: `{"detail":"Method \\"${method}\\" not allowed."}` });
      expect(reply.headers['Allow']).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('answers 500, saying so, when the page file is missing from the built site', async () => {
    const reply = await ask(LISTING_PATH, { on: site({ readPage: () => Promise.resolve(undefined) }) });
    expect(reply).toEqual({
      status: 500,
      headers: { 'Content-Type': 'application/json' },
      body: '{"detail":"The page file is missing from the built site."}',
    });
  });

  it('answers 400 to a path that does not decode', async () => {
    expect(await ask(`${LISTING_PATH}/page/%E0%A4%A`)).toEqual({
      status: 400,
      headers: { 'Content-Type': 'application/json' },
      body: '{"detail":"Bad request."}',
    });
  });

  it('gives the same answer on the Fetch API', async () => {
    const response = await listingResponse(new Request(`https://cars.example.com${LISTING_PATH}?page=2`), site());
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pageBytes(2));
    expect(response.headers.get('etag')).toBe(etagOf(pageBytes(2)));
    const refused = await listingResponse(new Request(`https://cars.example.com${LISTING_PATH}`, { method: 'POST' }), site());
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
