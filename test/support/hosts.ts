/**
 * The hosts' own local software, started on loopback over a built site and its generated
 * configuration: Cloudflare's workerd (`wrangler dev --local`), Netlify's `netlify dev --offline`
 * (with Deno from the npm package `deno`), Debian's apache2, and a stand-in for Vercel's routing of
 * the function-free `vercel.json` (the Build Output with its middleware runs on another
 * implementation: vercel-routing.ts). Each answers the shared behaviour suite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getTransformedRoutes } from '@vercel/routing-utils';
import { freePort, projectRoot, stopChild, tempDir, waitForHttp } from '../../scripts/lib/servers.ts';

export interface RunningHost {
  origin: string;
  /** What the host printed, for assertions about its warnings. */
  output: () => string;
  stop: () => Promise<void>;
}

function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): { child: ChildProcess; output: () => string } {
  let text = '';
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

/** Stops a detached child and everything it started (wrangler and netlify start helpers of their own). */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const killer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, 5000);
  await exited;
  clearTimeout(killer);
}

const BIN = join(projectRoot, 'node_modules/.bin');
/** netlify-cli and deno live in their own install (test/hosts/netlify): their peers clash with vitest's. */
const NETLIFY_BIN = join(projectRoot, 'test/hosts/netlify/node_modules/.bin');
export const hasNetlifyCli = existsSync(join(NETLIFY_BIN, 'netlify')) && existsSync(join(NETLIFY_BIN, 'deno'));

/**
 * What `netlify dev`'s static server sends as Cache-Control on every file, over the one `_headers`
 * sets (Netlify's CDN keeps `_headers`'s: the rule is read with Netlify's own parser instead,
 * `netlifyHeadersFor`).
 */
export const NETLIFY_DEV_CACHE_CONTROL = 'public, max-age=0';

interface NetlifyHeaderRule {
  for: string;
  forRegExp?: RegExp;
  values: Record<string, string>;
}

/** The headers a `_headers` file gives `path`, as Netlify's own parser (`@netlify/headers-parser`, netlify-cli's) reads it. */
export async function netlifyHeadersFor(headersFile: string, path: string): Promise<Record<string, string>> {
  const parser = join(projectRoot, 'test/hosts/netlify/node_modules/@netlify/headers-parser/lib/index.js');
  const { parseAllHeaders } = (await import(pathToFileURL(parser).href)) as {
    parseAllHeaders: (options: {
      headersFiles: string[];
      configHeaders: [];
      minimal: boolean;
    }) => Promise<{ headers: NetlifyHeaderRule[]; errors: Error[] }>;
  };
  const { headers, errors } = await parseAllHeaders({ headersFiles: [headersFile], configHeaders: [], minimal: false });
  if (errors.length > 0) throw new Error(`_headers: ${errors.map((error) => error.message).join('; ')}`);
  return Object.assign({}, ...headers.filter((rule) => rule.forRegExp?.test(path)).map((rule) => rule.values)) as Record<string, string>;
}

