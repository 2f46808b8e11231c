/** What every host configuration generator takes and gives. */
import toRegexRange from 'to-regex-range';
import { pageCount } from '../../listing/pagination.ts';
import type { ListingState } from '../../listing/routes.ts';

/** The built listing a configuration is generated for. */
export interface HostInput extends ListingState {
  assetsUrl: string;
  /** Absolute path of the published site (for configurations that name it, like nginx's root). */
  siteDir: string;
}

/**
 * The names of the hosts' configuration files that go into the site (`place: 'site'`), each read by
 * its host and by no other: a server that can refuse them (nginx, the preview server) answers 404.
 * Beside them, the error bodies and Apache's error folders under the route table's ERRORS_FOLDER.
 * test/serve/hosts.test.ts holds every generated site file to these.
 */
export const HOST_CONFIGURATION_NAMES = ['_headers', '_redirects', 'vercel.json', '.htaccess', '.assetsignore'] as const;

/** A generated file: `path` is relative to the site (`site`) or to the deploy folder (`deploy`). */
export interface HostFile {
  place: 'site' | 'deploy';
  path: string;
  content: string;
}

/**
 * Bodies shorter than this go uncompressed, wherever the site is served compressed (the preview
 * server, nginx): the shipped logos, 300–460 bytes, still lose a third gzipped.
 */
export const SMALLEST_COMPRESSED_BYTES = 256;

/** Above this many pages, per-page rules (Link headers, explicit page rules) are left out. */
export const PER_PAGE_RULE_LIMIT = 500;

/**
 * A regular expression source (unanchored) that matches the `page` values naming an existing page
 * as static hosts can see them: `last`, or 1 … last with optional leading zeros. The named group
 * `page` holds the number without zeros. (DRF also accepts white space, a sign and underscores.)
 */
export function pageValuePattern(count: number): string {
  return `0*(?<page>${toRegexRange(1, pageCount(count))})`;
}
