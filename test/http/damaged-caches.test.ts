/**
 * A cache costs time, never correctness: each kind of kept file a build takes bytes from (prepared
 * records and text, the preparation's own description and its list of changed rows, each download
 * and its row lengths and hashes, the host files, the published build's record of page keys and
 * its stamp) is
 * damaged in place as a disk error or a sync tool would (truncated, bytes flipped, zeroed,
 * emptied), and the next build must say so in one line and publish a clean build's bytes; Node's
 * compile cache, damaged the same ways, must not matter at all. The reference is built by another
 * copy of the project, whose caches are deleted before each build.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storeDirOf } from '../../src/publish/store.ts';
import { foldersIn, projectCopy, projectRoot, publishedTree, runBuild, tempDir } from '../support/site.ts';

const workspace = tempDir('damaged-caches');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const project = projectCopy(join(workspace, 'maintainer'));
const reference = projectCopy(join(workspace, 'reference'));
const preparedDir = (root: string) => join(root, 'node_modules/.astro/listing-data');

const lines = readFileSync(join(projectRoot, 'data/captured-car-models.csv'), 'utf8').replace(/\n$/, '').split('\n');
let edits = 0;
/** The default data with one more price edited (a new file each time: an edit of the last one). */
function nextEdit(): string {
  edits += 1;
  const row = 1 + ((edits * 37) % (lines.length - 1));
  lines[row] = lines[row]!.split(',')
    .with(7, String(100_000 + edits))
    .join(',');
  const file = join(workspace, 'data', `edit-${edits}.csv`);
  writeFileSync(file, `${lines.join('\n')}\n`, { flag: 'w' });
  return file;
}
mkdirSync(join(workspace, 'data'));

const site = join(workspace, 'site');
const env = (dataFile: string, outDir: string) => ({
  DATA_FILE: dataFile,
  OUT_DIR: outDir,
  DEPLOY_DIR: `${outDir}-deploy`,
  BASE_URL: 'https://cars.example.com',
});

/**
 * Builds `dataFile` over the maintainer's site; returns its log. `full`: FULL_BUILD=1, for the same
 * data again, where else the published build is current and nothing is built or read but its
 * stamp (src/publish/current.ts).
 */
function build(dataFile: string, { full = false } = {}): string {
  const result = runBuild({ ...env(dataFile, site), ...(full && { FULL_BUILD: '1' }) }, project);
  const log = `${result.stdout}\n${result.stderr}`;
  expect(result.status, log).toBe(0);
  return log;
}

/** The data file the reference site was last built from: the same data again compares with the same clean build. */
let cleanBuildOf: string | undefined;

/** The site a clean build of `dataFile` publishes, by a project whose caches are new. */
function expectCleanBuild(dataFile: string): void {
  const clean = join(workspace, 'clean');
  if (cleanBuildOf !== dataFile) {
    cleanBuildOf = undefined;
    rmSync(join(reference, 'node_modules/.astro'), { recursive: true, force: true });
    rmSync(clean, { force: true });
    rmSync(`${clean}-deploy`, { force: true });
    rmSync(storeDirOf(clean), { recursive: true, force: true });
    const result = runBuild(env(dataFile, clean), reference);
    expect(result.status, result.stderr).toBe(0);
    cleanBuildOf = dataFile;
  }
  expect(publishedTree(site)).toEqual(publishedTree(clean));
  expect(foldersIn(site)).toEqual(foldersIn(clean));
}

type Damage = 'truncated' | 'bytes flipped' | 'zeroed' | 'emptied';
const DAMAGES: readonly Damage[] = ['truncated', 'bytes flipped', 'zeroed', 'emptied'];

/** Damages `file` in place (its inode kept, as a disk error or a tool writing into it would). */
function damage(file: string, how: Damage): void {
  const size = statSync(file).size;
  expect(size, file).toBeGreaterThan(2);
  if (how === 'truncated') return truncateSync(file, Math.floor(size / 2));
  if (how === 'emptied') return truncateSync(file, 0);
  const fd = openSync(file, 'r+');
  try {
    if (how === 'zeroed')
      writeSync(fd, Buffer.alloc(Math.max(1, Math.floor(size / 3))), 0, Math.max(1, Math.floor(size / 3)), Math.floor(size / 3));
    else for (const at of [0, Math.floor(size / 2), size - 1]) writeSync(fd, Buffer.from([readFileSync(file)[at]! ^ 0xff]), 0, 1, at);
  } finally {
    closeSync(fd);
  }
}

