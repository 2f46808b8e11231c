/**
 * Cloudflare Workers static assets: the worker (src/serve/edge/cloudflare-worker.ts, bundled with the
 * listing's state) runs first on the listing's paths; `_headers` (shared with Netlify) covers the
 * rest, and `.assetsignore` keeps the other hosts' files out of the assets (Cloudflare would read
 * Netlify's `_redirects` and warn about every rule it cannot take).
 */
import { relative, resolve } from 'node:path';
import { FIRST_PAGE_REDIRECTS, LISTING_PATH } from '../../listing/routes.ts';
import { bundleEdge } from './edge-bundle.ts';
import { HOST_CONFIGURATION_NAMES, type HostFile, type HostInput } from './shared.ts';

/**
 * Old enough for every wrangler release of the past six months (a workerd binary refuses dates
 * newer than itself), new enough for static assets with `run_worker_first` routes.
 */
const COMPATIBILITY_DATE = '2025-10-01';

/** Files in the site that are other hosts' configuration, not assets (`_headers` is Cloudflare's own). */
const NOT_ASSETS = HOST_CONFIGURATION_NAMES.filter((name) => name !== '_headers');

/** Wrangler's configuration: the site as static assets, the worker first on the listing's paths. */
function wranglerConfig(input: HostInput, deployDir: string): string {
  const config = {
    name: 'capture-car-listing',
    main: './worker.js',
    compatibility_date: COMPATIBILITY_DATE,
    assets: {
      directory: relative(resolve(deployDir, 'cloudflare'), resolve(input.siteDir)) || '.',
      binding: 'ASSETS',
      // The listing's paths, and page 1 by its number, which the worker sends to the home page.
      run_worker_first: [LISTING_PATH, `${LISTING_PATH}/*`, ...FIRST_PAGE_REDIRECTS.map(({ from }) => from)],
      not_found_handling: '404-page',
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export async function cloudflareFiles(input: HostInput, deployDir: string): Promise<HostFile[]> {
  return [
    { place: 'deploy', path: 'cloudflare/worker.js', content: await bundleEdge('cloudflare-worker', input) },
    { place: 'deploy', path: 'cloudflare/wrangler.json', content: wranglerConfig(input, deployDir) },
    { place: 'site', path: '.assetsignore', content: `${NOT_ASSETS.join('\n')}\n` },
  ];
}
