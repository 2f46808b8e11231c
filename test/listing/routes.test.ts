import { describe, expect, it } from 'vitest';
import {
  resolveListingRequest,
  BODIES,
  htmlPageFile,
  htmlPagePath,
  linkHeader,
  LISTING_HEADERS,
  pageFile,
  pageLink,
  pagePath,
} from '../../src/listing/routes.ts';

const state = { count: 23, baseUrl: 'https://cars.example.com' };
const ask = (method: string, target: string) => {
  const url = new URL(target, 'http://preview');
  return resolveListingRequest({ method, pathname: url.pathname, query: url.searchParams }, state);
};

describe('the route table', () => {
  it('maps every page to one URL and one .json file', () => {
    expect(pagePath(3)).toBe('/car/api/capture_car/latest/page/3');
    expect(pageFile(3)).toBe('car/api/capture_car/latest/page/3.json');
    expect(pageLink('https://cars.example.com', 3)).toBe('https://cars.example.com/car/api/capture_car/latest?format=api&page=3');
  });

  it('names the HTML pages: the home page, then /page/N/', () => {
    expect([htmlPageFile(1), htmlPageFile(7)]).toEqual(['index.html', 'page/7/index.html']);
    expect([htmlPagePath(1), htmlPagePath(7)]).toEqual(['/', '/page/7/']);
  });

  it('links next and prev in RFC 8288 form', () => {
    expect(linkHeader(2, state)).toBe(
      '<https://cars.example.com/car/api/capture_car/latest?format=api&page=3>; rel="next", ' +
        '<https://cars.example.com/car/api/capture_car/latest?format=api&page=1>; rel="prev"',
    );
    expect(linkHeader(1, { ...state, count: 5 })).toBeUndefined();
  });
});

describe('resolveListingRequest answers as the origin does', () => {
  it('serves the page selected by the query or the path, with the listing headers', () => {
    for (const target of [
      '/car/api/capture_car/latest?page=2',
      '/car/api/capture_car/latest?format=api&page=2',
      '/car/api/capture_car/latest?page=2&format=json',
      '/car/api/capture_car/latest/page/2',
    ]) {
      const answer = ask('GET', target);
      expect(answer).toMatchObject({ status: 200, page: 2 });
      expect(answer.headers).toMatchObject(LISTING_HEADERS);
    }
    expect(ask('HEAD', '/car/api/capture_car/latest')).toMatchObject({ status: 200, page: 1 });
    expect(ask('GET', '/car/api/capture_car/latest?page=last')).toMatchObject({ status: 200, page: 3 });
    expect(ask('GET', '/car/api/capture_car/latest?page=1&page=3')).toMatchObject({ status: 200, page: 3 });
  });

  it('rejects pages that do not exist', () => {
    for (const target of ['?page=0', '?page=4', '?page=abc', '/page/0', '/page/4', '/page/01', '/page/x']) {
      expect(ask('GET', `/car/api/capture_car/latest${target}`)).toMatchObject({ status: 404, body: BODIES.invalidPage });
    }
  });

  it('checks the format before the method, and the method before the page', () => {
    expect(ask('POST', '/car/api/capture_car/latest?format=xml')).toMatchObject({ status: 404, body: BODIES.notFound });
    expect(ask('POST', '/car/api/capture_car/latest?page=99')).toMatchObject({
      status: 405,
      body: '{"detail":"Method \\"POST\\" not allowed."}',
    });
    expect(ask('OPTIONS', '/car/api/capture_car/latest?page=99')).toMatchObject({ status: 200, body: BODIES.options });
    expect(ask('GET', '/car/api/capture_car/latest?format=')).toMatchObject({ status: 200, page: 1 });
  });

  it('answers unknown paths under the listing with Not found', () => {
    expect(ask('GET', '/car/api/capture_car/latest/')).toMatchObject({ status: 404, body: BODIES.notFound });
    expect(ask('GET', '/car/api/capture_car/latest/detail/1')).toMatchObject({ status: 404, body: BODIES.notFound });
  });
});
