/**
 * The generated nginx configuration on a real nginx over the real fixture build, with the same
 * behaviour suite as the preview server. nginx's differences are asserted, not skipped:
 * it reads the first repeated `page` (DRF the last), takes only digits as a page number (DRF's
 * int() also takes ' 2 ', '+2', '1_0'), and answers other methods on static files with its own 405.
 */
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { listingBehaviour } from '../support/listing-behaviour.ts';
import { hasNginx, startNginx, type RunningNginx } from '../../scripts/lib/nginx.ts';
import { runsWith } from '../support/software.ts';


describe.runIf(runsWith(hasNginx, 'the nginx suite', 'nginx', 'apt-get install nginx'))('nginx with the generated configuration', () => {
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
