/**
 * The published OpenAPI document, judged by the tools its consumers use, on the fixture site the
 * preview server serves: both linters on their defaults, as a consumer runs them (no redocly.yaml
 * or .spectral.yaml: @redocly/cli's recommended rules, every spectral:oas rule) find no error and
 * no warning but, where the publisher states no contact or licence, those for want of them;
 * openapi-typescript's types and openapi-fetch give a client that walks every page by number and
 * reads every field under `tsc --strict` without a cast; and Prism, as a proxy in front of the
 * preview server, finds no violation in any form of request a client sends.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cleanEnvironment } from '../../scripts/lib/servers.ts';
import { loadConfig } from '../../src/config.ts';
import { openApiDocument } from '../../src/listing/contract.ts';
import { unstatedInfo } from '../../src/listing/publisher.ts';
import { freePort, projectRoot, tempDir } from '../support/site.ts';

const origin = inject('origin');
const outDir = inject('outDir');
const openApi = join(outDir, 'openapi.json');
/** The consumers' tools, installed apart (test/tools: openapi-typescript wants TypeScript 5, the project builds with 6). */
const tools = join(projectRoot, 'test/tools');
const bin = (name: string) => join(tools, 'node_modules/.bin', name);
/** Inside the tools' folder, so that the client's imports (openapi-fetch) resolve from its node_modules. */
const workspace = join(tools, `typed-client-${process.pid}`);
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
/**
 * Where the linters run: a folder of its own, outside the project, so that no configuration of
 * ours is found; it holds only the default ruleset Spectral is given (it has no built-in one).
 */
const lintFolder = tempDir('openapi-lint');
const DEFAULT_SPECTRAL_RULESET = 'extends: [[spectral:oas, all]]\n';
beforeAll(() => writeFileSync(join(lintFolder, 'spectral-oas-all.yaml'), DEFAULT_SPECTRAL_RULESET));
afterAll(() => rmSync(lintFolder, { recursive: true, force: true }));

const run = (command: string, args: string[], cwd = projectRoot) =>
  spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    // No telemetry or update checks: there is no network here, and a linter's verdict must not depend on one.
    env: { ...cleanEnvironment(), REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' },
  });

/**
 * What each linter finds in `document` on its defaults, as `rule at where` lines. The document is as
 * a site published at a real address has it: the linters rightly refuse a server at example.com,
 * the fixture site's address. The same function writes the published file.
 */
function lintOnDefaults(name: string, document: object): { redocly: string[]; spectral: string[] } {
  const file = join(lintFolder, `${name}.json`);
  writeFileSync(file, JSON.stringify(document, null, 2));
  const redocly = run(bin('redocly'), ['lint', file, '--format', 'json'], lintFolder);
  const { problems, totals } = JSON.parse(redocly.stdout) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; severity: string; location: { pointer: string }[] }[];
  };
  expect(redocly.stderr, 'Redocly on its recommended rules').toContain('using built in recommended configuration');
  expect(totals.errors + totals.warnings).toBe(problems.length);
  const spectral = run(bin('spectral'), ['lint', file, '--ruleset', 'spectral-oas-all.yaml', '--format', 'json', '--quiet'], lintFolder);
  const findings = JSON.parse(spectral.stdout || '[]') as { code: string; severity: number; path: string[] }[];
  // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
  return {
    redocly: problems.map(({ ruleId, severity, location }) => `${severity} ${ruleId} at ${location[0]?.pointer ?? ''}`).sort(),
    spectral: findings
      .map(({ code, severity, path }) => `${['error', 'warn', 'info', 'hint'][severity]} ${code} at ${path.join('.')}`)
      .sort(),
  };
}

