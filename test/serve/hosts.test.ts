/**
 * The published tree as an S3 bucket sees it. S3 lists keys in byte order, where '-' and '.' sort
 * before '/', and `aws s3 sync` walks local names in another order: a folder `X/` beside a name
 * `X.json` (or `X-…`) makes one `sync --delete` upload and delete the same key.
 */
import { describe, expect, it } from 'vitest';
import { pageNumbers } from '../../src/listing/pagination.ts';
import { ERROR_FILES, ERRORS_FOLDER, htmlPageFiles, pageFile, PUBLISHED } from '../../src/listing/routes.ts';
import { hostFiles } from '../../src/serve/hosts/index.ts';
import { HOST_CONFIGURATION_NAMES, PER_PAGE_RULE_LIMIT } from '../../src/serve/hosts/shared.ts';

/** Every folder `X/` among `paths` and the path beside it that starts with `X` and a character before '/'. */
function pairings(paths: readonly string[]): string[] {
  const folders = new Set(
    paths.flatMap((path) =>
      path
        .split('/')
        .slice(0, -1)
        .map((_, index, parts) => parts.slice(0, index + 1).join('/')),
    ),
  );
  return [...folders].flatMap((folder) =>
    paths
      .filter((path) => path.startsWith(folder) && path.length > folder.length && path[folder.length]! < '/')
      .map((path) => `${folder}/ beside ${path}`),
  );
}

/** The site's own files: what every build publishes whatever the host. */
function siteFiles(count: number): string[] {
  return [
    ...Object.values(ERROR_FILES).map(({ file }) => file),
    ...Object.values(PUBLISHED).map((path) => path.slice(1)),
    ...pageNumbers(count).flatMap((page) => [pageFile(page), ...htmlPageFiles(page)]),
  ];
}

describe("the hosts' files in the site", () => {
  it('are each named in HOST_CONFIGURATION_NAMES or under ERRORS_FOLDER, which nginx and the preview server refuse', async () => {
    const input = {
      count: 23,
      baseUrl: 'https://cars.example.com',
      assetsUrl: 'https://cdn.example.com/assets',
      siteDir: '/srv/site/dist',
    };
    const inSite = (await hostFiles(input, '/srv/site/deploy')).filter((file) => file.place === 'site').map((file) => file.path);
    const names: readonly string[] = HOST_CONFIGURATION_NAMES;
    const unnamed = inSite.filter((path) => !path.startsWith(`${ERRORS_FOLDER}/`) && !names.includes(path.split('/').at(-1)!));
    expect(unnamed).toEqual([]);
  });
});

describe('the published tree', () => {
  it('finds a folder beside a name that sorts before it: the Apache error folders as they were', () => {
    expect(pairings(['_errors/not-found.json', '_errors/not-found/.htaccess', '_errors/options.json'])).toEqual([
      '_errors/not-found/ beside _errors/not-found.json',
    ]);
    expect(pairings(['a-b/c', 'a/c'])).toEqual(['a/ beside a-b/c']);
    expect(pairings(['a/b', 'a0', 'ab/c'])).toEqual([]);
  });

  // Small listings get per-page rules, large ones do not: both sets of host files.
  it.each([23, PER_PAGE_RULE_LIMIT * 10 + 7])(
    'has no folder beside a name that sorts before it, with every host file (%i rows)',
    async (count) => {
      const input = { count, baseUrl: 'https://cars.example.com', assetsUrl: 'https://cdn.example.com/assets', siteDir: '/srv/site/dist' };
      const hosts = (await hostFiles(input, '/srv/site/deploy')).filter((file) => file.place === 'site').map((file) => file.path);
      // The Apache error folders are the ones that were paired: they must be among what is checked.
      expect(hosts.filter((path) => path.startsWith('_errors/') && path.endsWith('/.htaccess'))).toHaveLength(
        Object.keys(ERROR_FILES).length,
      );
      expect(pairings([...new Set([...hosts, ...siteFiles(count)])])).toEqual([]);
    },
  );
});
