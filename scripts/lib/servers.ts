/**
 * Starting and stopping the project's servers from another process: the real preview script on a
 * free loopback port, and any child process. Shared by the tests and the bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES } from '../../src/config.ts';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

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

/**
 * Variables vitest sets in its own environment that a child Vite (astro dev, astro build) would
 * read as under test: its own, and its copies of `import.meta.env` (`MODE=test`, `DEV=1`), which
 * Astro gives the pages' server code as their `import.meta.env` (every variable of the
 * environment is there).
 */
const VITEST_VARIABLES = new Set(['NODE_ENV', 'TEST', 'MODE', 'DEV', 'PROD', 'SSR']);

/**
 * The GitHub Actions runner's variables the scripts read (src/ci/): where the tests themselves run
 * as a step of a job, a script they start writes plain output unless a test sets them.
 */
const RUNNER_VARIABLES = ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'GITHUB_WORKSPACE'];

/**
 * This process's environment without the project's configuration (every variable src/config.ts
 * reads: Vite sets BASE_URL=/ in it, and a maintainer's shell may hold ALLOW_SHRINK=1), without
 * the runner's (see RUNNER_VARIABLES) and without vitest's variables (see VITEST_VARIABLES).
 */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [...CONFIG_VARIABLES, ...RUNNER_VARIABLES]) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || VITEST_VARIABLES.has(name)) delete env[name];
  return env;
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

export interface RunningDevServer extends RunningPreview {
  /** What it printed so far (standard output and error). */
  output: () => string;
}

/** Starts `astro dev` (the listing integration's dev server) on a free port and waits until it serves. */
export async function startDevServer(env: { DATA_FILE: string } & Record<string, string>): Promise<RunningDevServer> {
  const port = env['PORT'] ?? String(await freePort());
  const child = spawn(
    process.execPath,
    [join(projectRoot, 'node_modules/astro/bin/astro.mjs'), 'dev', '--host', '127.0.0.1', '--port', port],
    {
      cwd: projectRoot,
      env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env, PORT: port },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const origin = `http://127.0.0.1:${port}`;
  // The home page once it is made (before, the server may answer with an error page).
  await waitForHttp(origin, { child, output: () => output, timeoutMs: 120_000, ready: (response) => response.ok });
  return { origin, output: () => output, stop: () => stopChild(child, 'SIGTERM') };
}

/**
 * Waits until `origin` answers HTTP (`ready` says which answer counts: any, unless told), or the
 * child serving it exits, or the time is up; each failure says what the child printed.
 */
export async function waitForHttp(
  origin: string,
  {
    child,
    output,
    timeoutMs = 60_000,
    ready = () => true,
  }: { child?: ChildProcess; output: () => string; timeoutMs?: number; ready?: (response: Response) => boolean },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${origin}: its server exited with ${child.exitCode}:\n${output()}`);
    const answered = await fetch(`${origin}/`, { signal: AbortSignal.timeout(2000) }).then(
      (response) => ready(response),
      () => false,
    );
    if (answered) return;
    await new Promise((wait) => setTimeout(wait, 200));
  }
  throw new Error(`${origin} did not answer in ${timeoutMs} ms:\n${output()}`);
}

/** Sends `signal` to a child process and resolves once it has exited. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((stopped) => {
    if (child.exitCode !== null || child.signalCode !== null) return stopped();
    child.once('exit', () => stopped());
    child.kill(signal);
  });
}
