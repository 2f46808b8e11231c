/** Test helpers: build a site from a CSV with the real build script, and run the real preview server. */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const fixture = (name: string): string => join(projectRoot, 'test/fixtures', name);

/** A fresh temporary folder. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  // Readable by other users, such as the nginx worker serving a built site from it.
  chmodSync(dir, 0o755);
  return dir;
}

/** A port that was free a moment ago, on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

const CONFIG_VARIABLES = ['BASE_URL', 'ASSETS_URL', 'DATA_FILE', 'OUT_DIR', 'DEPLOY_DIR', 'PORT', 'HOST'];

/** The test process's environment without our configuration (Vite sets BASE_URL=/ in it). */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  return env;
}

/** Runs one of the project's npm scripts (by its file) with the given environment. */
export function runScript(script: string, env: Record<string, string>, args: string[] = []): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [join(projectRoot, 'scripts', script), ...args], {
    cwd: projectRoot,
    env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
}

/** Builds `dataFile` into `outDir` with the real build script; throws with its output on failure. */
export function buildSite(env: { DATA_FILE: string; OUT_DIR: string } & Record<string, string>): void {
  const result = runScript('build.ts', { DEPLOY_DIR: `${env.OUT_DIR}-deploy`, ...env });
  if (result.status !== 0) throw new Error(`build failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

export interface RunningPreview {
  origin: string;
  stop: () => Promise<void>;
}

/** Starts the real preview script on a free port and waits until it serves. */
export async function startPreview(env: { OUT_DIR: string } & Record<string, string>): Promise<RunningPreview> {
  const port = env['PORT'] ?? String(await freePort());
  const child = spawn(process.execPath, [join(projectRoot, 'scripts/preview.ts')], {
    cwd: projectRoot,
    env: { ...cleanEnvironment(), HOST: '127.0.0.1', ...env, PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((ready, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Serving')) ready();
    });
    child.once('exit', (code) => fail(new Error(`preview exited (${code}):\n${output}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child, 'SIGTERM') };
}

/** Sends `signal` to a child process and resolves once it has exited. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((stopped) => {
    if (child.exitCode !== null || child.signalCode !== null) return stopped();
    child.once('exit', () => stopped());
    child.kill(signal);
  });
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
