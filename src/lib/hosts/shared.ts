/** What every host configuration generator takes and gives. */
import type { ListingState } from '../routes.ts';

/** The built listing a configuration is generated for. */
export interface HostInput extends ListingState {
  assetsUrl: string;
  /** Absolute path of the published site (for configurations that name it, like nginx's root). */
  siteDir: string;
}

/** A generated file: `path` is relative to the site (`site`) or to the deploy folder (`deploy`). */
export interface HostFile {
  place: 'site' | 'deploy';
  path: string;
  content: string;
}

/** Above this many pages, per-page rules (Link headers, explicit page rules) are left out. */
export const PER_PAGE_RULE_LIMIT = 500;
