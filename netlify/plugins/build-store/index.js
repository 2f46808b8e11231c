/**
 * Keeps the build store in Netlify's build cache (docs/deploy.md#netlify): restored before the
 * build, so that it is incremental and its guard and history see the last published build, and
 * saved after it. The store, `dist` and `deploy` go together: the two links name the published
 * build, and a store without them is no published build. Says which folder Netlify publishes, and
 * which build that is (its manifest's id).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const STORE = ['.dist.builds', 'dist', 'deploy'];

export const onPreBuild = async ({ utils }) => {
  const restored = [];
  for (const path of STORE) if (await utils.cache.restore(path)) restored.push(path);
  console.log(
    restored.length > 0
      ? `build store restored from the build cache: ${restored.join(', ')}`
      : 'no build store in the build cache: a clean build',
  );
};

export const onPostBuild = async ({ utils, constants }) => {
  await utils.cache.save(STORE);
  const { buildId } = JSON.parse(readFileSync(join(constants.PUBLISH_DIR, 'manifest.json'), 'utf8'));
  console.log(`build store saved to the build cache; Netlify publishes ${constants.PUBLISH_DIR}: build ${buildId}`);
};
