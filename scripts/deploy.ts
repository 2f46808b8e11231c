/**
 * `npm run deploy`: publishes the built site (OUT_DIR, as `npm run build` left it, and its host
 * files in DEPLOY_DIR) to the host DEPLOY_TO names, with that host's own tool and the credentials
 * it reads from the environment (src/ci/deploy.ts). Without DEPLOY_TO, or without a secret the
 * host needs, it deploys nothing and says so in a line (a warning and a job summary line under
 * GitHub Actions), exit 0. A tool that fails stops it with the tool's exit code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigOrExit } from '../src/config.ts';
import { deployPlan } from '../src/ci/deploy.ts';
import { appendJobSummary } from '../src/ci/job-summary.ts';
import { inGitHubActions, workflowCommand } from '../src/ci/workflow-commands.ts';
import { MANIFEST_FILE } from '../src/outputs/manifest.ts';

const config = loadConfigOrExit();
const actions = inGitHubActions();
const environment = { ...process.env };

// An SSH key and known hosts given as text (repository secrets) go to files of this run's own.
const secrets = mkdtempSync(join(tmpdir(), 'deploy-'));
process.on('exit', () => rmSync(secrets, { recursive: true, force: true }));
for (const [text, file] of [
  ['RSYNC_SSH_KEY', 'RSYNC_SSH_KEY_FILE'],
  ['RSYNC_KNOWN_HOSTS', 'RSYNC_KNOWN_HOSTS_FILE'],
] as const) {
  const value = environment[text];
  if (!value) continue;
  const path = join(secrets, file.toLowerCase());
  writeFileSync(path, value.endsWith('\n') ? value : `${value}\n`, { mode: 0o600 });
  environment[file] = path;
}

const plan = deployPlan(config, environment);
if ('skip' in plan) {
  console.log(plan.skip);
  if (actions) {
    console.log(workflowCommand('warning', { title: 'Deploy skipped' }, plan.skip));
    appendJobSummary(`### Deploy\n\n${plan.skip}\n`);
  }
  process.exit(0);
}
if (!existsSync(join(config.outDir, MANIFEST_FILE))) {
  console.error(`deploy: nothing is built at ${config.outDir}/: run npm run build first.`);
  process.exit(1);
}
const hidden = new Set(['VERCEL_TOKEN'].map((name) => environment[name]).filter((value) => value !== undefined));
for (const { program, args, cwd } of plan.commands) {
  console.log(`deploy: ${cwd}$ ${[program, ...args.map((arg) => (hidden.has(arg) ? '***' : arg))].join(' ')}`);
  // npx is npx.cmd on Windows, which only a shell runs.
  const result = spawnSync(program, args, { cwd, env: environment, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.error !== undefined) {
    const code = (result.error as NodeJS.ErrnoException).code;
    console.error(
      code === 'ENOENT'
        ? `deploy: ${program} is not installed: install it to deploy to ${plan.target} (docs/deploy.md).`
        : `deploy: ${program} could not run (${code ?? result.error.message}).`,
    );
    process.exit(1);
  }
  if (result.status !== 0) {
    console.error(`deploy: ${program} failed (exit ${result.status ?? result.signal}): the deploy to ${plan.target} stopped there.`);
    process.exit(result.status ?? 1);
  }
}
const done = `deploy: ${config.outDir}/ published to ${plan.target}.`;
console.log(done);
if (actions) appendJobSummary(`### Deploy\n\n${done}\n`);
