/** Test helpers: fixtures, the real build and check-data scripts, and tree hashes. */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cleanEnvironment, projectRoot } from '../../scripts/lib/servers.ts';

export { freePort, projectRoot, startPreview, tempDir, type RunningPreview } from '../../scripts/lib/servers.ts';

export const fixture = (name: string): string => join(projectRoot, 'test/fixtures', name);

/** Runs one of the project's npm scripts (by its file) with the given environment. */
export function runScript(script: string, env: Record<string, string>, args: string[] = []): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [join(projectRoot, 'scripts', script), ...args], {
    cwd: projectRoot,
    env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
}

/** The build as `npm run build` runs it: Astro's build, whose listing integration validates, builds and publishes (scripts/build.ts). */
export const ASTRO_BUILD = [join(projectRoot, 'scripts/build.ts')];

/** Runs the real build with the given environment (in the project, or in a copy of it at `root`). */
export function runBuild(env: Record<string, string>, root = projectRoot): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ASTRO_BUILD, {
    cwd: root,
    env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
}

/** Builds `dataFile` into `outDir` with the real build; throws with its output on failure. */
export function buildSite(env: { DATA_FILE: string; OUT_DIR: string } & Record<string, string>): void {
  const result = runBuild({ DEPLOY_DIR: `${env.OUT_DIR}-deploy`, ...env });
  if (result.status !== 0) throw new Error(`build failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

/** Every file of a folder with its SHA-256, to prove a folder did not change. */
export function treeHashes(dir: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    hashes[relative(dir, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return hashes;
}
