import { createHash } from 'node:crypto';
import { cpSync, linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { checkedJson } from '../../src/files/checked-files.ts';
import { currentBuild, settingsOf, stampPublished } from '../../src/publish/current.ts';
import { newBuildFolder, publish, storeDirOf, type BuildFolder } from '../../src/publish/store.ts';
import { VERCEL_STATIC_DIR } from '../../src/serve/hosts/vercel.ts';
import { projectRoot, tempDir } from '../support/site.ts';

let workspace: string;
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(workspace, { recursive: true, force: true });
});

const DATA = 'id,name\n1,Toyota\n';

/** A project (its sources and data), and a published build of it with its stamp, as a build leaves them. */
function current(): { root: string; config: Config; store: string; folder: BuildFolder } {
  workspace = tempDir('current');
  const root = join(workspace, 'project');
  mkdirSync(join(root, 'data'), { recursive: true });
  cpSync(join(projectRoot, 'src'), join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'data/cars.csv'), DATA);
  const config = loadConfig({
    DATA_FILE: join(root, 'data/cars.csv'),
    OUT_DIR: join(workspace, 'dist'),
    DEPLOY_DIR: join(workspace, 'deploy'),
    BASE_URL: 'https://cars.example.com',
  });
  const store = storeDirOf(config.outDir);
  const folder = newBuildFolder(store, VERCEL_STATIC_DIR);
  mkdirSync(join(folder.siteDir, 'page/2'), { recursive: true });
  writeFileSync(join(folder.siteDir, 'index.html'), '<p>one</p>');
  writeFileSync(join(folder.siteDir, 'page/2/index.html'), '<p>two</p>');
  mkdirSync(join(folder.deployDir, 'static'), { recursive: true });
  linkSync(join(folder.siteDir, 'index.html'), join(folder.deployDir, 'static/index.html'));
  publish(store, folder, config.outDir, config.deployDir);
  stampPublished(store, folder, {
    settings: settingsOf(config, root),
    dataSha256: createHash('sha256').update(DATA).digest('hex'),
    changedBy: folder.id,
    rows: 1,
    files: 2,
    bytes: 20,
  });
  return { root, config, store, folder };
}

