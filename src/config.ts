/**
 * Configuration from the environment, validated once at start. Every default makes the local site
 * work with no configuration: the embedded dataset, logos served by the preview server itself.
 */
import { z } from 'zod';
import { contactVariable, licenseVariable } from './listing/publisher.ts';
import { isInsidePlace } from './files/places.ts';
import { SHIPPED_ASSETS_PATH } from './listing/routes.ts';

/** The hosts `npm run deploy` publishes to (src/ci/deploy.ts). */
const DEPLOY_TARGETS = ['rsync', 's3', 'cloudflare', 'netlify', 'vercel'] as const;

/** The embedded default dataset, relative to the project folder (where npm runs every script). */
export const DEFAULT_DATA_FILE = 'data/captured-car-models.csv';

const absoluteHttpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), {
      message: `${name} must be an absolute http(s) URL such as https://cars.example.com`,
      abort: true,
    })
    .refine((text) => new URL(text).search === '' && new URL(text).hash === '', {
      message: `${name} must not have a query string or a fragment`,
    })
    .transform((text) => text.replace(/\/+$/, ''));

const variablesSchema = z.object({
  PORT: z
    .string()
    .regex(/^[0-9]{1,5}$/, { message: 'PORT must be a whole number from 0 to 65535', abort: true })
    .transform(Number)
    .refine((port) => port <= 65_535, 'PORT must be a whole number from 0 to 65535')
    .default(4321),
  HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:_[\]-]+$/, 'HOST must be a host name or an IP address such as 127.0.0.1')
    .default('127.0.0.1'),
  BASE_URL: absoluteHttpUrl('BASE_URL').optional(),
  ASSETS_URL: absoluteHttpUrl('ASSETS_URL').optional(),
  API_CONTACT: contactVariable('API_CONTACT').optional(),
  API_LICENSE: licenseVariable('API_LICENSE').optional(),
  DATA_FILE: z.string().min(1, 'DATA_FILE must be the path of a CSV file').default(DEFAULT_DATA_FILE),
  OUT_DIR: z.string().min(1, 'OUT_DIR must be a folder path').default('dist'),
  DEPLOY_DIR: z.string().min(1, 'DEPLOY_DIR must be a folder path').default('deploy'),
  REPORT_FILE: z.string().min(1, 'REPORT_FILE must be a file path').optional(),
  ALLOW_SHRINK: z.enum(['1', '0', 'true', 'false'], { error: 'ALLOW_SHRINK must be 1 (or true) to allow, 0 (or false) not to' }).optional(),
  FULL_BUILD: z.enum(['1', '0', 'true', 'false'], { error: 'FULL_BUILD must be 1 (or true) to build, 0 (or false) not to' }).optional(),
  CHECK_PAGES: z
    .enum(['sample', 'all'], { error: 'CHECK_PAGES must be sample (a few pages a build) or all (every page)' })
    .default('sample'),
  CHANGES_KEPT: z
    .string()
    .regex(/^[0-9]{1,4}$/, { message: 'CHANGES_KEPT must be a whole number from 1 to 9999', abort: true })
    .transform(Number)
    .refine((kept) => kept >= 1, 'CHANGES_KEPT must be a whole number from 1 to 9999')
    // How many builds' change documents the site keeps (docs/api.md, a mirror's history).
    .default(30),
  LIVE_URL: absoluteHttpUrl('LIVE_URL').optional(),
  DEPLOY_TO: z.enum(DEPLOY_TARGETS, { error: `DEPLOY_TO must be one of ${DEPLOY_TARGETS.join(', ')}` }).optional(),
});

/**
 * Whether `path` is `folder` or inside it (both from the project folder), as the disk sees them:
 * through their symbolic links, and without regard to case where the disk ignores it (`Dist/x` is
 * in `dist` on macOS and Windows).
 */
const within = (path: string, folder: string): boolean => isInsidePlace(path, folder, { followLinks: true });

/**
 * The paths must keep apart: a build makes OUT_DIR and DEPLOY_DIR links to the build it publishes
 * and writes REPORT_FILE whole, so one inside another would publish the wrong folder, write into
 * the published site, or replace the data file.
 */
