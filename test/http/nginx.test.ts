/**
 * The generated nginx configuration on a real nginx over the real fixture build, with the same
 * behaviour suite as the preview server. nginx's differences are asserted, not skipped:
 * it reads the first repeated `page` (DRF the last), takes only digits as a page number (DRF's
 * int() also takes ' 2 ', '+2', '1_0'), and answers other methods on static files with its own 405.
 */
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import { hasNginx, startNginx, type RunningNginx } from '../../scripts/lib/nginx.ts';

// CI installs nginx (.ci/run); elsewhere the suite is skipped, loudly, when it is missing.
const required = process.env['CI'] === 'true';
if (!hasNginx && !required) console.warn('nginx is not installed: skipping the nginx suite (apt-get install nginx)');

describe.runIf(hasNginx || required)('nginx with the generated configuration', () => {
  let nginx: RunningNginx | undefined;
  beforeAll(async () => {
    nginx = await startNginx(inject('deployDir'));
  });
  afterAll(async () => {
    await nginx?.stop();
  });

  listingBehaviour({
    origin: () => nginx?.origin ?? '',
    outDir: inject('outDir'),
    baseUrl: inject('baseUrl'),
    differences: { repeatedPageTakesFirst: true, onlyDigitPages: true, ownStaticMethodNotAllowed: true },
  });
});