/** `wrangler dev --local` (workerd) with the generated `deploy/cloudflare/wrangler.json`, as generated. */
export async function startWrangler(deployDir: string): Promise<RunningHost> {
  const port = await freePort();
  const { child, output } = startProcess(
    join(BIN, 'wrangler'),
    [
      'dev',
      '--local',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(await freePort()),
      '--show-interactive-dev-session=false',
    ],
    {
      cwd: join(deployDir, 'cloudflare'),
      env: { CI: 'true', WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: tempDir('wrangler-logs') },
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(origin, { child, output });
  return { origin, output, stop: () => stopGroup(child) };
}

/**
 * `netlify dev --offline` in a copy of a generated `deploy/<folder>/` with the site as `--dir`.
 * Offline, two things Netlify fetches from edge.netlify.com come from the installed packages
 * instead: the edge-functions bootstrap (`@netlify/edge-functions-dev`'s bundled copy, through
 * NETLIFY_EDGE_BOOTSTRAP) and the type-only module its config reader imports (an import map).
 */
export async function startNetlifyDev(deployDir: string, folder: 'netlify' | 'netlify-static', siteDir: string): Promise<RunningHost> {
  const work = tempDir(folder);
  cpSync(join(deployDir, folder), work, { recursive: true });
  writeFileSync(join(work, 'offline-types.ts'), 'export type NetlifyGlobal = unknown;\n');
  writeFileSync(
    join(work, 'offline-import-map.json'),
    JSON.stringify({ imports: { 'https://edge.netlify.com/bootstrap/globals/types.ts': './offline-types.ts' } }),
  );
  writeFileSync(
    join(work, 'netlify.toml'),
    `${readFileSync(join(work, 'netlify.toml'), 'utf8')}\n[functions]\n  deno_import_map = "offline-import-map.json"\n`,
  );
  const port = await freePort();
  const bootstrap = join(projectRoot, 'test/hosts/netlify/node_modules/@netlify/edge-functions-dev/dist/deno/bootstrap.mjs');
  const { child, output } = startProcess(
    join(NETLIFY_BIN, 'netlify'),
    ['dev', '--offline', '--port', String(port), '--dir', resolve(siteDir)],
    {
      cwd: work,
      env: {
        PATH: `${NETLIFY_BIN}:${process.env['PATH'] ?? ''}`,
        NETLIFY_EDGE_BOOTSTRAP: `file://${bootstrap}`,
        BROWSER: 'none',
        CI: 'true',
      },
    },
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(origin, { child, output, timeoutMs: 90_000 });
  if (folder === 'netlify') {
    // The edge function loads after the server answers; wait until it says so.
    const deadline = Date.now() + 60_000;
    while (!output().includes('Loaded edge function listing')) {
      if (Date.now() > deadline) throw new Error(`the edge function did not load:\n${output()}`);
      await new Promise((wait) => setTimeout(wait, 200));
    }
  }
  return { origin, output, stop: () => stopGroup(child) };
}

/**
 * Site protection in front of a running host, as Netlify's password protection (or any host's)
 * puts it in front of a site: every HTTP request without `credential` gets 401, and the others go
 * on with their Host header, so that the host sees its public address as the protected one, and a
 * function that fetched its own site over HTTP would come back here without the credential.
 */
export async function startProtection(host: RunningHost, credential: { name: string; value: string }): Promise<RunningHost> {
  const target = new URL(host.origin);
  const port = await freePort();
  const server = createServer((incoming, response) => {
    if (incoming.headers[credential.name.toLowerCase()] !== credential.value) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="protected"' }).end('Unauthorized');
      return;
    }
    const forward = httpRequest(
      { hostname: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502).end(String(error));
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', () => listening()));
  return {
    origin: `http://127.0.0.1:${port}`,
    output: host.output,
    stop: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

interface Condition {
  type: 'query' | 'header';
  key: string;
  value?: string;
}

interface VercelRoute {
  src?: string;
  dest?: string;
  headers?: Record<string, string>;
  continue?: boolean;
  check?: boolean;
  status?: number;
  has?: Condition[];
  missing?: Condition[];
  handle?: 'filesystem' | 'error' | string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.xml': 'application/xml',
  '.csv': 'text/csv; charset=utf-8',
};

/**
 * Vercel's route list applied in order, as its docs describe it (`vercel dev` needs an account):
 * `src` and `has`/`missing` conditions (query values and headers, anchored regular expressions whose
 * named groups join the captures), `headers` merged, `continue` to go on, `dest` rewrites the path
 * with `$1`/`$name` and keeps the original query, `status`, `check` (the destination must exist),
 * a redirect (a 3xx `status` with a `Location` header, captures put in, the original query added
 * as Vercel's router adds it), `handle: filesystem` serves an existing file (a folder's
 * `index.html` for the folder, with or without its slash), and after the routes the `handle: error` phase.
 */
function vercelFront(routes: readonly VercelRoute[], staticDir: string) {
  const staticFile = (path: string) => {
    const file = join(staticDir, decodeURIComponent(path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(staticDir) || !existsSync(file)) return undefined;
    if (statSync(file).isFile()) return file;
    const index = join(file, 'index.html');
    return existsSync(index) && statSync(index).isFile() ? index : undefined;
  };
  const errorAt = routes.findIndex((route) => route.handle === 'error');
  const main = errorAt === -1 ? routes : routes.slice(0, errorAt);
  const errorRoutes = errorAt === -1 ? [] : routes.slice(errorAt + 1);

  return async (request: IncomingMessage, response: ServerResponse, origin: string): Promise<void> => {
    const original = new URL(request.url ?? '/', origin);
    const method = request.method ?? 'GET';
    const headers: Record<string, string> = {};
    let path = original.pathname;
    let status: number | undefined;

    const serveFile = (file: string, code: number) => {
      if (method !== 'GET' && method !== 'HEAD') {
        response.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
        return;
      }
      const body = readFileSync(file);
      const type = CONTENT_TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream';
      response.writeHead(code, { 'content-type': type, ...headers, 'content-length': String(body.length) });
      response.end(method === 'HEAD' ? undefined : body);
    };
    const matches = (route: VercelRoute): Record<string, string> | undefined => {
      const match = new RegExp(route.src ?? '^$').exec(path);
      if (!match) return undefined;
      const captures: Record<string, string> = { ...match.groups };
      match.forEach((value, index) => (captures[String(index)] = value ?? ''));
      const valueOf = (condition: Condition) =>
        condition.type === 'query'
          ? original.searchParams.has(condition.key)
            ? original.searchParams.get(condition.key)
            : null
          : ((request.headers[condition.key.toLowerCase()] as string | undefined) ?? null);
      for (const condition of route.has ?? []) {
        const value = valueOf(condition);
        if (value === null) return undefined;
        if (condition.value !== undefined) {
          const valueMatch = new RegExp(`^(?:${condition.value})$`).exec(value);
          if (!valueMatch) return undefined;
          Object.assign(captures, valueMatch.groups);
        }
      }
      if ((route.missing ?? []).some((condition) => valueOf(condition) !== null)) return undefined;
      return captures;
    };

    for (const route of main) {
      if (route.handle === 'filesystem') {
        const file = staticFile(path);
        if (file) return serveFile(file, status ?? 200);
        continue;
      }
      if (route.handle !== undefined) continue;
      const captures = matches(route);
      if (!captures) continue;
      Object.assign(headers, route.headers);
      if (route.continue) continue;
      const location = route.headers?.['Location'];
      if (route.status !== undefined && route.status >= 300 && route.status < 400 && location !== undefined && !route.dest) {
        const target = location.replace(/\$(\w+)/g, (_, name: string) => captures[name] ?? '');
        response.writeHead(route.status, { ...headers, Location: `${target}${original.search}`, 'content-length': '0' }).end();
        return;
      }
      if (route.dest) {
        const dest = route.dest.replace(/\$(\w+)/g, (_, name: string) => captures[name] ?? '');
        const target = new URL(dest, origin);
        for (const [name, value] of original.searchParams) target.searchParams.append(name, value);
        if (route.check && !staticFile(target.pathname)) continue;
        path = target.pathname;
      }
      if (route.status !== undefined) status = route.status;
      break;
    }
    const file = staticFile(path);
    if (file) return serveFile(file, status ?? 200);
    for (const route of errorRoutes) {
      if (route.status === 404 && route.dest && matches(route)) {
        const page = staticFile(route.dest);
        if (page) return serveFile(page, 404);
      }
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  };
}

async function listen(handle: ReturnType<typeof vercelFront>): Promise<RunningHost> {
  let logged = '';
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = createServer((request, response) => {
    handle(request, response, origin).catch((error: unknown) => {
      logged += `${String(error)}\n`;
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', () => listening()));
  return { origin, output: () => logged, stop: () => new Promise<void>((closed) => server.close(() => closed())) };
}

/** The site's `vercel.json`, turned into Vercel's own route list by `@vercel/routing-utils`. */
export async function startVercelStatic(siteDir: string): Promise<RunningHost> {
  const config = JSON.parse(readFileSync(join(siteDir, 'vercel.json'), 'utf8')) as Parameters<typeof getTransformedRoutes>[0];
  const { routes, error } = getTransformedRoutes(config);
  if (error || !routes) throw new Error(`vercel.json: ${error?.message ?? 'no routes'}`);
  return listen(
    vercelFront([...(routes as VercelRoute[]), { handle: 'error' }, { status: 404, src: '^/(.*)$', dest: '/404.html' }], resolve(siteDir)),
  );
}

const APACHE_BINARY = '/usr/sbin/apache2';
export const hasApache = existsSync(APACHE_BINARY);

/** Debian's apache2 (mod_rewrite, mod_headers) serving the site with its generated `.htaccess`. */
export async function startApache(siteDir: string): Promise<RunningHost> {
  const dir = tempDir('apache');
  mkdirSync(join(dir, 'logs'));
  const port = await freePort();
  const modules = ['mpm_event', 'authz_core', 'dir', 'mime', 'rewrite', 'headers', 'alias'];
  writeFileSync(
    join(dir, 'httpd.conf'),
    [
      `ServerRoot ${dir}`,
      ...modules.map((name) => `LoadModule ${name}_module /usr/lib/apache2/modules/mod_${name}.so`),
      `Listen 127.0.0.1:${port}`,
      'ServerName 127.0.0.1',
      `PidFile ${dir}/httpd.pid`,
      `ErrorLog ${dir}/logs/error.log`,
      'LogLevel warn',
      'TypesConfig /etc/mime.types',
      `DocumentRoot ${resolve(siteDir)}`,
      `<Directory ${resolve(siteDir)}>`,
      '  AllowOverride All',
      '  Require all granted',
      '</Directory>',
      '',
    ].join('\n'),
  );
  const { child, output } = startProcess(APACHE_BINARY, ['-X', '-f', join(dir, 'httpd.conf')], { cwd: dir, env: { APACHE_RUN_DIR: dir } });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(origin, {
    child,
    output: () => `${output()}${existsSync(join(dir, 'logs/error.log')) ? readFileSync(join(dir, 'logs/error.log'), 'utf8') : ''}`,
  });
  return { origin, output, stop: () => stopChild(child, 'SIGTERM') };
}
