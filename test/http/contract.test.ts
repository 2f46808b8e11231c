/**
 * What programs rely on: the published JSON Schemas and OpenAPI document describe every emitted
 * page, the full export round-trips through the build, and the same CSV builds the same bytes.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pageFile, PUBLISHED, schemaPath } from '../../src/listing/routes.ts';
import { readBuildReport } from '../../src/outputs/report.ts';
import { buildSite, fixture, publishedTree, runBuild, tempDir, treeHashes, withoutBuildDescription, projectCopy } from '../support/site.ts';
import { FIXTURE_BASE_URL } from '../support/global-setup.ts';

const origin = inject('origin');
const outDir = inject('outDir');
const workspace = tempDir('contract-test');
/** A copy of the project of this file's own (its caches and build lock): the file runs beside others. */
const project = projectCopy(workspace);
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const getJson = async (path: string): Promise<unknown> => {
  const response = await fetch(`${origin}${path}`);
  expect(response.status).toBe(200);
  return response.json();
};

function validator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

describe('the published JSON Schemas', () => {
  let manifest: { pageCount: number; files: Record<string, string> };
  beforeAll(async () => {
    manifest = (await getJson(PUBLISHED.manifest)) as typeof manifest;
  });

  it('validate every page the build emitted, as served', async () => {
    const ajv = validator();
    const validatePage = ajv.compile((await getJson(schemaPath('page'))) as object);
    for (let page = 1; page <= manifest.pageCount; page += 1) {
      const body = await getJson(`/car/api/capture_car/latest?page=${page}`);
      expect(validatePage(body), JSON.stringify(validatePage.errors)).toBe(true);
    }
  });

  it('reject a page that breaks the contract', async () => {
    const validatePage = validator().compile((await getJson(schemaPath('page'))) as object);
    const page = (await getJson('/car/api/capture_car/latest?page=1')) as { results: Record<string, unknown>[] };
    expect(validatePage({ ...page, count: -1 })).toBe(false);
    expect(validatePage({ ...page, results: [{ ...page.results[0], min_seat: '5' }] })).toBe(false);
    expect(validatePage({ ...page, results: [{ ...page.results[0], extra: 1 }] })).toBe(false);
    expect(validatePage({ ...page, results: Array.from({ length: 11 }, () => page.results[0]) })).toBe(false);
    // Spec rule 1: at least one transmission.
    const neither = { ...page.results[0], has_operation_type_auto: false, has_operation_type_hand: false };
    expect(validatePage({ ...page, results: [neither] })).toBe(false);
    const validateRecord = validator().compile((await getJson(schemaPath('car-model'))) as object);
    expect(validateRecord(neither)).toBe(false);
    expect(validateRecord({ ...neither, has_operation_type_hand: true })).toBe(true);
  });

  it("validate every record of all.json, which lists the pages' records in order", async () => {
    const validateRecord = validator().compile((await getJson(schemaPath('car-model'))) as object);
    const all = (await getJson(PUBLISHED.allJson)) as unknown[];
    for (const record of all) expect(validateRecord(record), JSON.stringify(validateRecord.errors)).toBe(true);
    const paged: unknown[] = [];
    for (let page = 1; page <= manifest.pageCount; page += 1) {
      paged.push(...((await getJson(`/car/api/capture_car/latest/page/${page}`)) as { results: unknown[] }).results);
    }
    expect(all).toEqual(paged);
  });

  it('are the ones the OpenAPI document describes the listing with', async () => {
    const openApi = (await getJson(PUBLISHED.openApi)) as {
      openapi: string;
      info: { description: string };
      servers: { url: string }[];
      paths: Record<string, Record<string, { description?: string; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, object>; headers: Record<string, { description: string }> };
    };
    expect(openApi.openapi).toBe('3.1.0');
    expect(openApi.servers[0]?.url).toBe(FIXTURE_BASE_URL);
    expect(Object.keys(openApi.paths)).toEqual([
      '/car/api/capture_car/latest',
      '/car/api/capture_car/latest/page/{page}',
      '/car/api/capture_car/latest/page/{page}.json',
      '/all.json',
      '/all.csv',
      '/manifest.json',
      '/changes.json',
      '/history/{buildId}.json',
      '/openapi.json',
      '/schema/{name}.schema.json',
    ]);
    // Only the methods that can succeed are operations; the 405 of the others is said in words.
    for (const form of ['', '/page/{page}', '/page/{page}.json']) {
      const listing = openApi.paths[`/car/api/capture_car/latest${form}`] ?? {};
      expect(Object.keys(listing), form).toEqual(['get', 'head', 'options']);
      expect(Object.keys(listing['get']?.responses ?? {}), form).toEqual(['200', '304', '404']);
    }
    // Said where a reader and a client look: the document's description, OPTIONS, its Allow header.
    const methods =
      'The listing allows GET, HEAD and OPTIONS. It is read-only: POST, PUT, PATCH and DELETE are 405 `{"detail":"Method \\"POST\\" not allowed."}`';
    expect(openApi.info.description).toContain(methods);
    expect(openApi.paths['/car/api/capture_car/latest']?.['options']?.description).toContain(methods);
    expect(openApi.components.headers['Allow']?.description).toContain(methods);
    // The page schema refers to the record's component, as the published schema refers to its $defs.
    const { $id: _id, $schema: _dialect, $defs, ...pageSchema } = (await getJson(schemaPath('page'))) as Record<string, unknown>;
    expect(JSON.stringify(openApi.components.schemas['Page'])).toBe(
      JSON.stringify(pageSchema).replaceAll('#/$defs/', '#/components/schemas/'),
    );
    expect($defs).toEqual({ CarModel: JSON.parse(JSON.stringify(openApi.components.schemas['CarModel'])) as unknown });
  });

  it('match the manifest, which lists every served file with the hash of its served bytes', async () => {
    const { createHash } = await import('node:crypto');
    for (const [path, hash] of Object.entries(manifest.files)) {
      const bytes = Buffer.from(await (await fetch(`${origin}/${path}`)).arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex'), path).toBe(hash);
    }
    const served = Object.keys(treeHashes(outDir)).filter((path) => path !== 'manifest.json');
    const configuration = served.filter((path) => !(path in manifest.files));
    // Every file but the hosts' own configuration (read by the host, never served).
    expect(configuration.sort()).toEqual([
      '.assetsignore',
      '.htaccess',
      '_errors/apache/invalid-page/.htaccess',
      '_errors/apache/not-found/.htaccess',
      '_errors/invalid-page.json',
      '_errors/not-found.json',
      '_errors/options.json',
      '_headers',
      'vercel.json',
    ]);
    expect(Object.keys(manifest.files)).toContain(pageFile(manifest.pageCount));
    expect(Object.keys(manifest.files)).toContain('openapi.json');
  });

  it('name the data file relative to the project, never by a path of the build machine', async () => {
    const { data } = (await getJson(PUBLISHED.manifest)) as { data: { file: string; sha256: string } };
    expect(data.file).toBe('test/fixtures/listing-23.csv');
    expect(data.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('stable, round-tripping output', () => {
  const withoutManifest = withoutBuildDescription;
  const env = { BASE_URL: FIXTURE_BASE_URL, ASSETS_URL: `${origin}/assets` };

  it('builds the same CSV twice into byte-identical files; only what describes the build differs (its id, time and changes)', () => {
    const again = join(workspace, 'again');
    // The same file at the same place in the project's copy: the manifest names it relative to the project.
    mkdirSync(join(project, 'test/fixtures'), { recursive: true });
    copyFileSync(fixture('listing-23.csv'), join(project, 'test/fixtures/listing-23.csv'));
    buildSite({ DATA_FILE: 'test/fixtures/listing-23.csv', OUT_DIR: again, ...env }, project);
    expect(withoutManifest(treeHashes(again))).toEqual(withoutManifest(treeHashes(outDir)));
    expect(publishedTree(again)).toEqual(publishedTree(outDir));
  });

  it('builds the exported all.csv back into byte-identical pages and exports', async () => {
    const exported = join(workspace, 'exported.csv');
    writeFileSync(exported, Buffer.from(await (await fetch(`${origin}${PUBLISHED.allCsv}`)).arrayBuffer()));
    const rebuilt = join(workspace, 'rebuilt');
    buildSite({ DATA_FILE: exported, OUT_DIR: rebuilt, ...env }, project);
    // The manifest and the changes name the data file's hash: another file, another hash.
    expect(withoutManifest(treeHashes(rebuilt))).toEqual(withoutManifest(treeHashes(outDir)));
  });
});

describe("the publisher's contact and licence", () => {
  it('are stated in /openapi.json as configured; a change of either builds again, the same again has nothing to build', () => {
    const site = join(workspace, 'stated');
    const env = {
      DATA_FILE: fixture('listing-23.csv'),
      OUT_DIR: site,
      DEPLOY_DIR: `${site}-deploy`,
      BASE_URL: FIXTURE_BASE_URL,
      API_CONTACT: 'Cars HK <api@cars.example.com> (https://cars.example.com/contact)',
      API_LICENSE: 'CC-BY-4.0',
    };
    const build = (extra: Record<string, string> = {}) => {
      const result = runBuild({ ...env, ...extra }, project);
      expect(result.status, result.stderr).toBe(0);
      const { info } = JSON.parse(readFileSync(join(site, 'openapi.json'), 'utf8')) as { info: Record<string, unknown> };
      const { openApiUnstated } = readBuildReport(`${site}-report.json`);
      // The report on screen says what the linters will miss, as its JSON names it.
      const said = /\n {2}openapi\.json {2}(.*)/.exec(result.stderr)?.[1];
      return { built: !result.stderr.includes('Nothing to build'), info, openApiUnstated, said };
    };
    expect(build()).toMatchObject({
      built: true,
      info: {
        contact: { name: 'Cars HK', url: 'https://cars.example.com/contact', email: 'api@cars.example.com' },
        license: { name: 'Creative Commons Attribution 4.0 International', url: 'https://spdx.org/licenses/CC-BY-4.0.html' },
      },
    });
    expect(build()).toMatchObject({ built: false, openApiUnstated: [], said: undefined });
    const other = build({ API_LICENSE: 'ODbL-1.0' });
    expect(other).toMatchObject({ built: true, info: { license: { url: 'https://spdx.org/licenses/ODbL-1.0.html' } } });
    expect(build({ API_LICENSE: 'ODbL-1.0', API_CONTACT: '<data@cars.example.com>' })).toMatchObject({
      built: true,
      info: { contact: { email: 'data@cars.example.com' } },
      openApiUnstated: ['contact.name', 'contact.url'],
      said: "no info.contact.name, info.contact.url: linters on their default rules warn for want of them (API_CONTACT, README's Configuration)",
    });
    const unstated = build({ API_LICENSE: '', API_CONTACT: '' });
    expect(unstated).toMatchObject({
      built: true,
      openApiUnstated: ['contact', 'license'],
      said: "no info.contact, info.license: linters on their default rules warn for want of them (API_CONTACT, API_LICENSE, README's Configuration)",
    });
    // Said again where there is nothing to build: the published document is the same.
    expect(build({ API_LICENSE: '', API_CONTACT: '' })).toMatchObject({ built: false, said: unstated.said });
    expect(Object.keys(unstated.info)).not.toContain('contact');
    expect(Object.keys(unstated.info)).not.toContain('license');
  });
});