describe('the OpenAPI document, as its consumers’ tools read it', () => {
  it('passes both linters on their defaults with no error and no warning, where the publisher states a contact and a licence', () => {
    // As the configuration reads them (README, Configuration).
    const { contact, license } = loadConfig({
      API_CONTACT: 'Cars HK <api@cars.hk-listing.net> (https://cars.hk-listing.net/contact)',
      API_LICENSE: 'CC-BY-4.0',
    });
    expect(lintOnDefaults('stated', openApiDocument('https://cars.hk-listing.net', { contact, license }))).toEqual({
      redocly: [],
      spectral: [],
    });
    // Terms of its own, stated by name and URL, as well.
    const terms = loadConfig({ API_LICENSE: 'Cars HK data terms (https://cars.hk-listing.net/terms)' }).license;
    expect(lintOnDefaults('terms', openApiDocument('https://cars.hk-listing.net', { contact, license: terms }))).toEqual({
      redocly: [],
      spectral: [],
    });
  });

  it('gets from both linters on their defaults only the warnings for want of what the publisher does not state, as the build report names it', () => {
    const lint = (name: string, variables: Record<string, string>) => {
      const publisher = loadConfig(variables);
      return { ...lintOnDefaults(name, openApiDocument('https://cars.hk-listing.net', publisher)), unstated: unstatedInfo(publisher) };
    };
    expect(lint('unstated', {})).toEqual({
      redocly: ['warn info-license at #/info'],
      spectral: ['warn info-contact at info', 'warn info-license at info', 'warn license-url at info'],
      unstated: ['contact', 'license'],
    });
    expect(lint('licence-only', { API_LICENSE: 'ODbL-1.0' })).toEqual({
      redocly: [],
      spectral: ['warn info-contact at info'],
      unstated: ['contact'],
    });
    expect(lint('email-only', { API_CONTACT: '<api@cars.hk-listing.net>', API_LICENSE: 'MIT' })).toEqual({
      redocly: [],
      spectral: ['warn contact-properties at info.contact'],
      unstated: ['contact.name', 'contact.url'],
    });
  });

  it('generates types with which a typed openapi-fetch client walks every page and reads every field, under tsc --strict', () => {
    mkdirSync(workspace, { recursive: true });
    const types = run(bin('openapi-typescript'), [openApi, '--output', join(workspace, 'listing.d.ts')]);
    expect(types.status, types.stderr).toBe(0);
    copyFileSync(join(projectRoot, 'test/fixtures/typed-client/walk.ts'), join(workspace, 'walk.ts'));
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        module: 'nodenext',
        target: 'es2024',
        allowImportingTsExtensions: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(tools, 'node_modules/@types')],
      },
      files: ['walk.ts'],
    };
    writeFileSync(join(workspace, 'tsconfig.json'), JSON.stringify(tsconfig));
    const compiled = run(process.execPath, [
      join(projectRoot, 'node_modules/typescript/bin/tsc'),
      '--project',
      join(workspace, 'tsconfig.json'),
    ]);
    expect(compiled.stdout, 'tsc --strict').toBe('');
    expect(compiled.status).toBe(0);
    const walked = run(process.execPath, [join(workspace, 'walk.ts'), origin]);
    expect(walked.status, walked.stderr).toBe(0);
    const all = JSON.parse(readFileSync(join(outDir, 'all.json'), 'utf8')) as Record<string, unknown>[];
    expect(JSON.parse(walked.stdout)).toEqual(all.map((record) => Object.values(record)));
  });

  describe('Prism as a proxy in front of the preview server', () => {
    let prism: ReturnType<typeof spawn>;
    let proxy = '';
    beforeAll(async () => {
      const port = await freePort();
      proxy = `http://127.0.0.1:${port}`;
      prism = spawn(bin('prism'), ['proxy', openApi, origin, '--port', String(port), '--host', '127.0.0.1', '--errors'], {
        cwd: projectRoot,
        env: cleanEnvironment(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(() => fail(new Error(`Prism did not start:\n${output}`)), 60_000);
        const listen = (chunk: Buffer) => {
          output += chunk.toString();
          if (/Prism is listening/.test(output)) {
            clearTimeout(timer);
            ready();
          }
        };
        prism.stdout?.on('data', listen);
        prism.stderr?.on('data', listen);
        prism.once('exit', (code) => fail(new Error(`Prism exited (${code}):\n${output}`)));
      });
    }, 90_000);
    afterAll(() => {
      prism.kill('SIGTERM');
    });

    /**
     * Every form of request a client sends: each URL form and method, conditional requests, errors.
     * Not HEAD: Prism 5's proxy parses a JSON answer's body, and a HEAD answer has none (it fails
     * with "invalid json response body"); HEAD is checked against GET's headers by the listing's
     * own suite (test/support/listing-behaviour.ts) on every server.
     */
    const requests = async (): Promise<{ method: string; path: string; headers?: Record<string, string>; status: number }[]> => {
      const etagOf = async (path: string) => (await fetch(`${origin}${path}`)).headers.get('etag') ?? '';
      const listing = '/car/api/capture_car/latest';
      const forms = [];
      for (const path of [listing, `${listing}?page=2`, `${listing}?format=api&page=last`, `${listing}/page/2`, `${listing}/page/2.json`]) {
        forms.push({ method: 'GET', path, status: 200 });
        forms.push({ method: 'GET', path, headers: { 'If-None-Match': await etagOf(path) }, status: 304 });
        forms.push({ method: 'OPTIONS', path, status: 200 });
      }
      forms.push(
        { method: 'GET', path: `${listing}?page=99`, status: 404 },
        { method: 'GET', path: `${listing}?format=xml`, status: 404 },
        { method: 'GET', path: `${listing}/page/99`, status: 404 },
        { method: 'GET', path: `${listing}/page/99.json`, status: 404 },
        { method: 'OPTIONS', path: `${listing}?format=xml`, status: 404 },
      );
      const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as { buildId: string };
      for (const path of [
        '/all.json',
        '/all.csv',
        '/manifest.json',
        '/changes.json',
        `/history/${manifest.buildId}.json`,
        '/openapi.json',
        '/schema/page.schema.json',
        '/schema/manifest.schema.json',
      ]) {
        forms.push({ method: 'GET', path, status: 200 });
        forms.push({ method: 'GET', path, headers: { 'If-None-Match': await etagOf(path) }, status: 304 });
      }
      return forms;
    };

    it('finds no violation in any of them, and answers each as the preview server does', async () => {
      const violations: string[] = [];
      for (const { method, path, headers = {}, status } of await requests()) {
        const response = await fetch(`${proxy}${path}`, { method, headers, redirect: 'manual' });
        const found = response.headers.get('sl-violations');
        if (found !== null || response.status !== status)
          violations.push(
            `${method} ${path} ${JSON.stringify(headers)}: ${response.status} ${found ?? ''} ${response.status >= 400 ? await response.text() : ''}`,
          );
      }
      expect(violations).toEqual([]);
    });

    it('refuses what the document does not describe: a page neither a whole number nor `last` (the listing says 404), another method (405, as the listing)', async () => {
      const response = await fetch(`${proxy}/car/api/capture_car/latest?page=abc`);
      expect(response.status).toBe(422);
      const { validation } = (await response.json()) as { validation: { location: string[] }[] };
      expect(validation.map(({ location }) => location.join('.'))).toContain('query.page');
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const refused = await fetch(`${proxy}/car/api/capture_car/latest/page/2.json`, { method });
        expect(refused.status, method).toBe(405);
        expect((await refused.json()) as unknown, method).toMatchObject({ type: expect.stringContaining('NO_METHOD_MATCHED') as unknown });
      }
    });
  });
});
