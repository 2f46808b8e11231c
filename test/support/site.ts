/** Test helpers: fixtures, the real build and check-data scripts, and tree hashes. */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { cleanEnvironment, projectRoot } from '../../scripts/lib/servers.ts';
import { EXIT_SAFE_V8_FLAGS } from '../../src/integration/exit-safe-v8.ts';

export { freePort, projectRoot, startPreview, tempDir, type RunningPreview } from '../../scripts/lib/servers.ts';

export const fixture = (name: string): string => join(projectRoot, 'test/fixtures', name);

/**
 * Runs one of the project's npm scripts (by its file in scripts/) as npm runs it, with the given
 * environment and nothing of the test's own configuration, in the project or in a copy of it at `root`.
 */
export function runScript(
  script: string,
  env: Record<string, string>,
  { args = [], root = projectRoot, nodeFlags = [] }: { args?: string[]; root?: string; nodeFlags?: readonly string[] } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...nodeFlags, join(projectRoot, 'scripts', script), ...args], {
    cwd: root,
    env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env },
    encoding: 'utf8',
    timeout: 300_000,
    // A build hung in its own exit (a Node/V8 deadlock seen once in `process.exit`) no longer runs
    // its SIGTERM handler: only SIGKILL ends it, and the one test fails instead of CI hanging.
    killSignal: 'SIGKILL',
  });
}

/**
 * The build as `npm run build` runs it: Astro's build, whose listing integration validates, builds
 * and publishes (scripts/build.ts), with the V8 flags it is given on the command line (not its heap
 * limits: the tests' listings are small).
 */
export const ASTRO_BUILD = [...EXIT_SAFE_V8_FLAGS, join(projectRoot, 'scripts/build.ts')];

/** Runs the real build with the given environment (in the project, or in a copy of it at `root`). */
export const runBuild = (env: Record<string, string>, root = projectRoot): SpawnSyncReturns<string> =>
  runScript('build.ts', env, { root, nodeFlags: EXIT_SAFE_V8_FLAGS });

/** Builds `dataFile` into `outDir` with the real build (in the project, or in a copy of it at `root`); throws with its output on failure. */
export function buildSite(env: { DATA_FILE: string; OUT_DIR: string } & Record<string, string>, root = projectRoot): void {
  const result = runBuild({ DEPLOY_DIR: `${env.OUT_DIR}-deploy`, ...env }, root);
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

/**
 * A copy of the project in `workspace` (its sources and embedded data, not its build), so that its
 * caches, build lock and sources are a test's own: its node_modules folder holds links to the
 * project's packages, so Astro's cache folder (node_modules/.astro) is the copy's own, on the
 * copy's file system. A test file that builds only in copies of its own can run beside others.
 */
export function projectCopy(workspace: string): string {
  const copy = join(workspace, 'project');
  mkdirSync(copy, { recursive: true });
  for (const entry of ['src', 'public', 'data', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(projectRoot, entry), join(copy, entry), { recursive: true });
  }
  mkdirSync(join(copy, 'node_modules'));
  for (const entry of readdirSync(join(projectRoot, 'node_modules'))) {
    if (entry !== '.astro') symlinkSync(join(projectRoot, 'node_modules', entry), join(copy, 'node_modules', entry));
  }
  return copy;
}

/** Whether a site path is one that describes a build (its id, time, changes) rather than the data. */
export const describesBuild = (path: string): boolean => path === 'manifest.json' || path === 'changes.json' || path.startsWith('history/');

/** A tree's hashes (`treeHashes`) without the files that describe the build: what the data and the code make. */
export const withoutBuildDescription = (hashes: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(hashes).filter(([path]) => !describesBuild(path)));

/**
 * A site's files by hash, without what describes the build rather than the data: the manifest's
 * build id, time and the build that changed the files (and its entries of the change documents),
 * `changes.json` and the change documents (named by build id).
 */
export function publishedTree(dir: string): Record<string, string> {
  const { 'changes.json': changes, 'manifest.json': _manifest, ...files } = treeHashes(dir);
  expect(changes).toBeDefined();
  const {
    builtAt,
    buildId,
    changedBy,
    files: hashes,
    ...manifest
  } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
    builtAt: string;
    buildId: string;
    changedBy: string;
    files: Record<string, string>;
  };
  expect(builtAt).toMatch(/^\d{4}-/);
  expect(buildId).toMatch(/^[0-9a-z]+-[0-9a-f]+$/);
  expect(changedBy).toMatch(/^[0-9a-z]+-[0-9a-f]+$/);
  const isDescription = (path: string) => path === 'changes.json' || path.startsWith('history/');
  const data = Object.fromEntries(Object.entries(files).filter(([path]) => !isDescription(path)));
  const dataHashes = Object.fromEntries(Object.entries(hashes).filter(([path]) => !isDescription(path)));
  return { ...data, 'manifest.json (what describes the data)': JSON.stringify({ ...manifest, files: dataHashes }) };
}

/** The folders of a tree (a host may answer for an empty folder). */
export const foldersIn = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();

/** The JSON and HTML pages a build rendered, by its log. */
export const renderedPages = (log: string): { json: number; html: number } => {
  const [, json, html] = /rendering ([\d,]+) of [\d,]+ JSON and ([\d,]+) of [\d,]+ HTML pages/.exec(log) ?? [];
  return { json: Number(json), html: Number(html) };
};

/** Every published file's bytes, inode and time: what must not change when a build fails or is stopped. */
export function publishedState(site: string): Record<string, string> {
  const state: Record<string, string> = {};
  for (const [path, hash] of Object.entries(treeHashes(site))) {
    const stats = statSync(join(site, path), { bigint: true });
    state[path] = `${hash} ${stats.ino} ${stats.mtimeNs}`;
  }
  return state;
}
