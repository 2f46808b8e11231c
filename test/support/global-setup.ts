/**
 * Builds the 23-row fixture listing once with the real build script and serves it with the real
 * preview server for every test file that needs a running site.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSite, fixture, freePort, startPreview, tempDir, type RunningPreview } from './site.ts';

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

interface FixtureSite {
  outDir: string;
  deployDir: string;
  preview: RunningPreview;
}

/**
 * The one fixture site of this Vitest process, and how many projects use it. Vitest runs each
 * project's global setup, one after another before any test, so each e2e project built and served
 * a site of its own (about 5 s each): the projects share one, on `globalThis`, as each project may
 * load this module afresh. The last project's teardown stops it.
 */
const SHARED = Symbol.for('listing:fixture-site');
interface Shared {
  site: Promise<FixtureSite>;
  users: number;
}
const shared = globalThis as { [SHARED]?: Shared };

async function fixtureSite(): Promise<FixtureSite> {
  const outDir = `${tempDir('listing-site')}/dist`;
  const port = await freePort();
  const deployDir = `${dirname(outDir)}/deploy`;
  buildSite({
    DATA_FILE: fixture('listing-23.csv'),
    OUT_DIR: outDir,
    DEPLOY_DIR: deployDir,
    BASE_URL: FIXTURE_BASE_URL,
    ASSETS_URL: `http://127.0.0.1:${port}/assets`,
  });
  const preview = await startPreview({ OUT_DIR: outDir, PORT: String(port) });
  return { outDir, deployDir, preview };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const state = (shared[SHARED] ??= { site: fixtureSite(), users: 0 });
  state.users += 1;
  const { outDir, deployDir, preview } = await state.site;
  project.provide('origin', preview.origin);
  project.provide('outDir', outDir);
  project.provide('baseUrl', FIXTURE_BASE_URL);
  project.provide('deployDir', deployDir);
  return async () => {
    state.users -= 1;
    if (state.users > 0) return;
    delete shared[SHARED];
    await preview.stop();
    rmSync(dirname(outDir), { recursive: true, force: true });
  };
}
