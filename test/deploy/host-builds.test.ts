/**
 * Each host's own Git build from a fresh checkout, with nothing typed in the host's settings: the
 * configuration at the repository's root, run by the host's own tool. Netlify: `netlify build
 * --offline` (netlify.toml), twice, the second with the build store its plugin kept in the build
 * cache. Vercel: `vercel build` with a local project file (vercel.json), which writes the Build
 * Output. Cloudflare Workers Builds: `wrangler deploy --dry-run` at the root (wrangler.jsonc), which
 * runs the build and reads every asset of the site through the `dist` link. Offline, there is no
 * live site: ALLOW_SHRINK=1, as for a first deploy.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasNetlifyCli } from '../support/hosts.ts';
import { projectRoot, renderedPages, tempDir } from '../support/site.ts';
import { runsWith } from '../support/software.ts';
import { checkoutOf } from '../support/workflow.ts';
import { cleanEnvironment } from '../../scripts/lib/servers.ts';

const workspace = tempDir('host-builds');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const settings = { BASE_URL: 'https://cars.example.com', ALLOW_SHRINK: '1' };
/** The host's tool, by Node 24 (a build plugin runs on the Node that runs it: Netlify's images run 22 and later). */
function host(script: string, args: readonly string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    killSignal: 'SIGKILL',
    env: { ...cleanEnvironment(), ...settings, CI: 'true', ASTRO_TELEMETRY_DISABLED: '1', ...env },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** Every file of a folder (links followed), as site paths. */
const filesIn = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
/** The `[[edge_functions]]` of a netlify.toml: path and function. */
const edgeFunctions = (toml: string) => [...toml.matchAll(/\[\[edge_functions\]\]\s+path = "([^"]+)"\s+function = "([^"]+)"/g)].map((match) => match.slice(1));

const NETLIFY = join(projectRoot, 'test/hosts/netlify/node_modules');
describe.runIf(runsWith(hasNetlifyCli, "Netlify's own build", 'netlify-cli', 'npm ci --prefix test/hosts/netlify'))('Netlify: netlify build --offline', () => {
  const checkout = checkoutOf(join(workspace, 'netlify'), { linkedPackages: true });
  // Offline, Deno comes from the npm package and the edge functions' bootstrap from the installed packages.
  const netlifyBuild = () =>
    host(join(NETLIFY, 'netlify-cli/bin/run.js'), ['build', '--offline'], checkout, {
      PATH: `${join(NETLIFY, '.bin')}:${process.env['PATH'] ?? ''}`,
      NETLIFY_EDGE_BOOTSTRAP: `file://${join(NETLIFY, '@netlify/edge-functions-dev/dist/deno/bootstrap.mjs')}`,
    });

  it('builds from a fresh checkout, publishes dist (the build through the link) and bundles the edge function', () => {
    const { status, output } = netlifyBuild();
    expect(status, output).toBe(0);
    expect(output).not.toContain('Multiple possible build commands');
    expect(output).toContain('no build store in the build cache: a clean build');
    const { buildId } = JSON.parse(readFileSync(join(checkout, 'dist/manifest.json'), 'utf8')) as { buildId: string };
    expect(output).toContain(`Netlify publishes dist: build ${buildId}`);
    const edge = JSON.parse(readFileSync(join(checkout, '.netlify/edge-functions-dist/manifest.json'), 'utf8')) as { routes: { function: string; path: string }[] };
    expect(edge.routes.map(({ path, function: name }) => [path, name])).toEqual(edgeFunctions(readFileSync(join(checkout, 'netlify.toml'), 'utf8')));
  });

  it("builds again with the store its plugin kept in Netlify's build cache: only what changed", () => {
    const { status, output } = netlifyBuild();
    expect(status, output).toBe(0);
    expect(output).toContain('build store restored from the build cache: .dist.builds, dist, deploy');
    expect(renderedPages(output)).toEqual({ json: 0, html: 0 });
  });

  it("declares the generated edge function's paths, as the build's own netlify.toml does", () => {
    expect(edgeFunctions(readFileSync(join(checkout, 'netlify.toml'), 'utf8'))).toEqual(
      edgeFunctions(readFileSync(join(checkout, 'deploy/netlify/netlify.toml'), 'utf8')),
    );
  });
});

const VERCEL = join(projectRoot, 'test/hosts/vercel/node_modules/vercel/dist/vc.js');
describe.runIf(runsWith(existsSync(VERCEL), "Vercel's own build", 'the vercel CLI', 'npm ci --prefix test/hosts/vercel'))('Vercel: vercel build', () => {
  it('installs, builds and writes the Build Output from the generated one, leaving the published build as it was', () => {
    const checkout = checkoutOf(join(workspace, 'vercel'));
    // The local project file `vercel pull` would write: the project's settings are vercel.json's.
    const project = { projectId: 'prj_offline', orgId: 'team_offline', settings: { framework: null } };
    mkdirSync(join(checkout, '.vercel'), { recursive: true });
    writeFileSync(join(checkout, '.vercel/project.json'), JSON.stringify(project));
    const { status, output } = host(VERCEL, ['build', '--yes'], checkout, { VERCEL_TELEMETRY_DISABLED: '1', npm_config_prefer_offline: 'true' });
    expect(status, output).toBe(0);
    expect(output).toContain('Build Completed in .vercel/output');
    const built = join(checkout, '.vercel/output');
    const config = JSON.parse(readFileSync(join(built, 'config.json'), 'utf8')) as { version: number; routes: { middlewarePath?: string }[] };
    expect(config.version).toBe(3);
    expect(config.routes.some((route) => route.middlewarePath === 'listing')).toBe(true);
    expect(existsSync(join(built, 'functions/listing.func'))).toBe(true);
    expect(filesIn(join(built, 'static'))).toEqual(filesIn(join(checkout, 'dist')));
    // What vercel build writes goes into the copy, never into the published build's own folder.
    expect(readdirSync(join(checkout, 'deploy/vercel/.vercel/output')).sort()).toEqual(['config.json', 'functions', 'static']);
  });
});

describe('Cloudflare Workers Builds: wrangler deploy --dry-run at the root', () => {
  it('runs the build and reads every asset of the site through the dist link, the hosts files aside', () => {
    const checkout = checkoutOf(join(workspace, 'cloudflare'), { linkedPackages: true });
    const { status, output } = host(join(projectRoot, 'node_modules/wrangler/bin/wrangler.js'), ['deploy', '--dry-run'], checkout, {
      WRANGLER_LOG: 'debug',
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_LOG_PATH: join(workspace, 'wrangler-logs'),
    });
    expect(status, output).toBe(0);
    expect(output).toContain('[custom build] Built dist/: build');
    const site = filesIn(join(checkout, 'dist'));
    const [, count] = /Read (\d+) files from the assets directory (\S+)/.exec(output) ?? [];
    expect(output).toContain(`from the assets directory ${join(checkout, 'dist')}`);
    const listed = new Set(output.split('\n').filter((line) => line.startsWith('/')).map((line) => line.slice(1)));
    expect(site.filter((path) => !listed.has(path))).toEqual([]);
    expect(Number(count)).toBe(listed.size);
    const ignored = [...output.matchAll(/^Ignoring asset: (.+)$/gm)].map((match) => match[1]).sort();
    expect(ignored).toEqual(['.assetsignore', '.htaccess', '_errors/apache/invalid-page/.htaccess', '_errors/apache/not-found/.htaccess', '_headers', 'vercel.json']);
  });

  it("has the generated wrangler.json's settings, the worker and the site named from the root", () => {
    const checkout = join(workspace, 'cloudflare');
    const generated = JSON.parse(readFileSync(join(checkout, 'deploy/cloudflare/wrangler.json'), 'utf8')) as Record<string, unknown>;
    const root = JSON.parse(readFileSync(join(checkout, 'wrangler.jsonc'), 'utf8').replace(/^\s*\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1')) as Record<string, unknown>;
    expect(root).toEqual({
      ...generated,
      main: 'deploy/cloudflare/worker.js',
      build: { command: 'npm run build && npm run check-live' },
      assets: { ...(generated['assets'] as object), directory: 'dist' },
    });
  });
});
