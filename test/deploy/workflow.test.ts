/**
 * The shipped workflow (.github/workflows/site.yml), its jobs run step by step as GitHub's runner
 * runs them (test/support/workflow.ts) in a checkout of the project: a first push deployed with
 * rsync, a pull request checked against the live site with the build store restored from the
 * cache, one whose data breaks on line 5, a push built without the cache (deployed to a local S3
 * server too), a truncated export refused by reading the live site, a Git LFS pointer, a deploy
 * whose secrets are not set.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, projectRoot, renderedPages, startPreview, tempDir, treeHashes, type RunningPreview } from '../support/site.ts';
import { runsWith } from '../support/software.ts';
import { checkoutOf, readWorkflow, runJob, type JobInput, type StepRun } from '../support/workflow.ts';

const workspace = tempDir('workflow');
const checkout = join(workspace, 'checkout');
const cacheDir = join(workspace, 'cache');
const www = join(workspace, 'www');
const DATA_FILE = 'data/captured-car-models.csv';

checkoutOf(checkout);
const shipped = readFileSync(join(checkout, DATA_FILE), 'utf8');
const [header, ...rows] = shipped.trimEnd().split('\n') as [string, ...string[]];
const MAX_PRICE = header.split(',').indexOf('max_price');
const csv = (lines: readonly string[]) => `${[header, ...lines].join('\n')}\n`;
/** The shipped data with the third row's max_price raised: one row changed. */
const edited = csv(rows.map((row, index) => (index === 2 ? row.split(',').with(MAX_PRICE, '999999').join(',') : row)));

const INSTALL = 'npm ci --omit=dev --no-audit --no-fund';
const vars = { BASE_URL: 'https://cars.example.com', ASSETS_URL: 'https://img.example.com' };
/** npm answers from its cache where it can (the project's own install filled it): the registry is not what is tested. */
const machine = { npm_config_prefer_offline: 'true' };

/** A run of `job` in the checkout as a fresh clone with `data`: no build store, no kept preparations, the cache as the test left it. */
function run(job: 'check' | 'deploy', data: string, input: Partial<JobInput> = {}): StepRun[] {
  for (const path of ['.dist.builds', 'dist', 'deploy', 'node_modules/.astro']) rmSync(join(checkout, path), { recursive: true, force: true });
  writeFileSync(join(checkout, DATA_FILE), data);
  return runJob(job, { checkout, cacheDir, machine, alreadyDone: installed ? [INSTALL] : [], ...input, vars: { ...vars, ...input.vars } });
}
let installed = false;
const step = (runs: readonly StepRun[], command: string) => runs.find((each) => each.run === command || each.uses?.startsWith(command));
const log = (runs: readonly StepRun[]) => runs.map((each) => `## ${each.name} (${each.status})\n${each.stdout}\n${each.stderr}`).join('\n');
const names = (runs: readonly StepRun[]) => runs.map((each) => each.run ?? each.uses);
const dataSha256 = (dir: string) => (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { data: { sha256: string } }).data.sha256;

