/**
 * A consumer's mirror (client/mirror.ts), run against the real preview server over real builds: it
 * ends byte-identical to the site (every file a host serves, the manifest included) across builds it
 * missed: one that changed only BASE_URL (every page's links), a one-row edit and a build that changed
 * nothing; it fetches only what the builds it missed changed; it resyncs where the history no longer
 * reaches back to the build it holds; and it refuses bytes that are not the manifest's.
 */
import { createServer } from 'node:http';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncMirror } from '../../client/mirror.ts';
import { ORDERS } from '../../src/listing/search.ts';
import { buildSite, freePort, projectRoot, startPreview, tempDir, treeHashes, type RunningPreview, projectCopy } from '../support/site.ts';

const workspace = tempDir('mirror');
/** A copy of the project of this file's own (its caches and build lock): the file runs beside others. */
const project = projectCopy(workspace);
const site = join(workspace, 'site');
const mirror = join(workspace, 'mirror');
let preview: RunningPreview;

const lines = readFileSync(join(projectRoot, 'test/fixtures/listing-23.csv'), 'utf8').trimEnd().split('\n');
let edits = 0;
/** The fixture with one more price edited: a new file each time. */
function edited(): string {
  edits += 1;
  const row = 1 + (edits % (lines.length - 1));
  lines[row] = lines[row]!.split(',')
    .with(8, String(2_000_000 + edits))
    .join(',');
  const file = join(workspace, `edit-${edits}.csv`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const build = (dataFile: string, baseUrl = 'https://cars.example.com', extra: Record<string, string> = {}) =>
  buildSite({ DATA_FILE: dataFile, OUT_DIR: site, BASE_URL: baseUrl, ...extra }, project);

/** The site as a mirror sees it: every file its manifest lists, and the manifest. */
function servedTree(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(site, 'manifest.json'), 'utf8')) as { files: Record<string, string> };
  const all = treeHashes(site);
  return Object.fromEntries(Object.entries(all).filter(([path]) => path === 'manifest.json' || path in manifest.files));
}

const changesJson = () =>
  JSON.parse(readFileSync(join(site, 'changes.json'), 'utf8')) as { buildId: string; files: { changed: string[]; removed: string[] } };

beforeAll(async () => {
  build(join(projectRoot, 'test/fixtures/listing-23.csv'));
  preview = await startPreview({ OUT_DIR: site });
});
afterAll(async () => {
  await preview.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('a mirror of the site', () => {
  it('fetches every file the first time, ending byte-identical to the site', async () => {
    const result = await syncMirror(preview.origin, mirror);
    expect(result.resynced).toBe(true);
    expect(treeHashes(mirror)).toEqual(servedTree());
    expect(result.fetched.at(-1)).toBe('manifest.json');
  });

  it('follows the history across builds it missed (only BASE_URL changed; one row edited; nothing changed), fetching what they changed', async () => {
    build(edited(), 'https://other.example.com');
    const afterBaseUrl = changesJson().files.changed;
    build(edited(), 'https://other.example.com');
    const afterEdit = changesJson().files.changed;
    const changesBefore = readFileSync(join(site, 'changes.json'));
    // A build that publishes and changes nothing (a change of code that changes no file, say; the same data alone has nothing to build).
    build(join(workspace, `edit-${edits}.csv`), 'https://other.example.com', { FULL_BUILD: '1' });
    // The build that changed nothing added nothing: the same changes.json.
    expect(readFileSync(join(site, 'changes.json'))).toEqual(changesBefore);
    await expect
      .poll(async () => ((await (await fetch(`${preview.origin}/manifest.json`)).json()) as { buildId: string }).buildId)
      .not.toBe(changesJson().buildId);
    const result = await syncMirror(preview.origin, mirror);
    expect(result.resynced).toBe(false);
    expect(new Set(result.fetched)).toEqual(new Set([...afterBaseUrl, ...afterEdit, 'manifest.json']));
    expect(treeHashes(mirror)).toEqual(servedTree());
  });

  it('fetches nothing but the manifest after a build that changed nothing, and only a one-row edit’s files after one', async () => {
    build(join(workspace, `edit-${edits}.csv`), 'https://other.example.com', { FULL_BUILD: '1' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await syncMirror(preview.origin, mirror)).fetched).toEqual(['manifest.json']);
    build(edited(), 'https://other.example.com');
    const changed = changesJson().files.changed;
    await new Promise((resolve) => setTimeout(resolve, 600));
    const result = await syncMirror(preview.origin, mirror);
    expect(result.fetched.sort()).toEqual([...changed, 'manifest.json'].sort());
    // One page's JSON and HTML and the home page (each in both languages), the downloads, the
    // changes and the history, and of the search index the file of each order holding the row
    // and the price orders' range directories: not the site.
    const [searchFiles, others] = [
      changed.filter((file) => file.startsWith('search/')),
      changed.filter((file) => !file.startsWith('search/')),
    ];
    expect(others.length).toBeLessThanOrEqual(10);
    expect(searchFiles.length).toBeLessThanOrEqual(ORDERS.length + 4);
    expect(treeHashes(mirror)).toEqual(servedTree());
  });

  it('resyncs from the manifest where the history no longer reaches back to the build it holds', async () => {
    for (let missed = 0; missed < 3; missed += 1) build(edited(), 'https://other.example.com', { CHANGES_KEPT: '2' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    const said: string[] = [];
    const result = await syncMirror(preview.origin, mirror, { log: (line) => said.push(line) });
    expect(result.resynced).toBe(true);
    expect(said.join('\n')).toContain('no longer reaches back');
    expect(treeHashes(mirror)).toEqual(servedTree());
    // The history kept two documents.
    expect((JSON.parse(readFileSync(join(site, 'changes.json'), 'utf8')) as { history: unknown[] }).history).toHaveLength(2);
  });

  it("refuses bytes that are not the manifest's, and keeps the build it held", async () => {
    build(edited(), 'https://other.example.com');
    const held = readFileSync(join(mirror, 'manifest.json'));
    const port = await freePort();
    // A cache between the mirror and the site that serves one page wrong.
    const wrong = createServer((request, response) => {
      void fetch(`${preview.origin}${request.url ?? '/'}`).then(async (answer) => {
        const body = Buffer.from(await answer.arrayBuffer());
        response.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/octet-stream' });
        response.end(request.url?.startsWith('/all.json') ? Buffer.concat([body, Buffer.from(' ')]) : body);
      });
    }).listen(port, '127.0.0.1');
    try {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await expect(syncMirror(`http://127.0.0.1:${port}`, mirror, { attempts: 1 })).rejects.toThrow(
        "all.json: its bytes are not the manifest's",
      );
      expect(readFileSync(join(mirror, 'manifest.json'))).toEqual(held);
    } finally {
      wrong.close();
    }
    // Through the site itself, it syncs.
    await syncMirror(preview.origin, mirror);
    expect(treeHashes(mirror)).toEqual(servedTree());
  });
});
