import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEPLOY_TOOLS, deployPlan } from '../../src/ci/deploy.ts';

const config = { outDir: 'dist', deployDir: 'deploy' };

describe('the deploy to the host DEPLOY_TO names', () => {
  it('is skipped with a line naming what is missing: DEPLOY_TO, or the secrets the host needs', () => {
    expect(deployPlan({ ...config, deployTo: undefined }, {})).toEqual({
      skip: 'deploy: skipped: DEPLOY_TO is not set (one of rsync, s3, cloudflare, netlify, vercel); nothing was deployed.',
    });
    expect(deployPlan({ ...config, deployTo: 'netlify' }, { NETLIFY_SITE_ID: 'site', NETLIFY_AUTH_TOKEN: '' })).toEqual({
      skip: 'deploy: skipped: DEPLOY_TO=netlify, but NETLIFY_AUTH_TOKEN is not set (repository secrets or variables); nothing was deployed.',
    });
    expect(deployPlan({ ...config, deployTo: 'vercel' }, {})).toEqual({
      skip: 'deploy: skipped: DEPLOY_TO=vercel, but VERCEL_TOKEN, VERCEL_ORG_ID, VERCEL_PROJECT_ID are not set (repository secrets or variables); nothing was deployed.',
    });
  });

  it("runs each host's own tool on the site through the link, from the host's deploy folder", () => {
    const commands = (deployTo: NonNullable<Parameters<typeof deployPlan>[0]['deployTo']>, environment: Record<string, string>) => {
      const plan = deployPlan({ ...config, deployTo }, environment);
      return 'commands' in plan ? plan.commands : plan.skip;
    };
    expect(commands('rsync', { RSYNC_DESTINATION: 'www@host:/srv/www/', RSYNC_SSH_KEY_FILE: '/tmp/key' })).toEqual([
      {
        program: 'rsync',
        args: ['-a', '--delete', '-e', 'ssh -i /tmp/key -o IdentitiesOnly=yes', 'dist/', 'www@host:/srv/www/'],
        cwd: '.',
      },
    ]);
    expect(commands('s3', { S3_BUCKET: 'cars', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })).toEqual([
      { program: 'aws', args: ['s3', 'sync', 'dist/', 's3://cars/', '--delete', '--no-progress'], cwd: '.' },
    ]);
    expect(commands('cloudflare', { CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ACCOUNT_ID: 'a' })).toEqual([
      { program: 'npx', args: ['--yes', 'wrangler@4', 'deploy'], cwd: 'deploy/cloudflare' },
    ]);
    expect(commands('netlify', { NETLIFY_AUTH_TOKEN: 't', NETLIFY_SITE_ID: 's' })).toEqual([
      { program: 'npx', args: ['--yes', 'netlify-cli@27', 'deploy', '--prod', '--no-build', '--dir', '../../dist'], cwd: 'deploy/netlify' },
    ]);
    expect(commands('vercel', { VERCEL_TOKEN: 't', VERCEL_ORG_ID: 'o', VERCEL_PROJECT_ID: 'p' })).toEqual([
      { program: 'npx', args: ['--yes', 'vercel@48', 'deploy', '--prebuilt', '--prod', '--yes', '--token', 't'], cwd: 'deploy/vercel' },
    ]);
  });

  it('runs the major versions of the tools the tests run', () => {
    const major = (range: string | undefined) => /\d+/.exec(range ?? '')?.[0];
    const dependencies = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
    expect(DEPLOY_TOOLS.wrangler).toBe(`wrangler@${major(dependencies('package.json')['wrangler'])}`);
    expect(DEPLOY_TOOLS.netlify).toBe(`netlify-cli@${major(dependencies('test/hosts/netlify/package.json')['netlify-cli'])}`);
    expect(DEPLOY_TOOLS.vercel).toBe(`vercel@${major(dependencies('test/hosts/vercel/package.json')['vercel'])}`);
  });
});
