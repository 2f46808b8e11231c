/**
 * Builds the 23-row fixture listing once with the real build script and serves it with the real
 * preview server for every test file that needs a running site.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSite, fixture, freePort, startPreview, tempDir } from './site.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The preview server's origin, e.g. http://127.0.0.1:40123 */
    origin: string;
    /** The built fixture site's folder. */
    outDir: string;
    /** The BASE_URL the fixture site was built with (its JSON links point there). */
    baseUrl: string;
    /** The host configurations generated with the fixture site. */
    deployDir: string;
  }
}

export const FIXTURE_BASE_URL = 'https://cars.example.com';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outDir = `${tempDir('listing-site')}/dist`;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const deployDir = `${dirname(outDir)}/deploy`;
  buildSite({
    DATA_FILE: fixture('listing-23.csv'),
    OUT_DIR: outDir,
    DEPLOY_DIR: deployDir,
    BASE_URL: FIXTURE_BASE_URL,
    ASSETS_URL: `${origin}/assets`,
  });
  const preview = await startPreview({ OUT_DIR: outDir, PORT: String(port) });
  project.provide('origin', preview.origin);
  project.provide('outDir', outDir);
  project.provide('baseUrl', FIXTURE_BASE_URL);
  project.provide('deployDir', deployDir);
  return async () => {
    await preview.stop();
    rmSync(dirname(outDir), { recursive: true, force: true });
  };
}
