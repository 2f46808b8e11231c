/**
 * The deploy to the host the configuration names (DEPLOY_TO), with the credentials each host's own
 * tool reads from the environment: what is run, from which folder, and which secrets it needs. A
 * host whose secrets are not all set is skipped with a line naming them, so that a workflow runs
 * green before its secrets are added. The hosts' tools that are not npm packages of the project's
 * dependencies (a build-only install has none of them) are run with npx at a pinned major version.
 */
import { relative, resolve } from 'node:path';
import type { Config } from '../config.ts';

type Target = NonNullable<Config['deployTo']>;

/** The hosts' command-line tools, by npm package and major version: the versions the tests run (package.json, test/hosts/). */
export const DEPLOY_TOOLS = { wrangler: 'wrangler@4', netlify: 'netlify-cli@27', vercel: 'vercel@48' } as const;

/** One command of a deploy: a program, its arguments, the folder it runs in (relative to the project). */
interface DeployCommand {
  program: string;
  args: string[];
  cwd: string;
}

interface TargetPlan {
  /** The variables that must be set (secrets or settings), in the order they are named. */
  needs: readonly string[];
  /** The commands, given the environment (every needed variable set) and the configuration. */
  commands: (environment: Readonly<Record<string, string | undefined>>, config: Pick<Config, 'outDir' | 'deployDir'>) => DeployCommand[];
}

const npx = (tool: string, args: string[], cwd: string): DeployCommand => ({ program: 'npx', args: ['--yes', tool, ...args], cwd });

/** What each host needs and runs; the site is named with a trailing slash, since `dist` is a link (docs/hosting.md). */
const TARGETS: Record<Target, TargetPlan> = {
  rsync: {
    needs: ['RSYNC_DESTINATION'],
    commands: (environment, { outDir }) => [
      { program: 'rsync', args: ['-a', '--delete', ...sshOption(environment), `${outDir}/`, environment['RSYNC_DESTINATION']!], cwd: '.' },
    ],
  },
  s3: {
    needs: ['S3_BUCKET', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
    commands: (environment, { outDir }) => [
      {
        program: 'aws',
        args: [
          ...(environment['S3_ENDPOINT_URL'] ? ['--endpoint-url', environment['S3_ENDPOINT_URL']] : []),
          's3',
          'sync',
          `${outDir}/`,
          `s3://${environment['S3_BUCKET']}/`,
          '--delete',
          '--no-progress',
        ],
        cwd: '.',
      },
    ],
  },
  cloudflare: {
    needs: ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ACCOUNT_ID'],
    commands: (_environment, { deployDir }) => [npx(DEPLOY_TOOLS.wrangler, ['deploy'], `${deployDir}/cloudflare`)],
  },
  netlify: {
    needs: ['NETLIFY_AUTH_TOKEN', 'NETLIFY_SITE_ID'],
    // The site named from the folder's real place, as its generated netlify.toml names it (src/serve/hosts/netlify.ts).
    commands: (_environment, { outDir, deployDir }) => [
      npx(
        DEPLOY_TOOLS.netlify,
        ['deploy', '--prod', '--no-build', '--dir', relative(resolve(deployDir, 'netlify'), resolve(outDir))],
        `${deployDir}/netlify`,
      ),
    ],
  },
  vercel: {
    needs: ['VERCEL_TOKEN', 'VERCEL_ORG_ID', 'VERCEL_PROJECT_ID'],
    commands: (environment, { deployDir }) => [
      npx(DEPLOY_TOOLS.vercel, ['deploy', '--prebuilt', '--prod', '--yes', '--token', environment['VERCEL_TOKEN']!], `${deployDir}/vercel`),
    ],
  },
};

/** rsync over SSH with the key and known hosts files (written from the secrets RSYNC_SSH_KEY and RSYNC_KNOWN_HOSTS), where given. */
function sshOption(environment: Readonly<Record<string, string | undefined>>): string[] {
  const key = environment['RSYNC_SSH_KEY_FILE'];
  if (!key) return [];
  const knownHosts = environment['RSYNC_KNOWN_HOSTS_FILE'];
  const options = ['ssh', '-i', key, '-o', 'IdentitiesOnly=yes', ...(knownHosts ? ['-o', `UserKnownHostsFile=${knownHosts}`] : [])];
  return ['-e', options.join(' ')];
}

/** What a deploy does: skip (and why), or run these commands. */
export type DeployPlan = { skip: string } | { target: Target; commands: DeployCommand[] };

export function deployPlan(
  config: Pick<Config, 'deployTo' | 'outDir' | 'deployDir'>,
  environment: Readonly<Record<string, string | undefined>>,
): DeployPlan {
  if (config.deployTo === undefined)
    return { skip: `deploy: skipped: DEPLOY_TO is not set (one of ${Object.keys(TARGETS).join(', ')}); nothing was deployed.` };
  const plan = TARGETS[config.deployTo];
  const missing = plan.needs.filter((name) => !environment[name]);
  if (missing.length > 0) {
    const names = missing.join(', ');
    return {
      skip: `deploy: skipped: DEPLOY_TO=${config.deployTo}, but ${names} ${missing.length === 1 ? 'is' : 'are'} not set (repository secrets or variables); nothing was deployed.`,
    };
  }
  return { target: config.deployTo, commands: plan.commands(environment, config) };
}
