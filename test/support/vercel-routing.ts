/**
 * The generated Vercel Build Output (`deploy/vercel/.vercel/output/`) behind an implementation of
 * Vercel's routing that the project did not write: the router of `@cloudflare/next-on-pages`
 * (installed apart in test/hosts/vercel/), which runs Build Output API v3 `config.json` routes with
 * their phases (`handle`), `has`/`missing`, `methods`, `headers` (and `important`), `status`,
 * `check`, `continue` and Routing Middleware (`middlewarePath`, `x-middleware-rewrite`).
 *
 * Around it, what Vercel's platform does and the router leaves to its host: the static files come
 * from serve-handler (types, ETag and 304; other methods get a plain 405), the middleware runs on
 * Vercel's `edge-runtime` exactly as generated, and Deployment Protection is modelled in front of
 * it all: every HTTP request that reaches the deployment without the bypass header gets 401, so a
 * function that fetched its own site would fail as it does on a protected preview.
 *
 * The one assumption beyond the package's public API lives here: its router is the TypeScript
 * source it ships in `templates/_worker.js/` (`handleRequest.ts`, exporting
 * `handleRequest(requestContext, processedConfig, buildOutput, buildMetadata)`), which its CLI
 * bundles into every worker it builds. test/http/vercel.test.ts names it when an upgrade moves it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EdgeRuntime } from 'edge-runtime';
import { build, transform } from 'esbuild';
import serveHandler from 'serve-handler';
import { freePort, projectRoot, tempDir } from '../../scripts/lib/servers.ts';
import type { RunningHost } from './hosts.ts';

const PACKAGE_DIR = join(projectRoot, 'test/hosts/vercel/node_modules/@cloudflare/next-on-pages');
/** The router's entry in the package: the assumption named above. */
export const ROUTER_ENTRY = join(PACKAGE_DIR, 'templates/_worker.js/handleRequest.ts');
export const hasVercelRouter = existsSync(ROUTER_ENTRY);

/** Vercel's header for "Protection Bypass for Automation": the test client's credential. */
export const PROTECTION_BYPASS_HEADER = 'x-vercel-protection-bypass';

interface Route {
  src?: string;
  handle?: string;
  middlewarePath?: string;
  [key: string]: unknown;
}
type Phase = 'none' | 'filesystem' | 'miss' | 'rewrite' | 'resource' | 'hit' | 'error';
type OutputItem = { type: 'static' } | { type: 'middleware' | 'function'; entrypoint: string };

interface AssetsFetcher {
  fetch: (request: Request) => Promise<Response>;
}
type HandleRequest = (
  requestContext: {
    request: Request;
    ctx: { waitUntil: (promise: Promise<unknown>) => void; passThroughOnException: () => void };
    assetsFetcher: AssetsFetcher;
  },
  config: { routes: Record<Phase, Route[]> },
  output: Record<string, OutputItem>,
  buildMetadata: { collectedLocales: string[] },
) => Promise<Response>;

/** The router's module, bundled from the package's source with its own dependencies. */
async function loadRouter(): Promise<HandleRequest> {
  if (!hasVercelRouter) throw new Error(`@cloudflare/next-on-pages's router is not at ${relative(projectRoot, ROUTER_ENTRY)}`);
  const file = join(tempDir('vercel-router'), 'router.mjs');
  await build({
    entryPoints: [ROUTER_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    outfile: file,
    logLevel: 'silent',
  });
  const module = (await import(pathToFileURL(file).href)) as { handleRequest?: unknown };
  if (typeof module.handleRequest !== 'function') throw new Error(`${relative(projectRoot, ROUTER_ENTRY)} no longer exports handleRequest`);
  return module.handleRequest as HandleRequest;
}

/** The routes by phase, as Vercel reads them: a `handle` route starts the phase it names. */
function routesByPhase(routes: readonly Route[]): Record<Phase, Route[]> {
  const phases: Record<Phase, Route[]> = { none: [], filesystem: [], miss: [], rewrite: [], resource: [], hit: [], error: [] };
  let phase: Phase = 'none';
  for (const route of routes) {
    if (route.handle !== undefined) phase = route.handle as Phase;
    else phases[phase].push(route);
  }
  return phases;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative(dir, join(entry.parentPath, entry.name))}`);
}

/**
 * Runs each edge function of the output on `edge-runtime`, counting the calls. As Vercel names them:
 * a function by its path (`/name` for `functions/name.func`), a middleware by its `middlewarePath`.
 */
async function edgeFunctions(functionsDir: string, middleware: ReadonlySet<string>, calls: string[]): Promise<Record<string, OutputItem>> {
  const names = readdirSync(functionsDir)
    .filter((name) => name.endsWith('.func'))
    .map((name) => name.slice(0, -'.func'.length));
  const registry = Symbol.for('vercel-routing-test.functions');
  const modules = tempDir('vercel-functions');
  const entries: Record<string, OutputItem> = {};
  const runners: Record<string, (request: Request) => Promise<Response>> = {};
  await Promise.all(
    names.map(async (name) => {
      const code = readFileSync(join(functionsDir, `${name}.func/index.js`), 'utf8');
      const script = await transform(code, { format: 'iife', globalName: '__edgeFunction' });
      const runtime = new EdgeRuntime({
        initialCode: `${script.code}\naddEventListener('fetch', (event) => event.respondWith(__edgeFunction.default(event.request)));`,
      });
      runners[name] = async (request) => {
        calls.push(`${name}: ${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
        const answer = await runtime.dispatchFetch(request.url, { method: request.method, headers: Object.fromEntries(request.headers) });
        await answer.waitUntil();
        // A Response of this realm: the router copies headers only from its own realm's Headers.
        const body = await answer.arrayBuffer();
        return new Response(body.byteLength > 0 ? body : null, { status: answer.status, headers: [...answer.headers] });
      };
      const entry = join(modules, `${name}.mjs`);
      writeFileSync(
        entry,
        `export default (request) => globalThis[Symbol.for(${JSON.stringify(registry.description)})][${JSON.stringify(name)}](request);\n`,
      );
      const entrypoint = pathToFileURL(entry).href;
      if (middleware.has(name)) entries[name] = { type: 'middleware', entrypoint };
      else entries[`/${name}`] = { type: 'function', entrypoint };
    }),
  );
  (globalThis as Record<symbol, unknown>)[registry] = runners;
  return entries;
}