let live: RunningPreview | undefined;
afterAll(async () => {
  await live?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

const RSYNC = '/usr/bin/rsync';
describe.runIf(runsWith(existsSync(RSYNC), 'the workflow suite', 'rsync', 'apt-get install rsync'))('the workflow, run as GitHub runs it', () => {
  let first: StepRun[] = [];
  beforeAll(async () => {
    mkdirSync(www, { recursive: true });
    // BASE_URL does not answer yet (a new address): the first deploy is let through with ALLOW_SHRINK=1.
    first = run('deploy', shipped, { vars: { ALLOW_SHRINK: '1', DEPLOY_TO: 'rsync', RSYNC_DESTINATION: `${www}/` } });
    installed = step(first, INSTALL)?.status === 0;
    live = await startPreview({ OUT_DIR: www });
  });

  it('a first push: installs without the test tools, builds without a cache, goes on without a live site where ALLOW_SHRINK=1, deploys with rsync, keeps the store', () => {
    expect(first.map((each) => each.status), log(first)).toEqual(first.map(() => 0));
    expect(names(first)).toEqual(readWorkflow().jobs['deploy']!.steps.map((each) => each.run ?? each.uses));
    expect(step(first, 'actions/checkout@')).toBeDefined();
    expect(readWorkflow().jobs['deploy']!.steps[0]!.with).toEqual({ lfs: true });
    expect(step(first, 'actions/cache/restore@')?.stdout).toBe('Cache not found');
    expect(step(first, 'npm run check-live')?.stderr).toMatch(
      /^The live site cannot be read: https:\/\/cars\.example\.com\/manifest\.json cannot be reached \(\w+\)\. .*\nALLOW_SHRINK=1: going on without the check\./,
    );
    expect(step(first, 'npm run deploy')?.stdout).toContain('deploy: dist/ published to rsync.');
    expect(treeHashes(www)).toEqual(treeHashes(join(checkout, 'dist')));
    expect(step(first, 'npm run check-data')?.summary).toMatch(/^### Data check: data\/captured-car-models\.csv: 259 rows valid/);
    expect(readFileSync(join(cacheDir, 'cache.tar')).length).toBeGreaterThan(0);
  });

  it('a pull request: the store restored from the cache builds only what changed, and the job summary says what it publishes on the live site', () => {
    const runs = run('check', edited, { vars: { LIVE_URL: live!.origin } });
    expect(runs.map((each) => each.status), log(runs)).toEqual(runs.map(() => 0));
    expect(step(runs, 'actions/cache/restore@')?.stdout).toBe('Cache restored');
    expect(renderedPages(step(runs, 'npm run build')!.stderr + step(runs, 'npm run build')!.stdout)).toEqual({ json: 1, html: 2 });
    const summary = step(runs, 'npm run check-live')!.summary;
    expect(summary).toContain(`### What this data publishes on ${live!.origin}`);
    expect(summary).toContain('| rows | +0 −0 ~1 rows |');
    expect(summary).toMatch(/\| changed \(id: fields\) \| \d+: max_price \|/);
    expect(summary).toContain('- https://cars.example.com/car/api/capture_car/latest?page=1');
    expect(summary).toMatch(/\| shrink guard \| passes: 0 of the 259 published rows removed/);
  });

  it('a pull request whose data breaks on line 5: the problem annotated on the line, and nothing after the check', () => {
    const broken = csv(rows.map((row, index) => (index === 3 ? row.split(',').with(MAX_PRICE, 'n/a').join(',') : row)));
    const runs = run('check', broken, { vars: { LIVE_URL: live!.origin } });
    expect(names(runs).at(-1)).toBe('npm run check-data');
    const checked = step(runs, 'npm run check-data')!;
    expect(checked.status).toBe(1);
    expect(checked.stdout).toMatch(/^::error file=data\/captured-car-models\.csv,line=5,col=\d+,title=max_price%3A invalid value::column 9 \(max_price\): /m);
    expect(checked.summary).toContain('| 5 | 9 | max_price |');
  });

  it('a push built without the cache: a clean build, checked against the live site, deployed', () => {
    rmSync(cacheDir, { recursive: true, force: true });
    const runs = run('deploy', edited, { vars: { LIVE_URL: live!.origin, DEPLOY_TO: 'rsync', RSYNC_DESTINATION: `${www}/` } });
    expect(runs.map((each) => each.status), log(runs)).toEqual(runs.map(() => 0));
    expect(step(runs, 'actions/cache/restore@')?.stdout).toBe('Cache not found');
    expect(step(runs, 'npm run check-live')?.stdout).toContain('rows: +0 −0 ~1 rows');
    expect(dataSha256(www)).toBe(dataSha256(join(checkout, 'dist')));
  });

  it('the same build deployed to S3 (a local S3 server): every file of the site in the bucket', async () => {
    // In a process of its own: the runner's steps run synchronously, and would hold up a server in this one.
    const server = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import S3rver from 's3rver';
         const { port } = await new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: process.argv[1], configureBuckets: [{ name: 'site' }] }).run();
         console.log(port);`,
        join(workspace, 's3'),
      ],
      { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const port = await new Promise<string>((resolve) => server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
      const workflow = readWorkflow();
      workflow.jobs['deploy']!.steps = workflow.jobs['deploy']!.steps.filter((each) => each.run === 'npm run deploy');
      const runs = runJob(
        'deploy',
        {
          checkout,
          cacheDir,
          vars: { ...vars, DEPLOY_TO: 's3', S3_BUCKET: 'site', S3_ENDPOINT_URL: `http://127.0.0.1:${port}`, AWS_REGION: 'us-east-1' },
          secrets: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
          // Nothing of this machine's own AWS settings, and no instance metadata lookup (the network).
          machine: { AWS_EC2_METADATA_DISABLED: 'true', AWS_CONFIG_FILE: join(workspace, 'no-aws-config'), AWS_SHARED_CREDENTIALS_FILE: join(workspace, 'no-aws-credentials') },
        },
        workflow,
      );
      expect(runs[0]?.status, log(runs)).toBe(0);
      expect(runs[0]?.stdout).toContain('deploy: dist/ published to s3.');
      const objects = readdirSync(join(workspace, 's3/site'), { recursive: true }).map(String).filter((path) => path.endsWith('._S3rver_object'));
      expect(objects.map((path) => path.slice(0, -'._S3rver_object'.length)).sort()).toEqual(Object.keys(treeHashes(join(checkout, 'dist'))).sort());
    } finally {
      server.kill();
    }
  });

  it('a truncated export without the cache: the clean build is refused before the deploy, by reading the live site', () => {
    rmSync(cacheDir, { recursive: true, force: true });
    const before = treeHashes(www);
    const runs = run('deploy', csv(rows.slice(0, 100)), { vars: { LIVE_URL: live!.origin, DEPLOY_TO: 'rsync', RSYNC_DESTINATION: `${www}/` } });
    expect(names(runs).at(-1)).toBe('npm run check-live');
    const checked = step(runs, 'npm run check-live')!;
    expect(checked.status).toBe(1);
    expect(checked.stdout).toContain('shrink guard: refuses: 159 of the 259 published rows removed');
    expect(checked.stdout).toContain('::error title=shrink guard::The shrink guard refuses this data');
    expect(treeHashes(www)).toEqual(before);
  });

  it('a data file checked out as a Git LFS pointer: a clear error, no build', () => {
    const runs = run('deploy', readFileSync(fixture('bad/git-lfs-pointer.csv'), 'utf8'), { vars: { LIVE_URL: live!.origin } });
    expect(names(runs).at(-1)).toBe('npm run check-data');
    expect(step(runs, 'npm run check-data')?.stdout).toContain(
      '::error file=data/captured-car-models.csv,title=invalid data file::is a Git LFS pointer, not the CSV: the file of 148,213,377 bytes it names was not fetched.',
    );
  });

  it('a deploy whose secrets are not set: skipped with a line, a warning and a summary line', () => {
    const deploy = readWorkflow().jobs['deploy']!.steps.find((each) => each.run === 'npm run deploy')!;
    const workflow = readWorkflow();
    workflow.jobs['deploy']!.steps = [deploy];
    const runs = runJob('deploy', { checkout, cacheDir, vars: { ...vars, DEPLOY_TO: 'netlify', NETLIFY_SITE_ID: 'site' } }, workflow);
    expect(runs[0]?.status).toBe(0);
    expect(runs[0]?.stdout).toContain('deploy: skipped: DEPLOY_TO=netlify, but NETLIFY_AUTH_TOKEN is not set');
    expect(runs[0]?.stdout).toContain('::warning title=Deploy skipped::deploy: skipped: DEPLOY_TO=netlify');
    expect(runs[0]?.summary).toContain('### Deploy');
  });
});