const environmentSchema = variablesSchema.superRefine((variables, context) => {
  const folders = [
    ['OUT_DIR', variables.OUT_DIR],
    ['DEPLOY_DIR', variables.DEPLOY_DIR],
  ] as const;
  const clash = (path: readonly (string | number)[], message: string) => context.addIssue({ code: 'custom', path: [...path], message });
  // OUT_DIR and DEPLOY_DIR are links the build makes (its site is in its deploy folder): compared as named, not where they lead.
  const apart = (path: string, folder: string) => isInsidePlace(path, folder);
  if (apart(variables.OUT_DIR, variables.DEPLOY_DIR) || apart(variables.DEPLOY_DIR, variables.OUT_DIR)) {
    clash(
      ['DEPLOY_DIR'],
      `OUT_DIR (${variables.OUT_DIR}) and DEPLOY_DIR (${variables.DEPLOY_DIR}) must be two folders, neither inside the other`,
    );
  }
  for (const [name, folder] of folders) {
    if (within(variables.DATA_FILE, folder)) {
      clash(
        ['DATA_FILE'],
        `DATA_FILE (${variables.DATA_FILE}) must not be in ${name} (${folder}): a build replaces ${name} with the build it publishes`,
      );
    }
    if (variables.REPORT_FILE !== undefined && within(variables.REPORT_FILE, folder)) {
      clash(
        ['REPORT_FILE'],
        `REPORT_FILE (${variables.REPORT_FILE}) must not be in ${name} (${folder}): a published build is never written into`,
      );
    }
  }
  if (variables.REPORT_FILE !== undefined && within(variables.REPORT_FILE, variables.DATA_FILE)) {
    clash(['REPORT_FILE'], `REPORT_FILE must not be the data file (${variables.DATA_FILE}): the report would replace it`);
  }
});

/**
 * The environment variables the configuration reads, from the schema itself: the tests clear them
 * from a child's environment (scripts/lib/servers.ts), so that none leaks in from the shell.
 */
export const CONFIG_VARIABLES = Object.keys(variablesSchema.shape) as readonly (keyof typeof variablesSchema.shape)[];

/** Thrown for an invalid environment; its message lists every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Config = ReturnType<typeof loadConfig>;

/** Reads and validates the configuration. Empty variables count as unset. */
export function loadConfig(environment: Record<string, string | undefined> = process.env) {
  const present = Object.fromEntries(
    CONFIG_VARIABLES.map((key) => [key, environment[key]] as const).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const given = present[String(issue.path[0])];
      return given === undefined ? `  ${issue.message}` : `  ${issue.message}; got ${JSON.stringify(given)}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const variables = parsed.data;
  const baseUrl = variables.BASE_URL ?? `http://localhost:${variables.PORT}`;
  const outDir = variables.OUT_DIR.replace(/\/+$/, '');
  return {
    /** The spec's {base_url}: scheme, host and optional path prefix, no trailing slash. */
    baseUrl,
    /** The spec's {assets_url}, no trailing slash. */
    assetsUrl: variables.ASSETS_URL ?? `${baseUrl}${SHIPPED_ASSETS_PATH}`,
    /** The contact and licence /openapi.json states (src/listing/publisher.ts), where set. */
    contact: variables.API_CONTACT,
    license: variables.API_LICENSE,
    dataFile: variables.DATA_FILE,
    outDir,
    /** Host configurations kept outside the site (nginx, Cloudflare worker). */
    deployDir: variables.DEPLOY_DIR,
    /** The build's machine-readable report (JSON), beside the site rather than in it: it holds timings. */
    reportFile: variables.REPORT_FILE ?? `${outDir}-report.json`,
    /** Publish even when the new data removes more than 20 % of the published rows. */
    allowShrink: variables.ALLOW_SHRINK === '1' || variables.ALLOW_SHRINK === 'true',
    /** Build even where the published build is current (src/publish/current.ts). */
    fullBuild: variables.FULL_BUILD === '1' || variables.FULL_BUILD === 'true',
    /** How many builds that changed anything keep their change document in the site (`history/<build id>.json`). */
    changesKept: variables.CHANGES_KEPT,
    /**
     * Whether the build compares every listing page it publishes with Astro's own rendering of it, rather than a few
     * (src/integration/page-check.ts): about a millisecond a page, for a maintainer who changed the pages' markup.
     */
    checkAllPages: variables.CHECK_PAGES === 'all',
    port: variables.PORT,
    host: variables.HOST,
    /** The published site `npm run check-live` compares a build with: LIVE_URL, else BASE_URL where it is set; none without either. */
    liveUrl: variables.LIVE_URL ?? variables.BASE_URL,
    /** The host `npm run deploy` publishes to; none: it deploys nothing, and says so. */
    deployTo: variables.DEPLOY_TO,
  };
}

/**
 * The configuration as a command starts (astro.config.mjs, the scripts): an invalid one prints its
 * message alone and exits 2 (README, Configuration), where Astro would report a thrown error as a
 * crash with a stack trace and exit code 1. In src/: a copy of the project for a build holds src/, not scripts/.
 */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