describe('whether the published build is current', () => {
  it('is, for the same data, code and settings, its files as published: the stamp says what its report says', () => {
    const { root, config, store, folder } = current();
    expect(currentBuild(config, root, store)).toEqual({ buildId: folder.id, changedBy: folder.id, rows: 1, files: 2, bytes: 20 });
  });

  it('is not for other data bytes (a saved file is read, not its time)', () => {
    const { root, config, store } = current();
    writeFileSync(config.dataFile, 'id,name\n1,Honda\n');
    expect(currentBuild(config, root, store)).toBeUndefined();
    writeFileSync(config.dataFile, 'id,name\n1,Toyota\n');
    expect(currentBuild(config, root, store)).toBeDefined();
    rmSync(config.dataFile);
    expect(currentBuild(config, root, store)).toBeUndefined();
  });

  it('is not for other code, public files or settings', () => {
    const { root, config, store } = current();
    expect(currentBuild({ ...config, baseUrl: 'https://other.example.com' }, root, store)).toBeUndefined();
    expect(currentBuild({ ...config, changesKept: 3 }, root, store)).toBeUndefined();
    // What /openapi.json states.
    expect(currentBuild({ ...config, contact: { email: 'api@cars.example.com' } }, root, store)).toBeUndefined();
    expect(
      currentBuild({ ...config, license: { name: 'MIT License', url: 'https://spdx.org/licenses/MIT.html' } }, root, store),
    ).toBeUndefined();
    // What a build does not depend on: the report's file, the shrink guard, the preview server.
    const other: Config = { ...config, reportFile: join(workspace, 'r.json'), allowShrink: true, fullBuild: true, port: 1, host: '::1' };
    expect(currentBuild(other, root, store)).toBeDefined();
    mkdirSync(join(root, 'public'));
    writeFileSync(join(root, 'public/favicon.svg'), '<svg/>');
    expect(currentBuild(config, root, store)).toBeUndefined();
    rmSync(join(root, 'public'), { recursive: true });
    expect(currentBuild(config, root, store)).toBeDefined();
    writeFileSync(join(root, 'src/config.ts'), '// a comment\n', { flag: 'a' });
    expect(currentBuild(config, root, store)).toBeUndefined();
  });

  it('is not for another tsconfig.json or package.json (Vite bundles by them), and is whatever NODE_ENV says (Astro sets its own)', () => {
    const { root, config, store } = current();
    vi.stubEnv('NODE_ENV', 'production');
    expect(currentBuild(config, root, store)).toBeDefined();
    vi.unstubAllEnvs();
    for (const file of ['tsconfig.json', 'package.json']) {
      writeFileSync(join(root, file), '{}');
      expect(currentBuild(config, root, store), file).toBeUndefined();
      rmSync(join(root, file));
      expect(currentBuild(config, root, store), file).toBeDefined();
    }
  });

  it("does not count what the hosts' CLIs keep in the deploy folder's folders", () => {
    const { root, config, store, folder } = current();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    mkdirSync(join(folder.deployDir, 'static/.wrangler'));
    expect(currentBuild(config, root, store)).toBeDefined();
  });

  it('is not once its site or deploy folder changes at the top level: a file written in place, cut, removed or added, a folder removed or changed', () => {
    const changes: Record<string, (folder: BuildFolder) => void> = {
      'a top-level file rewritten in place, its size kept': (folder) => writeFileSync(join(folder.siteDir, 'index.html'), '<p>ONE</p>'),
      'a top-level file cut short': (folder) => truncateSync(join(folder.siteDir, 'index.html'), 1),
      'a top-level file removed': (folder) => rmSync(join(folder.siteDir, 'index.html')),
      'a file added': (folder) => writeFileSync(join(folder.siteDir, 'stray.html'), ''),
      'a folder removed': (folder) => rmSync(join(folder.siteDir, 'page'), { recursive: true }),
      'a page folder removed': (folder) => rmSync(join(folder.siteDir, 'page/2'), { recursive: true }),
      'a file added to the deploy folder': (folder) => writeFileSync(join(folder.deployDir, 'nginx.conf'), ''),
      "the deploy folder's copy removed": (folder) => rmSync(join(folder.deployDir, 'static'), { recursive: true }),
      'a link added to the deploy folder': (folder) => symlinkSync('static', join(folder.deployDir, 'other')),
    };
    for (const [name, change] of Object.entries(changes)) {
      const { root, config, store, folder } = current();
      expect(currentBuild(config, root, store), name).toBeDefined();
      // A file's time is the kernel's coarse clock (a few milliseconds): the change comes in a tick of its own.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      change(folder);
      expect(currentBuild(config, root, store), name).toBeUndefined();
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('does not look deeper: a page written in place by hand is not seen (FULL_BUILD=1 builds then)', () => {
    const { root, config, store, folder } = current();
    writeFileSync(join(folder.siteDir, 'page/2/index.html'), '<p>TWO</p>');
    expect(currentBuild(config, root, store)).toBeDefined();
  });

  it('is not where OUT_DIR or DEPLOY_DIR no longer shows it, or the stamp is of another build', () => {
    let { root, config, store } = current();
    rmSync(config.outDir);
    expect(currentBuild(config, root, store)).toBeUndefined();
    rmSync(workspace, { recursive: true, force: true });
    ({ root, config, store } = current());
    rmSync(config.deployDir);
    expect(currentBuild(config, root, store)).toBeUndefined();
    rmSync(workspace, { recursive: true, force: true });
    ({ root, config, store } = current());
    // Another build published after it (its stamp not written: killed just after publishing).
    const next = newBuildFolder(store, VERCEL_STATIC_DIR);
    publish(store, next, config.outDir, config.deployDir);
    expect(currentBuild(config, root, store)).toBeUndefined();
  });

  it('says a damaged stamp in one line and takes it as none; a stamp of another version is none, unsaid', () => {
    const { root, config, store } = current();
    const stamp = join(store, 'current-build.json');
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const bytes = readFileSync(stamp);
    writeFileSync(stamp, bytes.subarray(0, bytes.length - 5));
    expect(currentBuild(config, root, store)).toBeUndefined();
    expect(error.mock.calls.map(([line]) => String(line))).toEqual([expect.stringMatching(/current-build\.json is damaged/)]);
    error.mockClear();
    writeFileSync(stamp, checkedJson({ version: 0 }));
    expect(currentBuild(config, root, store)).toBeUndefined();
    expect(error).not.toHaveBeenCalled();
  });
});