/** The static files as Vercel's platform serves them, on a loopback port of its own (not the deployment's). */
async function staticFiles(dir: string): Promise<{ fetcher: AssetsFetcher; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
      return;
    }
    void serveHandler(request, response, { public: dir, etag: true, directoryListing: false });
  });
  const port = await freePort();
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', () => listening()));
  return {
    fetcher: {
      fetch: (request) => {
        const url = new URL(request.url);
        return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, {
          method: request.method,
          headers: request.headers,
          redirect: 'manual',
        });
      },
    },
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

export interface VercelDeployment extends RunningHost {
  /** Every call of an edge function, as `name: METHOD path?query`. */
  functionCalls: () => readonly string[];
}

/** Headers of one connection, not of the answer: the front server sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

async function writeResponse(answer: Response, method: string, response: ServerResponse): Promise<void> {
  const body = Buffer.from(await answer.arrayBuffer());
  const headers = Object.fromEntries([...answer.headers].filter(([name]) => !HOP_BY_HOP.has(name)));
  // A body the platform has whole goes out with its length; HEAD keeps the length of GET's.
  if (headers['content-length'] === undefined && answer.status !== 304) headers['content-length'] = String(body.length);
  response.writeHead(answer.status, headers);
  response.end(method === 'HEAD' ? undefined : body);
}

/** What to route: Build Output routes, the static files, and the folder of edge functions. */
interface Deployment {
  routes: Route[];
  staticDir: string;
  functionsDir: string;
  /** Deployment Protection lets through only requests with `PROTECTION_BYPASS_HEADER: secret`. */
  secret: string;
}

/** A deployment behind the router, on a loopback port. */
async function startRouting({ routes, staticDir, functionsDir, secret }: Deployment): Promise<VercelDeployment> {
  const handleRequest = await loadRouter();
  const calls: string[] = [];
  const middleware = new Set(routes.flatMap((route) => (route.middlewarePath ? [route.middlewarePath] : [])));
  const output: Record<string, OutputItem> = {
    ...Object.fromEntries(filesUnder(staticDir).map((path): [string, OutputItem] => [path, { type: 'static' }])),
    ...(await edgeFunctions(functionsDir, middleware, calls)),
  };
  const config = { routes: routesByPhase(routes) };
  const assets = await staticFiles(staticDir);
  let logged = '';

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const method = incoming.method ?? 'GET';
    if (incoming.headers[PROTECTION_BYPASS_HEADER] !== secret) {
      response.writeHead(401, { 'content-type': 'text/plain' }).end('Authentication Required');
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(`${origin}${incoming.url ?? '/'}`, { method, headers });
    const ctx = { waitUntil: () => undefined, passThroughOnException: () => undefined };
    handleRequest({ request, ctx, assetsFetcher: assets.fetcher }, config, output, { collectedLocales: [] })
      .then((answer) => writeResponse(answer, method, response))
      .catch((error: unknown) => {
        logged += `${String(error)}\n`;
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
  });
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', () => listening()));
  return {
    origin,
    output: () => logged,
    functionCalls: () => [...calls],
    stop: async () => {
      await new Promise<void>((closed) => server.close(() => closed()));
      await assets.close();
    },
  };
}

/**
 * The Build Output folder of a deploy folder, deployed behind the router with Deployment Protection
 * on: only requests with `PROTECTION_BYPASS_HEADER: secret` get through.
 */
export async function startVercelDeployment(deployDir: string, secret: string): Promise<VercelDeployment> {
  const outputDir = join(deployDir, 'vercel/.vercel/output');
  const { routes } = JSON.parse(readFileSync(join(outputDir, 'config.json'), 'utf8')) as { routes: Route[] };
  return startRouting({ routes, staticDir: join(outputDir, 'static'), functionsDir: join(outputDir, 'functions'), secret });
}
