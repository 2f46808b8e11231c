/**
 * An invalid environment stops every command a maintainer types with only the message naming each
 * bad variable, and exit code 2 (README, Configuration): no stack trace, no Astro wrapper; and
 * `astro build` alone, with a valid one, is refused in one line naming `npm run build`. These
 * run the commands through npm and npx as typed, since npm run adds a layer that could change both
 * the exit code and what reaches standard error.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { cleanEnvironment, projectRoot, tempDir } from '../../scripts/lib/servers.ts';
import { storeDirOf } from '../../src/publish/store.ts';

const COMMANDS = [
  ['npm', 'run', 'build'],
  ['npx', 'astro', 'build'],
  ['npm', 'run', 'dev'],
  ['npm', 'run', 'preview'],
  ['npm', 'run', 'check-data'],
] as const;

const BAD_VARIABLES = [
  { variable: 'PORT', value: 'abc', message: 'PORT must be a whole number from 0 to 65535; got "abc"' },
  {
    variable: 'BASE_URL',
    value: 'ftp://x',
    message: 'BASE_URL must be an absolute http(s) URL such as https://cars.example.com; got "ftp://x"',
  },
] as const;

/** A refusal comes before any work: a command still running after this did not refuse. */
const REFUSAL_TIMEOUT_MS = 30_000;

// Were a command to accept the configuration after all, it writes here rather than into the project's dist/.
const workspace = tempDir('refusals-test');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

interface Outcome {
  status: number | null;
  stderr: string;
  timedOut: boolean;
}

/** Runs a command in its own process group, so that a dev server that does start is stopped with everything npm started. */
function run(command: string, args: readonly string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd: projectRoot,
      env: { ...cleanEnvironment(), ASTRO_TELEMETRY_DISABLED: '1', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    let timedOut = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, REFUSAL_TIMEOUT_MS);
    child.once('error', fail);
    child.once('close', (status) => {
      clearTimeout(timer);
      done({ status, stderr, timedOut });
    });
  });
}

describe.concurrent('an invalid environment variable', () => {
  for (const [command, ...args] of COMMANDS) {
    for (const { variable, value, message } of BAD_VARIABLES) {
      it(`stops \`${[command, ...args].join(' ')}\` with ${variable}=${value}: the message alone and exit code 2`, async ({ expect }) => {
        const outDir = join(workspace, `${args.join('-')}-${variable}`);
        const result = await run(command, args, { OUT_DIR: outDir, DEPLOY_DIR: `${outDir}-deploy`, [variable]: value });
        expect(result.timedOut, result.stderr).toBe(false);
        expect(result.status, result.stderr).toBe(2);
        expect(result.stderr).toContain(`Invalid configuration:\n  ${message}`);
        expect(result.stderr).not.toContain('Stack trace');
        expect(result.stderr).not.toMatch(/^ {4}at /m);
        expect(result.stderr).not.toContain('Unable to load');
      });
    }
  }
});

describe('`npx astro build` alone', () => {
  it('is refused in one line that says to run `npm run build`, with exit code 1, writing nothing', async ({ expect }) => {
    const outDir = join(workspace, 'astro-build-alone');
    const result = await run('npx', ['astro', 'build'], { OUT_DIR: outDir, DEPLOY_DIR: `${outDir}-deploy` });
    expect(result.timedOut, result.stderr).toBe(false);
    expect(result.status, result.stderr).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/This site is built by `npm run build`, not `astro build` alone: run `npm run build`/);
    expect(existsSync(outDir)).toBe(false);
    expect(existsSync(storeDirOf(outDir))).toBe(false);
  });
});