/** The newest preparation of the maintainer's project (the published data's). */
function newestPreparation(): string {
  const dir = preparedDir(project);
  const [newest] = readdirSync(dir)
    .filter((name) => !name.endsWith('.tmp'))
    .map((name) => ({ name, time: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  return join(dir, newest!.name);
}
const publishedBuildDir = () => join(storeDirOf(site), 'current');

/**
 * Each kind of kept file, where it is, and the build that takes bytes from it: the same data
 * again (the preparation, its downloads and the record taken as they are), or an edit (the
 * published preparation's text and records validated against, its downloads' rows copied).
 */
const inPreparation = (name: string) => ({ name: `listing-data/<key>/${name}`, file: () => join(newestPreparation(), name) });
const KINDS: readonly { name: string; file: () => string; next: 'same data' | 'an edit' | 'same data, not built in full' }[] = [
  // First: only a preparation validated as an edit of a whole one lists the rows it changed.
  { ...inPreparation('earlier.json'), next: 'same data' },
  { ...inPreparation('records.v8'), next: 'same data' },
  { ...inPreparation('records.v8'), next: 'an edit' },
  { ...inPreparation('text.csv'), next: 'an edit' },
  { ...inPreparation('prepared.json'), next: 'same data' },
  { ...inPreparation('downloads/all.json'), next: 'same data' },
  { ...inPreparation('downloads/all.csv'), next: 'an edit' },
  // The search index is written whole for an edit: only the same data again takes its bytes.
  { ...inPreparation('downloads/search/order/price/0.json'), next: 'same data' },
  { ...inPreparation('downloads/record-bytes.v8'), next: 'an edit' },
  { ...inPreparation('downloads/hashes.json'), next: 'same data' },
  { name: 'the build store’s host-files.json', file: () => join(storeDirOf(site), 'host-files.json'), next: 'an edit' },
  { name: 'the published build’s build-record.v8 (page keys)', file: () => join(publishedBuildDir(), 'build-record.v8'), next: 'an edit' },
  // Read only where the same data is built again without FULL_BUILD=1: whether there is anything to build.
  {
    name: 'the build store’s current-build.json (the published build’s stamp)',
    file: () => join(storeDirOf(site), 'current-build.json'),
    next: 'same data, not built in full',
  },
];

describe('a damaged cache costs time, never correctness', () => {
  let data = nextEdit();

  it('a first build, and an edit (so the preparation records the rows it changed)', () => {
    build(data);
    data = nextEdit();
    build(data);
    expectCleanBuild(data);
  });

  for (const [index, kind] of KINDS.entries()) {
    // Every kind of damage comes round in turn; every kind of file is damaged once or twice.
    const how = DAMAGES[index % DAMAGES.length]!;
    it(`${kind.name} ${how}, then ${kind.next}: said in one line, a clean build's bytes`, () => {
      const file = kind.file();
      expect(existsSync(file), file).toBe(true);
      damage(file, how);
      if (kind.next === 'an edit') data = nextEdit();
      const log = build(data, { full: kind.next === 'same data' });
      const said = log.split('\n').filter((line) => line.includes('is damaged'));
      expect(said, log).toHaveLength(1);
      expect(said[0]).toContain(file.slice(file.lastIndexOf('/') + 1));
      expectCleanBuild(data);
      // What it made again is whole: the next test's build says exactly one file is damaged (its
      // own), and the one after the last kind says none is.
    });
  }

  it("Node's compile cache (V8's code of Astro, Vite and the build's modules) damaged, every entry: compiled again, a clean build's bytes", () => {
    const cache = join(workspace, 'node-compile-cache');
    const buildWithCache = (dataFile: string) => {
      const result = runBuild({ ...env(dataFile, site), NODE_COMPILE_CACHE: cache, FULL_BUILD: '1' }, project);
      const log = `${result.stdout}\n${result.stderr}`;
      expect(result.status, log).toBe(0);
      return log;
    };
    // The build after the last kind's (the same data, in full): nothing it reads is damaged.
    expect(buildWithCache(data)).not.toContain('is damaged');
    const entries = readdirSync(cache, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && statSync(join(entry.parentPath, entry.name)).size > 2)
      .map((entry) => join(entry.parentPath, entry.name));
    // Hundreds of modules: the build turned the cache on.
    expect(entries.length).toBeGreaterThan(100);
    for (const [index, file] of entries.entries()) damage(file, DAMAGES[index % DAMAGES.length]!);
    data = nextEdit();
    buildWithCache(data);
    expectCleanBuild(data);
  });
});
