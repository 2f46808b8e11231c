/**
 * A damaged published build never turns the shrink guard off. The published manifest is what a
 * build reads to know what is published: one with a field missing, a field of the wrong type, cut
 * short or not JSON at all stops the next build with a message naming the file (exit 1, the site
 * unchanged), where before it read as "nothing is published" and a truncated export went out. The
 * build's record (page keys, the rows it was made from) is a hint: damaged, it is said and the
 * build renders every page, but the guard still reads the published rows from the site's own
 * `all.json`; where that is damaged too, the build stops as well. ALLOW_SHRINK=1 is the way on.
 */
import { closeSync, existsSync, openSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeDirOf } from '../../src/publish/store.ts';
import { buildSite, projectRoot, runBuild, tempDir, treeHashes, projectCopy } from '../support/site.ts';

const workspace = tempDir('damaged-publication');
/** A copy of the project of this file's own (its caches and build lock): the file runs beside others. */
const project = projectCopy(workspace);
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const site = join(workspace, 'site');
const env = (dataFile: string) => ({
  DATA_FILE: dataFile,
  OUT_DIR: site,
  DEPLOY_DIR: `${site}-deploy`,
  BASE_URL: 'https://cars.example.com',
});

const lines = readFileSync(join(projectRoot, 'data/captured-car-models.csv'), 'utf8').replace(/\n$/, '').split('\n');
const whole = join(workspace, 'whole.csv');
writeFileSync(whole, `${lines.join('\n')}\n`);
/** An export cut short: the header and the first half of the rows. */
const half = join(workspace, 'half.csv');
writeFileSync(half, `${lines.slice(0, 1 + Math.floor((lines.length - 1) / 2)).join('\n')}\n`);

const manifestFile = () => join(site, 'manifest.json');
const recordFile = () => join(storeDirOf(site), 'current', 'build-record.v8');
const publishedManifest = () => JSON.parse(readFileSync(manifestFile(), 'utf8')) as Record<string, unknown>;

/** Rewrites a file in place (its inode kept: the published build's own file, as a disk error or a tool would). */
function rewrite(file: string, bytes: string | Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    writeSync(fd, buffer, 0, buffer.length, 0);
  } finally {
    closeSync(fd);
  }
  const { size } = statSync(file);
  if (size > (typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length)) writeFileSync(file, bytes);
}

const MANIFEST_DAMAGES: readonly { name: string; damage: () => void; said: string }[] = [
  {
    name: 'a field missing',
    damage: () => {
      const { count: _count, ...rest } = publishedManifest();
      writeFileSync(manifestFile(), JSON.stringify(rest));
    },
    said: 'is not a manifest this build can read',
  },
  {
    name: 'a field of the wrong type',
    damage: () => writeFileSync(manifestFile(), JSON.stringify({ ...publishedManifest(), count: String(publishedManifest()['count']) })),
    said: 'is not a manifest this build can read',
  },
  {
    name: 'cut short',
    damage: () => writeFileSync(manifestFile(), readFileSync(manifestFile()).subarray(0, 200)),
    said: 'is not JSON',
  },
  { name: 'not JSON', damage: () => writeFileSync(manifestFile(), '<html>502 Bad Gateway</html>'), said: 'is not JSON' },
  { name: 'missing', damage: () => rmSync(manifestFile()), said: 'is missing from the published site' },
];

/** The whole build published before a case: its folder, its files by hash, and the bytes of the files the cases damage. */
interface WholeBuild {
  folder: string;
  tree: Record<string, string>;
  damageable: Map<string, Buffer>;
}

describe('a damaged published build keeps the shrink guard on', () => {
  let published: WholeBuild | undefined;
  const damageable = () => [manifestFile(), recordFile(), join(site, 'all.json')];
  const isWholeBuild = ({ folder, tree, damageable: files }: WholeBuild) =>
    realpathSync(site) === folder &&
    JSON.stringify(treeHashes(site)) === JSON.stringify(tree) &&
    [...files].every(([file, bytes]) => existsSync(file) && readFileSync(file).equals(bytes));

  beforeEach(() => {
    // Each case starts from a whole published build of every row: built, or the one the case before
    // left, its damage put back (afterEach), where that case's build was refused and changed nothing.
    if (published !== undefined && isWholeBuild(published)) return;
    buildSite({ ...env(whole), ALLOW_SHRINK: '1' }, project);
    published = {
      folder: realpathSync(site),
      tree: treeHashes(site),
      damageable: new Map(damageable().map((file) => [file, readFileSync(file)])),
    };
  });
  afterEach(() => {
    // Only into the build it was taken from: a case that published another build is built over.
    if (published === undefined || realpathSync(site) !== published.folder) return;
    for (const [file, bytes] of published.damageable) writeFileSync(file, bytes);
  });

  it('the guard refuses a cut export over a whole published build (the reference)', () => {
    const before = treeHashes(site);
    const result = runBuild(env(half), project);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain('build again with ALLOW_SHRINK=1');
    expect(treeHashes(site)).toEqual(before);
  });

  for (const { name, damage, said } of MANIFEST_DAMAGES) {
    it(`a published manifest with ${name} stops the build, naming the file; the site is unchanged`, () => {
      damage();
      const before = treeHashes(site);
      const result = runBuild(env(half), project);
      expect(result.status, result.stderr).toBe(1);
      expect(result.stderr).toContain(`${join(site, 'manifest.json')} ${said}`);
      expect(result.stderr).toContain('cannot check that the new data keeps the published rows');
      expect(result.stderr).toContain('build again with ALLOW_SHRINK=1');
      expect(result.stderr).not.toMatch(/^ {4}at /m);
      expect(treeHashes(site)).toEqual(before);
    });
  }

  it('ALLOW_SHRINK=1 over a damaged manifest builds from the data alone, and says so', () => {
    writeFileSync(manifestFile(), '{');
    const result = runBuild({ ...env(half), ALLOW_SHRINK: '1' }, project);
    expect(result.status, result.stderr).toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain('this build replaces the published site as a first build would');
    expect(publishedManifest()['count']).toBe(Math.floor((lines.length - 1) / 2));
  });

  for (const how of ['cut short', 'bytes flipped'] as const) {
    it(`a published record ${how}: said, every page rendered, and the guard still refuses a cut export`, () => {
      const file = recordFile();
      const bytes = readFileSync(file);
      if (how === 'cut short') writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
      else rewrite(file, Buffer.from(bytes.map((byte, index) => (index % 97 === 0 ? byte ^ 0xff : byte))));
      const before = treeHashes(site);
      const result = runBuild(env(half), project);
      expect(result.status, result.stderr).toBe(1);
      expect(result.stderr).toContain('build-record.v8 is damaged');
      expect(result.stderr).toContain(
        `This build would remove ${lines.length - 1 - Math.floor((lines.length - 1) / 2)} of the ${lines.length - 1} published rows`,
      );
      expect(treeHashes(site)).toEqual(before);
    });
  }

  it('a damaged record and a damaged published all.json: the build stops, naming the file', () => {
    writeFileSync(recordFile(), 'not a record');
    writeFileSync(join(site, 'all.json'), '[{"id":');
    const before = treeHashes(site);
    const result = runBuild(env(half), project);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stderr).toContain(`${join(site, 'all.json')} is not JSON`);
    expect(result.stderr).toContain('build again with ALLOW_SHRINK=1');
    expect(result.stderr).not.toMatch(/^ {4}at /m);
    expect(treeHashes(site)).toEqual(before);
  });
});
